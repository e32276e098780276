import type { Database } from "../db/database.ts";
import { HttpError, notFound } from "../http/errors.ts";
import type { ImageMetadata } from "../rules/api-responses.ts";
import { nowMs, toIso } from "../db/dates.ts";
import type { Actor } from "../rules/permissions.ts";
import type { DataVersionStore } from "../shared-state.ts";
import { noVerifiedEmailCheck, type VerifiedEmailCheck } from "../moderation/write-guards.service.ts";
import { ImageBytesCache, type CachedImage } from "./image-bytes-cache.ts";
import { createImageVisibilityQueries, type ImageState } from "./image-visibility.queries.ts";
import { maySeeUse, publicVisibility, type ImageVisibility } from "./image-visibility.ts";
import { cleanFileName, cleanUpload, CONTENT_TYPES, extensionOf, formatOf } from "./image-formats.ts";
import type { ImageStorage } from "./image-storage.ts";
import { createImageQueries, type ImageRow, type NewImage } from "./images.queries.ts";
import { DEFAULT_UPLOAD_QUOTA_BYTES, quotaMessage } from "./upload-limits.ts";

export type { ImageRow } from "./images.queries.ts";

export interface ImageServiceOptions {
  /** Bytes each user may store (UPLOAD_QUOTA_BYTES). */
  quotaBytes?: number;
  /** Recently served image bytes kept in memory. */
  cacheBytes?: number;
  /**
   * The data version every committed write moves (server/shared-state.ts; in Redis with several instances): a kept
   * image is checked again after it moves. Without it, nothing tells the byte cache of writes: every hit is checked.
   */
  versions?: Pick<DataVersionStore, "current">;
  /** REQUIRE_VERIFIED_EMAIL's check of uploads (off unless given). */
  verifiedEmail?: VerifiedEmailCheck;
}

/** What GET /images/{id} sends: the bytes, and whether anyone may cache them. */
export type ServedImage = Omit<CachedImage, "checkedAt">;

const notFoundImage = () => notFound("Image not found");

/**
 * The byte cache's key of what was asked (the format is known only from the row): a GIF's rendition asked for by both
 * kinds of client is kept twice, which the byte budget bounds.
 */
export function bytesKey(id: number, width: number | undefined, acceptsWebp: boolean): string {
  return width === undefined ? `${id}:` : `${id}:${width}:${acceptsWebp ? "webp" : "own"}`;
}

/**
 * Uploads, metadata and bytes. An image nothing published references is private: its uploader sees
 * it, anyone else gets the 404 of a missing image (docs/decisions/009-image-safety.md). A published image whose every
 * use is removed is seen only by who may see a removed thing that uses it, and one a deletion let go of by nobody
 * but its uploader (docs/decisions/025-withdrawable-images.md).
 */
