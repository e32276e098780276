import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import archiver from "archiver";
import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { mayActAsUser } from "../rules/permissions.ts";
import { extensionOf, formatOf } from "../images/image-formats.ts";
import type { ImageStorage } from "../images/image-storage.ts";
import { createExportQueries } from "./export.queries.ts";

const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

/**
 * GET /user/{id}/export (docs/api.md §12): a zip streamed to the client (any writable stream) as it is written. First the original of
 * every image the user uploaded (`images/{id}.{ext}`), each read from the store in use (data folder or bucket)
 * only when the zip reaches it, so one image at a time is in memory; then `account.json`, written list by list.
 * Nothing is built in memory or on disk first.
 */
export function createAccountExport(db: Database, storage: ImageStorage) {
  const q = createExportQueries(db);

  /** account.json, one list at a time (each list is one query). `missing`: images whose bytes were not found. */
  async function* accountJson(id: number, images: Awaited<ReturnType<typeof q.images>>, missing: Set<number>) {
    const profile = (await q.profile(id))!;
    yield `{\n"format": "inkwell-export/1",\n"exportedAt": ${JSON.stringify(new Date().toISOString())},\n`;
    yield `"profile": ${JSON.stringify({ ...profile, joinedAt: toIso(profile.joinedAt) })},\n`;
    const list = async function* (name: string, rows: Promise<unknown[]>, last = false) {
      yield `${JSON.stringify(name)}: ${JSON.stringify(await rows)}${last ? "\n" : ",\n"}`;
    };
    yield* list(
      "memberships",
      q.memberships(id).then((rows) => rows.map((r) => ({ ...r, joinedAt: toIso(r.joinedAt) }))),
    );
    yield* list(
      "follows",
      q.follows(id).then((rows) => rows.map((r) => ({ ...r, followedAt: toIso(r.followedAt) }))),
    );
    const likes = { posts: await q.postLikes(id), chapters: await q.chapterLikes(id), comments: await q.commentLikes(id) };
    yield `"likes": ${JSON.stringify(likes)},\n`;
    yield* list(
      "posts",
      q.posts(id).then((rows) => rows.map((r) => ({ ...r, date: toIso(r.date) }))),
    );
    yield* list(
      "comments",
      q.comments(id).then((rows) => rows.map((r) => ({ ...r, createdAt: toIso(r.createdAt), editedAt: iso(r.editedAt) }))),
    );
    yield* list(
      "series",
      q.series(id).then((rows) => rows.map((r) => ({ ...r, createdAt: toIso(r.createdAt) }))),
    );
    const pages = new Map<number, number[]>();
    for (const page of await q.pages(id)) pages.set(page.chapterId, [...(pages.get(page.chapterId) ?? []), page.imageId]);
    yield* list(
      "chapters",
      q.chapters(id).then((rows) => rows.map((r) => ({ ...r, date: toIso(r.date), pageImageIds: pages.get(r.id) ?? [] }))),
    );
    yield* list(
      "readingProgress",
      q.readingProgress(id).then((rows) => rows.map((r) => ({ ...r, updatedAt: toIso(r.updatedAt) }))),
    );
    yield* list(
      "chaptersRead",
      q.chaptersRead(id).then((rows) => rows.map((r) => ({ ...r, readAt: toIso(r.readAt) }))),
    );
    yield* list(
      "reports",
      q.reports(id).then((rows) => rows.map((r) => ({ ...r, createdAt: toIso(r.createdAt), resolvedAt: iso(r.resolvedAt) }))),
    );
    const imageList = images.map(({ fileKey: _key, ...r }) => ({
      ...r,
      createdAt: toIso(r.createdAt),
      file: imagePath(r),
      // Its row exists but the store had no bytes (an empty entry in the zip).
      ...(missing.has(r.id) ? { missing: true } : {}),
    }));
    yield* list("images", Promise.resolve(imageList), true);
    yield "}\n";
  }

  const imagePath = (image: { id: number; contentType: string }) => `images/${image.id}.${extensionOf(formatOf(image.contentType))}`;

  /** The zip, written to `out` as it is made; resolves once it is all written, rejects when it was cut short. */
  async function writeZip(id: number, images: Awaited<ReturnType<typeof q.images>>, out: Writable): Promise<void> {
    const missing = new Set<number>();

    const archive = archiver("zip", { zlib: { level: 6 } });
    const sent = pipeline(archive, out);
    sent.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
    // Resolves when the zip has taken the entry in, rejects when the zip failed (a client gone, a read failed).
    const add = (source: Buffer | Readable, name: string, options: { store?: boolean; date?: Date } = {}) => {
      const added = new Promise((resolve) => archive.once("entry", resolve));
      archive.append(source, { name, ...options });
      return Promise.race([added, sent]);
    };
    // An entry that fails to read fails the whole zip rather than the process.
    const source = (stream: Readable) => stream.on("error", (err) => archive.destroy(err));
    try {
      // One image at a time: archiver starts reading every appended stream at once, so each is appended only
      // after the one before is in the zip (and the zip waits for the client).
      for (const image of images) {
        const found = await storage.read(
          { id: image.id, fileKey: image.fileKey, format: formatOf(image.contentType), width: image.width },
          undefined,
        );
        if (!found) missing.add(image.id);
        // Images are compressed already: stored as they are.
        await add(found?.bytes ?? Buffer.alloc(0), imagePath(image), { store: true, date: new Date(image.createdAt) });
      }
      await add(source(Readable.from(accountJson(id, images, missing))), "account.json");
      await Promise.race([archive.finalize(), sent]);
    } catch (err) {
      // A failure (a store that is down, a client gone) ends the pipeline: the answer is cut short.
      archive.destroy(err as Error);
    }
    await sent;
  }

  return {
    /**
     * 404 for no such user, 403 for anyone but the user; then the answer's headers and the zip, which `writeTo`
     * streams into the response (the router's, which sets the headers first).
     */
    async exportAccount(
      id: number,
      viewerId: number,
    ): Promise<{ headers: Record<string, string>; writeTo: (out: Writable) => Promise<void> }> {
      const user = await q.profile(id);
      if (!user) throw notFound("User not found");
      if (!mayActAsUser({ id: viewerId }, { id })) throw forbidden("You can only export your own data");
      const images = await q.images(id);
      return {
        headers: {
          "Content-Type": "application/zip",
          "Content-Disposition": `attachment; filename="inkwell-${user.username}.zip"`,
          "Cache-Control": "private, no-store",
        },
        writeTo: (out) => writeZip(id, images, out),
      };
    },
  };
}
