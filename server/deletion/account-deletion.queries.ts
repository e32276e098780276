import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { prepare, type Executor, type Prepared } from "../db/prepared.ts";
import { enqueueJob } from "../jobs/jobs.queries.ts";

type User = { userId: number };

// Batch sizes: each batch is one transaction, so a big account never holds the writer for long (decision 018).
export const ACCOUNT_BATCH = { posts: 50, comments: 200, links: 1000, notifications: 5000, images: 200 } as const;

/**
 * A user's links to other people's things (docs/api.md §6): the count each one moved goes back with it. `after`: what
 * else moves with a batch (`:batch` the targets' ids): a post like's hub order version, the join or follow
 * notification the link made (by the subject's index, not by actor).
 */
interface Link {
  link: "Membership" | "Follow" | "PostLike" | "ChapterLike" | "CommentLike";
  column: "hubId" | "seriesId" | "postId" | "chapterId" | "commentId";
  target: "Hub" | "Series" | "Post" | "Chapter" | "Comment";
  counter: "memberCount" | "followersCount" | "likes";
  after: ((batch: RawBuilder<unknown>, userId: RawBuilder<unknown>) => RawBuilder<unknown>)[];
}

const notificationsOf = (column: "hubId" | "seriesId") => [
  (batch: RawBuilder<unknown>, userId: RawBuilder<unknown>) => sql`UPDATE "User" SET "unreadNotifications" = "unreadNotifications" - x."n"
      FROM (SELECT "userId", COUNT(*) AS "n" FROM "Notification"
            WHERE "readAt" IS NULL AND ${sql.ref(column)} IN (${batch}) AND "actorId" = ${userId} GROUP BY "userId") x
      WHERE "User"."id" = x."userId"`,
  (batch: RawBuilder<unknown>, userId: RawBuilder<unknown>) =>
    sql`DELETE FROM "Notification" WHERE ${sql.ref(column)} IN (${batch}) AND "actorId" = ${userId}`,
];

const LINKS: Link[] = [
  { link: "Membership", column: "hubId", target: "Hub", counter: "memberCount", after: notificationsOf("hubId") },
  { link: "Follow", column: "seriesId", target: "Series", counter: "followersCount", after: notificationsOf("seriesId") },
  {
    link: "PostLike",
    column: "postId",
    target: "Post",
    counter: "likes",
    // As a like does: pages of a hub's posts by likes are keyed by this version.
    after: [
      (batch) =>
        sql`UPDATE "Hub" SET "likeOrderVersion" = "likeOrderVersion" + 1 WHERE "id" IN (SELECT "hubId" FROM "Post" WHERE "id" IN (${batch}))`,
    ],
  },
  { link: "ChapterLike", column: "chapterId", target: "Chapter", counter: "likes", after: [] },
  { link: "CommentLike", column: "commentId", target: "Comment", counter: "likes", after: [] },
];

/** One batch of a link: counts down, what moves with it, then the rows (the same rows: ordered by the primary key). */
function unlinkSteps(db: Database, { link, column, target, counter, after }: Link): Prepared<User, never>[] {
  const col = sql.ref(column);
  const batch = (userId: RawBuilder<unknown>) =>
    sql`SELECT ${col} FROM ${sql.table(link)} WHERE "userId" = ${userId} ORDER BY ${col} LIMIT ${sql.lit(ACCOUNT_BATCH.links)}`;
  const makers = [
    (userId: RawBuilder<unknown>) =>
      sql`UPDATE ${sql.table(target)} SET ${sql.ref(counter)} = ${sql.ref(counter)} - 1 WHERE "id" IN (${batch(userId)})`,
    ...after.map((make) => (userId: RawBuilder<unknown>) => make(batch(userId), userId)),
    (userId: RawBuilder<unknown>) => sql`DELETE FROM ${sql.table(link)} WHERE "userId" = ${userId} AND ${col} IN (${batch(userId)})`,
  ];
  return makers.map((make) => prepare<User>(db.kysely, (p) => make(sql`CAST(${p("userId")} AS INTEGER)`) as RawBuilder<never>));
}

