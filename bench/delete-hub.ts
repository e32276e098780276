// How long deleting a big hub holds the writer (docs/decisions/018-governance.md, "Deleting"): a hub of N posts (a
// like, a comment with a like and a notification, and an image use each) written straight into a fresh SQLite
// database, then DELETE /hubs/{id}'s transactions timed: in all, and the longest one (other requests wait that long). `node bench/delete-hub.ts [posts]` (default 20,000).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/database.ts";
import { migrateDatabase } from "../server/db/migrate.ts";
import { createDeletionService } from "../server/deletion/deletion.service.ts";
import { counterMismatches } from "../seed/counters.ts";

const POSTS = Number(process.argv[2] ?? 20_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-delete-hub-"));
try {
  await migrateDatabase(dir);
  const db = await openDatabase(dir);
  const { kysely } = db;
  const now = Date.now();
  const [author, reader] = await kysely
    .insertInto("User")
    .values(
      ["author", "reader"].map((u) => ({
        username: u,
        usernameKey: u,
        email: `${u}@x.test`,
        emailKey: `${u}@x.test`,
        passwordHash: "x",
        joinedAt: now,
      })),
    )
    .returning("id")
    .execute();
  const hub = await kysely
    .insertInto("Hub")
    .values({ name: "Big", nameKey: "big", authorId: author!.id, createdAt: now, postCount: POSTS, memberCount: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  await kysely.insertInto("Membership").values({ userId: author!.id, hubId: hub.id, createdAt: now }).execute();
  const CHUNK = 500;
  let unread = 0;
  for (let i = 0; i < POSTS; i += CHUNK) {
    await kysely.transaction().execute(async (trx) => {
      const n = Math.min(CHUNK, POSTS - i);
      const posts = await trx
        .insertInto("Post")
        .values(
          Array.from({ length: n }, (_, k) => ({
            title: `Post ${i + k}`,
            content: "Text ![a](/images/1)",
            date: now + i + k,
            authorId: author!.id,
            hubId: hub.id,
            likes: 1,
            commentCount: 1,
            threadCount: 1,
          })),
        )
        .returning("id")
        .execute();
      await trx
        .insertInto("PostLike")
        .values(posts.map((p) => ({ userId: reader!.id, postId: p.id })))
        .execute();
      await trx
        .insertInto("ImageUse")
        .values(posts.map((p) => ({ userType: "post" as const, userId: p.id, imageId: 1 })))
        .execute();
      const comments = await trx
        .insertInto("Comment")
        .values(posts.map((p) => ({ postId: p.id, authorId: reader!.id, content: "Nice", createdAt: now, likes: 1 })))
        .returning(["id", "postId"])
        .execute();
      await trx
        .insertInto("CommentLike")
        .values(comments.map((c) => ({ userId: author!.id, commentId: c.id })))
        .execute();
      await trx
        .insertInto("Notification")
        .values(
          comments.map((c) => ({
            userId: author!.id,
            kind: "comment",
            actorId: reader!.id,
            commentId: c.id,
            postId: c.postId,
            createdAt: now,
          })),
        )
        .execute();
      unread += comments.length;
    });
  }
  await kysely.updateTable("User").set({ unreadNotifications: unread }).where("id", "=", author!.id).execute();
  const deletion = createDeletionService(db);
  // better-sqlite3 runs on this thread: the longest gap between ticks is the longest a batch held everyone else.
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  }, 1);
  const started = performance.now();
  await deletion.deleteOwned("hub", hub.id);
  const ms = performance.now() - started;
  clearInterval(probe);
  longest = Math.max(longest, performance.now() - last);
  const mismatches = Object.entries(await counterMismatches(kysely)).filter(([, n]) => n !== 0);
  console.log(
    `deleted a hub of ${POSTS} posts (${POSTS} likes, comments, comment likes, notifications, image uses) in ${ms.toFixed(0)} ms, the longest hold ${longest.toFixed(0)} ms; counter mismatches: ${JSON.stringify(mismatches)}`,
  );
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