export function createImageService(db: Database, files: ImageStorage, options: ImageServiceOptions = {}) {
  const quotaBytes = options.quotaBytes ?? DEFAULT_UPLOAD_QUOTA_BYTES;
  const verifiedEmail = options.verifiedEmail ?? noVerifiedEmailCheck;
  const cache = new ImageBytesCache(options.cacheBytes ?? 64 * 1024 * 1024);
  const images = createImageQueries(db);
  const overQuota = () => new HttpError(413, quotaMessage(quotaBytes));
  const visibility = createImageVisibilityQueries(db);
  let unversioned = 0;
  const versions = options.versions ?? { current: () => Promise.resolve(`unversioned.${++unversioned}`) };

  // The state read, shared by the requests for one image at one data version: after a write, a hot image's many
  // concurrent hits make one read, not one each. Never shared across versions (a later caller may need a later write).
  const statesInFlight = new Map<string, Promise<ImageState | undefined>>();
  function stateOf(id: number, version: string): Promise<ImageState | undefined> {
    const key = `${id}@${version}`;
    let read = statesInFlight.get(key);
    if (!read) {
      read = visibility.state(id).finally(() => statesInFlight.delete(key));
      statesInFlight.set(key, read);
    }
    return read;
  }

  /** How this viewer sees the image: public, theirs alone, or not at all (docs/decisions/025-withdrawable-images.md). */
  async function seenBy(state: ImageState | undefined, viewer: Actor | undefined): Promise<ImageVisibility> {
    if (!state) return "hidden";
    const common = publicVisibility(state);
    if (common !== "restricted") return common;
    if (!viewer) return "hidden";
    if (state.authorId === viewer.id) return "private";
    // Unpublished, or let go of by a deletion with nothing else using it: its uploader's only.
    if (state.publishedAt === null || !state.used) return "hidden";
    const uses = await visibility.useLayers(state.id, viewer.id);
    return uses.some((layers) => maySeeUse(viewer, layers)) ? "private" : "hidden";
  }

  return {
    /**
     * Crash-safe order: the file is fsynced in incoming/ under a random key (a bucket: a marker, then the object),
     * then the row naming the key is committed, then the file is renamed into place (a bucket: the marker deleted).
     * A committed row's bytes are readable at every step; the start-up tidy rolls a crash at any point forward (row
     * committed) or back (no row) (server/images/image-tidy.ts, docs/limits-and-durability.md).
     */
    async upload(file: { buffer: Buffer; originalname?: string }, authorId: number): Promise<ImageMetadata> {
      await verifiedEmail(db.kysely, authorId);
      const image = await cleanUpload(file.buffer);
      // Checked before the file is written, and again in the insert, where two uploads at once cannot both squeeze in.
      if ((await images.storedBytes(authorId)) + image.bytes.length > quotaBytes) throw overQuota();
      const fileKey = await files.stageUpload(image.bytes, image.format);
      const row = {
        fileName: cleanFileName(file.originalname, image.format),
        contentType: CONTENT_TYPES[image.format],
        size: image.bytes.length,
        width: image.width,
        height: image.height,
        authorId,
        createdAt: nowMs(),
      };
      let id: number;
      try {
        const inserted = await insertWithinQuota(db, images, { ...row, fileKey }, quotaBytes);
        if (inserted === null) throw overQuota();
        id = inserted;
      } catch (err) {
        await files.discardUpload(fileKey, image.format);
        throw err;
      }
      try {
        await files.moveIntoPlace(fileKey, id, image.format);
      } catch (err) {
        // No row without its file.
        await images.remove(id);
        await files.discardUpload(fileKey, image.format, id);
        throw err;
      }
      return toMetadata({ ...row, id, publishedAt: null, fileKey }, authorId);
    },

    async metadata(id: number, viewer: Actor | undefined): Promise<ImageMetadata> {
      const state = await visibility.state(id);
      if ((await seenBy(state, viewer)) === "hidden") throw notFoundImage();
      return toMetadata(state!, viewer?.id);
    },

    /**
     * The bytes to send for an image at the requested width (`?w=`) and whether they are public (see `seenBy`;
     * 404 for whoever may not see it). With `acceptsWebp`, the rendition of a JPEG or PNG is WebP. Recently served
     * bytes come from memory.
     */
    async bytesFor(
      id: number,
      { width, acceptsWebp = false }: { width?: number; acceptsWebp?: boolean },
      viewer: Actor | undefined,
    ): Promise<ServedImage> {
      const key = bytesKey(id, width, acceptsWebp);
      // Read before the state: a write committed after this read moves the version past it, so the entry is checked again.
      const version = await versions.current();
      const cached = cache.get(key);
      // The hot path: public when last checked, and nothing has been written since (no deletion, no removal).
      if (cached?.public && cached.checkedAt === version) return cached;
      const state = await stateOf(id, version);
      const seen = await seenBy(state, viewer);
      if (seen === "hidden") throw notFoundImage();
      const isPublic = seen === "public";
      if (cached) {
        ImageBytesCache.checked(cached, isPublic, version);
        return { ...cached, public: isPublic };
      }
      const row = state!;
      const image = { id, fileKey: row.fileKey, format: formatOf(row.contentType), width: row.width };
      const found = await files.read(image, width, acceptsWebp);
      // Gone from disk: a plain 404, never the file's path in the message.
      if (!found) throw notFoundImage();
      // The original sent in place of a rendition is kept as the original, never as the rendition.
      return cache.set(found.exact ? key : `${id}:`, found.bytes, CONTENT_TYPES[found.format], isPublic, version);
    },

    /**
     * The bytes kept under `key` (bytesKey) when they were public as checked at data version `version`, the hot path
     * of bytesFor: the response cache's early answer of an image (server/http/response-cache.ts). Counts as a use.
     */
    keptPublic(key: string, version: string): CachedImage | undefined {
      const cached = cache.get(key);
      return cached?.public && cached.checkedAt === version ? cached : undefined;
    },
  };
}

/**
 * Inserts the image's row if the uploader's images, this one included, stay within `quotaBytes`; answers its id, or
 * null when it does not fit. One transaction that first locks the uploader's row: on PostgreSQL two uploads of one
 * user at once take turns, and the second sums the first's bytes.
 */
export function insertWithinQuota(
  { kysely }: Database,
  images: ReturnType<typeof createImageQueries>,
  image: NewImage,
  quotaBytes: number,
): Promise<number | null> {
  return kysely.transaction().execute(async (trx) => {
    // The uploader is signed in: a missing row is a bug (or a deletion under way), not the client's error.
    if (!(await images.lockAuthor(image.authorId, trx))) throw new Error(`No user ${image.authorId} for an upload`);
    if ((await images.storedBytes(image.authorId, trx)) + image.size > quotaBytes) return null;
    return images.insert(image, trx);
  });
}

function toMetadata(row: ImageRow, viewerId: number | undefined): ImageMetadata {
  return {
    id: row.id,
    // The original file name can say more than the uploader meant to share.
    fileName: row.authorId === viewerId ? row.fileName : `image-${row.id}.${extensionOf(formatOf(row.contentType))}`,
    contentType: row.contentType as ImageMetadata["contentType"],
    size: row.size,
    width: row.width,
    height: row.height,
    authorId: row.authorId,
    createdAt: toIso(row.createdAt),
  };
}