/** What deleting an account reads and writes, apart from the deletions of its series, hubs and posts it reuses; each batch on the service's transaction. */
export function createAccountDeletionQueries(db: Database) {
  const { kysely } = db;
  const unlink = LINKS.map((spec) => ({ link: spec.link, steps: unlinkSteps(db, spec) }));
  const q = {
    series: prepare<User, { id: number }>(kysely, (p) => sql`SELECT "id" FROM "Series" WHERE "authorId" = ${p("userId")} ORDER BY "id"`),
    // Whether anyone else has a post in the hub: then it stays, handed over.
    hubs: prepare<User, { id: number; shared: number }>(
      kysely,
      (p) => sql`SELECT h."id", CASE WHEN EXISTS (SELECT 1 FROM "Post" o WHERE o."hubId" = h."id" AND o."authorId" <> ${p("userId")})
          THEN 1 ELSE 0 END AS "shared"
        FROM "Hub" h WHERE h."authorId" = ${p("userId")} ORDER BY h."id"`,
    ),
    // The longest-serving added moderator, else the author of the oldest post by someone else.
    successor: prepare<User & { hubId: number }, { id: number | null }>(
      kysely,
      (p) => sql`SELECT COALESCE(
          (SELECT "userId" FROM "HubModerator" WHERE "hubId" = ${p("hubId")} AND "userId" <> ${p("userId")} ORDER BY "createdAt", "userId" LIMIT 1),
          (SELECT "authorId" FROM "Post" WHERE "hubId" = ${p("hubId")} AND "authorId" <> ${p("userId")} ORDER BY "date", "id" LIMIT 1)
        ) AS "id"`,
    ),
    // The hub's logo and banner go when they are the leaving user's images (those are deleted).
    handOver: prepare<User & { hubId: number; to: number }>(
      kysely,
      (p) => sql`UPDATE "Hub" SET "authorId" = ${p("to")},
          "profileImageId" = CASE WHEN EXISTS (SELECT 1 FROM "Image" i WHERE i."id" = "Hub"."profileImageId" AND i."authorId" = ${p("userId")})
            THEN NULL ELSE "profileImageId" END,
          "profileBannerId" = CASE WHEN EXISTS (SELECT 1 FROM "Image" i WHERE i."id" = "Hub"."profileBannerId" AND i."authorId" = ${p("userId")})
            THEN NULL ELSE "profileBannerId" END
        WHERE "id" = ${p("hubId")} AND "authorId" = ${p("userId")}`,
    ),
    // The new creator moderates by being the author (decision 018), not by a row.
    dropModeratorRow: prepare<{ hubId: number; to: number }>(
      kysely,
      (p) => sql`DELETE FROM "HubModerator" WHERE "hubId" = ${p("hubId")} AND "userId" = ${p("to")}`,
    ),
    posts: prepare<User, { id: number }>(
      kysely,
      (p) => sql`SELECT "id" FROM "Post" WHERE "authorId" = ${p("userId")} ORDER BY "id" LIMIT ${sql.lit(ACCOUNT_BATCH.posts)}`,
    ),
    comments: prepare<User & { after: number }, { id: number; postId: number | null; chapterId: number | null }>(
      kysely,
      (p) => sql`SELECT "id", "postId", "chapterId" FROM "Comment" WHERE "authorId" = ${p("userId")} AND "id" > ${p("after")}
        ORDER BY "id" LIMIT ${sql.lit(ACCOUNT_BATCH.comments)}`,
    ),
    // Left over: a comment the tombstoning did not take (none expected): it keeps its place without an author.
    orphanComments: prepare<User>(kysely, (p) => sql`UPDATE "Comment" SET "authorId" = NULL WHERE "authorId" = ${p("userId")}`),
    notificationsTo: prepare<User>(
      kysely,
      (p) => sql`DELETE FROM "Notification" WHERE "id" IN (SELECT "id" FROM "Notification" WHERE "userId" = ${p("userId")}
        ORDER BY "createdAt" DESC, "id" DESC LIMIT ${sql.lit(ACCOUNT_BATCH.notifications)})`,
    ),
    moderatorRows: prepare<User>(kysely, (p) => sql`DELETE FROM "HubModerator" WHERE "userId" = ${p("userId")}`),
    // Those who blocked the account count one block fewer (their Block rows cascade with the account).
    blockers: prepare<User>(
      kysely,
      (p) =>
        sql`UPDATE "User" SET "blockCount" = "blockCount" - 1 WHERE "id" IN (SELECT "userId" FROM "Block" WHERE "blockedId" = ${p("userId")})`,
    ),
    // Made while the deletion ran (a mention of the account, say): few, so in the last unit.
    lateNotifications: prepare<User>(kysely, (p) => sql`DELETE FROM "Notification" WHERE "userId" = ${p("userId")}`),
    // Every use of the user's images goes (theirs are deleted wherever they are used), and their own avatar's.
    releaseImages: prepare<User>(
      kysely,
      (p) => sql`INSERT INTO "ImageRelease" ("imageId", "createdAt")
        SELECT "id", 0 FROM "Image" WHERE "authorId" = ${p("userId")} ORDER BY "id" LIMIT ${sql.lit(ACCOUNT_BATCH.images)}
        ON CONFLICT DO NOTHING`,
    ),
    dropImageUses: prepare<User>(
      kysely,
      (p) => sql`DELETE FROM "ImageUse" WHERE "imageId" IN (SELECT "id" FROM "Image" WHERE "authorId" = ${p("userId")}
        ORDER BY "id" LIMIT ${sql.lit(ACCOUNT_BATCH.images)})`,
    ),
    dropOwnUses: prepare<User>(kysely, (p) => sql`DELETE FROM "ImageUse" WHERE "userType" = 'user' AND "userId" = ${p("userId")}`),
    dateReleases: prepare<{ now: number }>(kysely, (p) => sql`UPDATE "ImageRelease" SET "createdAt" = ${p("now")} WHERE "createdAt" = 0`),
    hasImages: prepare<User, { id: number }>(kysely, (p) => sql`SELECT "id" FROM "Image" WHERE "authorId" = ${p("userId")} LIMIT 1`),
    // Locks the account for its last unit; no row: it is already gone.
    lockUser: prepare<User, { id: number }>(
      kysely,
      (p) => sql`UPDATE "User" SET "tokenGeneration" = "tokenGeneration" + 1 WHERE "id" = ${p("userId")} RETURNING "id"`,
    ),
    deleteUser: prepare<User>(kysely, (p) => sql`DELETE FROM "User" WHERE "id" = ${p("userId")}`),
  };

  return {
    seriesIds: async (userId: number) => (await q.series.all({ userId })).map((row) => row.id),
    hubs: (userId: number) => q.hubs.all({ userId }),

    /** Gives a hub the user created to its successor; false: nobody to give it to (then it is deleted). */
    async handOverHub(trx: Executor, userId: number, hubId: number): Promise<boolean> {
      const to = (await q.successor.first({ userId, hubId }, trx))?.id ?? null;
      if (to === null) return false;
      await q.handOver.run({ userId, hubId, to }, trx);
      await q.dropModeratorRow.run({ hubId, to }, trx);
      return true;
    },

    /** A batch of the user's post ids (the caller deletes them in one transaction). */
    postBatch: async (trx: Executor, userId: number) => (await q.posts.all({ userId }, trx)).map((row) => row.id),

    commentBatch: (userId: number, after: number) => q.comments.all({ userId, after }),

    /** One batch of every link (likes, follows, memberships); answers how many rows went (0: none left). */
    async unlinkBatch(trx: Executor, userId: number): Promise<number> {
      let removed = 0;
      for (const { steps } of unlink) {
        for (const [i, step] of steps.entries()) {
          const changed = await step.run({ userId }, trx);
          if (i === steps.length - 1) removed += changed;
        }
      }
      return removed;
    },

    /** One batch of the notifications the user was sent; answers how many went. */
    notificationBatch: (trx: Executor, userId: number) => q.notificationsTo.run({ userId }, trx),

    /** Releases a batch of the user's images for the "image-release" work; false: none left. */
    async releaseImageBatch(trx: Executor, userId: number): Promise<boolean> {
      if (!(await q.hasImages.first({ userId }, trx))) return false;
      await q.dropOwnUses.run({ userId }, trx);
      await q.releaseImages.run({ userId }, trx);
      await q.dropImageUses.run({ userId }, trx);
      const now = nowMs();
      await q.dateReleases.run({ now }, trx);
      await enqueueJob(trx, "image-release", 0, now);
      return true;
    },

    /**
     * The account's last unit: the row, with what still names it (moderator rows, a comment left with its author);
     * the rest cascades or is set null by the foreign keys (revoked tokens, blocks, bans, reports made, the mod log).
     * "images": one was uploaded meanwhile, release again; "gone": no such account.
     */
    async deleteAccount(trx: Executor, userId: number): Promise<"deleted" | "images" | "gone"> {
      if (!(await q.lockUser.first({ userId }, trx))) return "gone";
      if (await q.hasImages.first({ userId }, trx)) return "images";
      await q.moderatorRows.run({ userId }, trx);
      await q.blockers.run({ userId }, trx);
      await q.lateNotifications.run({ userId }, trx);
      await q.orphanComments.run({ userId }, trx);
      await q.deleteUser.run({ userId }, trx);
      return "deleted";
    },
  };
}
