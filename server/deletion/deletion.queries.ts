import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { prepare, type Executor, type Prepared } from "../db/prepared.ts";
import { enqueueJob } from "../jobs/jobs.queries.ts";

/** What a deletion removes, with everything inside it (docs/api.md §15, docs/decisions/018-governance.md). */
export type DeletedKind = "post" | "chapter" | "series" | "hub";

type Id = { id: number };
type Maker = (id: RawBuilder<unknown>) => RawBuilder<unknown>;

// A big hub or series is emptied in batches, one transaction each, before the last one deletes it: each batch holds
// SQLite's writer for tens of milliseconds instead of seconds (20,000 posts in one transaction: 1 s; bench/delete-hub.ts).
export const HUB_BATCH_POSTS = 1000;
export const SERIES_BATCH_CHAPTERS = 20;

/** A hub's posts or a series' chapters: where they are, the batch size, and the counts that count them. */
const BATCHED = {
  hub: {
    table: "Post",
    parent: "hubId",
    parentTable: "Hub",
    size: HUB_BATCH_POSTS,
    // The hub's count, and its order versions so no instance reuses page keys that counted the posts.
    uncount: (n: RawBuilder<unknown>) =>
      sql`"postCount" = "postCount" - ${n}, "postOrderVersion" = "postOrderVersion" + 1, "likeOrderVersion" = "likeOrderVersion" + 1`,
  },
  series: {
    table: "Chapter",
    parent: "seriesId",
    parentTable: "Series",
    size: SERIES_BATCH_CHAPTERS,
    uncount: (n: RawBuilder<unknown>) => sql`"chapterCount" = "chapterCount" - ${n}`,
  },
} as const;
export type Batched = keyof typeof BATCHED;
// The batch's rows, newest first over the list indexes: the same rows for every statement of its transaction.
const rowsOf = (kind: Batched, limit: number, offset = 0): Maker => {
  const { table, parent } = BATCHED[kind];
  return (id) =>
    sql`SELECT "id" FROM ${sql.table(table)} WHERE ${sql.ref(parent)} = ${id} ORDER BY "date" DESC, "id" DESC LIMIT ${sql.lit(limit)} OFFSET ${sql.lit(offset)}`;
};
const batchOf = (kind: Batched) => rowsOf(kind, BATCHED[kind].size);

/** A deletion's unit: the whole thing, or one batch of a hub's posts or a series' chapters. */
export type StepKind = DeletedKind | "hub-batch" | "series-batch";

/** Posts or chapters: what hangs off each of them (its comments, likes, image uses and notifications). */
interface Content {
  table: "Post" | "Chapter";
  /** The column naming it on comments, likes and notifications; its ImageUse type. */
  column: "postId" | "chapterId";
  userType: "post" | "chapter";
  likes: "PostLike" | "ChapterLike";
  /** Its own rows besides those, deleted before it. */
  own: ((ids: Maker) => Maker)[];
}
const POSTS: Content = { table: "Post", column: "postId", userType: "post", likes: "PostLike", own: [] };
const CHAPTERS: Content = {
  table: "Chapter",
  column: "chapterId",
  userType: "chapter",
  likes: "ChapterLike",
  own: [
    (ids) => (id) => sql`DELETE FROM "ChapterPage" WHERE "chapterId" IN (${ids(id)})`,
    // A chapter's new-chapter notifications still being made.
    (ids) => (id) => sql`DELETE FROM "Job" WHERE "kind" = ${sql.lit("chapter-notifications")} AND "subjectId" IN (${ids(id)})`,
  ],
};

// The posts or chapters inside the deleted thing (`:id`), as a subquery over their indexes.
const CONTENTS: Record<StepKind, { content: Content; ids: Maker }> = {
  "hub-batch": { content: POSTS, ids: batchOf("hub") },
  "series-batch": { content: CHAPTERS, ids: batchOf("series") },
  post: { content: POSTS, ids: (id) => sql`SELECT ${id}` },
  chapter: { content: CHAPTERS, ids: (id) => sql`SELECT ${id}` },
  series: { content: CHAPTERS, ids: (id) => sql`SELECT "id" FROM "Chapter" WHERE "seriesId" = ${id}` },
  hub: { content: POSTS, ids: (id) => sql`SELECT "id" FROM "Post" WHERE "hubId" = ${id}` },
};

/** One post or chapter (`:id`), or a batch of a hub's or a series' (`:id` the parent), goes with the parent's counts. */
const removal = (kind: Batched, one: boolean): Maker[] => {
  const { table, parent, parentTable, uncount } = BATCHED[kind];
  const ids: Maker = one ? (id) => sql`SELECT ${id}` : batchOf(kind);
  const parentId: Maker = one ? (id) => sql`(SELECT ${sql.ref(parent)} FROM ${sql.table(table)} WHERE "id" = ${id})` : (id) => id;
  return [
    (id) =>
      sql`UPDATE ${sql.table(parentTable)} SET ${uncount(one ? sql.lit(1) : sql`(SELECT COUNT(*) FROM (${ids(id)}) "b")`)} WHERE "id" = ${parentId(id)}`,
    (id) => sql`DELETE FROM ${sql.table(table)} WHERE "id" IN (${ids(id)})`,
  ];
};

// What each kind removes last: its own rows, with the counts that counted them.
const LAST: Record<StepKind, Maker[]> = {
  post: removal("hub", true),
  chapter: removal("series", true),
  "hub-batch": removal("hub", false),
  "series-batch": removal("series", false),
  series: [
    (id) => sql`DELETE FROM "Chapter" WHERE "seriesId" = ${id}`,
    (id) => sql`DELETE FROM "Follow" WHERE "seriesId" = ${id}`,
    (id) => sql`DELETE FROM "Series" WHERE "id" = ${id}`,
  ],
  hub: [
    (id) => sql`DELETE FROM "Post" WHERE "hubId" = ${id}`,
    (id) => sql`DELETE FROM "Membership" WHERE "hubId" = ${id}`,
    (id) => sql`DELETE FROM "HubModerator" WHERE "hubId" = ${id}`,
    (id) => sql`DELETE FROM "Hub" WHERE "id" = ${id}`,
  ],
};

// The table of each kind of row that uses images here, each with its "authorId".
const USING_TABLES: Record<string, string> = { post: "Post", comment: "Comment", chapter: "Chapter", series: "Series", hub: "Hub" };

/**
 * The statements of one deletion, in order: each takes the deleted thing's `id`. Children go before their parents
 * (the foreign keys), notifications move their recipients' unread counts before they go, and the uses of images
 * by the removed rows become ImageRelease rows for the job that deletes unused images after the commit.
 */
function deletionSteps(db: Database, kind: StepKind): Prepared<Id, never>[] {
  const { content, ids } = CONTENTS[kind];
  const { table, column } = content;
  const col = sql.ref(column);
  const comments: Maker = (id) => sql`SELECT "id" FROM "Comment" WHERE ${col} IN (${ids(id)})`;
  // A series or a hub uses images and is named by notifications itself.
  const self: Maker[] = kind === "series" || kind === "hub" ? [(id) => sql`SELECT ${id}`] : [];
  const selfColumn = `${kind}Id`;

  const makers: Maker[] = [
    // First the rows that likes, comments and replies lock before they write (no-op updates): on PostgreSQL one of
    // those waits for this deletion and then finds nothing (404), instead of adding a row to something being deleted.
    (id) => sql`UPDATE ${sql.table(table)} SET "likes" = "likes" WHERE "id" IN (${ids(id)})`,
    (id) => sql`UPDATE "Comment" SET "likes" = "likes" WHERE ${col} IN (${ids(id)})`,
  ];

  // The rows that use images, per type: their uses are released, then removed.
  const users: [string, Maker][] = [[content.userType, ids], ["comment", comments], ...self.map((s): [string, Maker] => [kind, s])];
  for (const [type, of] of users) {
    makers.push(
      // Only the images the row's own author uploaded: another user's image embedded here stays theirs.
      (id) => sql`INSERT INTO "ImageRelease" ("imageId", "createdAt")
          SELECT DISTINCT u."imageId", 0 FROM "ImageUse" u
            JOIN ${sql.table(USING_TABLES[type]!)} t ON t."id" = u."userId"
            JOIN "Image" i ON i."id" = u."imageId" AND i."authorId" = t."authorId"
          WHERE u."userType" = ${sql.lit(type)} AND u."userId" IN (${of(id)})
          ON CONFLICT DO NOTHING`,
      (id) => sql`DELETE FROM "ImageUse" WHERE "userType" = ${sql.lit(type)} AND "userId" IN (${of(id)})`,
    );
  }

  // Notifications about what goes, by each subject column (indexed): the recipients' unread counts first.
  const about: [string, Maker][] = [["commentId", comments], [column, ids], ...self.map((s): [string, Maker] => [selfColumn, s])];
  for (const [subject, of] of about) {
    const ref = sql.ref(subject);
    makers.push(
      // Counted per recipient from the subject's index (not from each recipient's unread rows, which may be 200,000).
      (id) => sql`UPDATE "User" SET "unreadNotifications" = "unreadNotifications" - x."n"
        FROM (SELECT "userId", COUNT(*) AS "n" FROM "Notification" WHERE "readAt" IS NULL AND ${ref} IN (${of(id)}) GROUP BY "userId") x
        WHERE "User"."id" = x."userId"`,
      (id) => sql`DELETE FROM "Notification" WHERE ${ref} IN (${of(id)})`,
    );
  }

  makers.push(
    (id) => sql`DELETE FROM "CommentLike" WHERE "commentId" IN (${comments(id)})`,
    (id) => sql`DELETE FROM "Comment" WHERE ${col} IN (${ids(id)})`,
    (id) => sql`DELETE FROM ${sql.table(content.likes)} WHERE ${col} IN (${ids(id)})`,
    ...content.own.map((own) => own(ids)),
    ...LAST[kind],
  );
  // Cast: PostgreSQL cannot tell a bare `SELECT $1`'s type.
  return makers.map((make) => prepare<Id>(db.kysely, (p) => make(sql`CAST(${p("id")} AS INTEGER)`) as RawBuilder<never>));
}

/** The facts the permission rules need, read in the deletion's transaction (the row locked for it). */
export interface PostFacts {
  authorId: number;
  hubId: number;
  hubAuthorId: number;
  /** 1 when the actor is one of the moderators added to the post's hub. */
  actorIsModerator: number;
}

/** Deleting posts, chapters, series and hubs with everything inside them (the service runs each as one transaction, big ones in batches). */
export function createDeletionQueries(db: Database) {
  const { kysely } = db;
  const kinds: StepKind[] = ["post", "chapter", "series", "hub", "hub-batch", "series-batch"];
  const steps = Object.fromEntries(kinds.map((kind) => [kind, deletionSteps(db, kind)])) as Record<StepKind, Prepared<Id, never>[]>;
  // A hub's or a series' row, locked for each batch, and whether more than a batch of its posts or chapters is left.
  const perBatched = <T>(make: (kind: Batched) => T): Record<Batched, T> => ({ hub: make("hub"), series: make("series") });
  const lockParent = perBatched((kind) =>
    prepare<Id, { authorId: number }>(
      kysely,
      (p) => sql`UPDATE ${sql.table(BATCHED[kind].parentTable)} SET "name" = "name" WHERE "id" = ${p("id")} RETURNING "authorId"`,
    ),
  );
  const hasMore = perBatched((kind) =>
    prepare<Id, { id: number }>(kysely, (p) => rowsOf(kind, 1, BATCHED[kind].size)(sql`${p("id")}`) as RawBuilder<{ id: number }>),
  );
  const q = {
    // Each lookup is a no-op write first: on PostgreSQL it locks the row, so two deletions of one thing run one
    // after the other (the second finds nothing); SQLite runs one writer at a time anyway.
    post: prepare<{ id: number; actorId: number }, PostFacts>(
      kysely,
      (p) => sql`UPDATE "Post" SET "title" = "title" WHERE "id" = ${p("id")}
        RETURNING "authorId", "hubId", (SELECT "authorId" FROM "Hub" WHERE "id" = "Post"."hubId") AS "hubAuthorId",
          CASE WHEN EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = "Post"."hubId" AND m."userId" = ${p("actorId")})
            THEN 1 ELSE 0 END AS "actorIsModerator"`,
    ),
    chapter: prepare<{ seriesId: number; number: number }, { id: number; seriesAuthorId: number }>(
      kysely,
      (p) => sql`UPDATE "Chapter" SET "title" = "title" WHERE "seriesId" = ${p("seriesId")} AND "number" = ${p("number")}
        RETURNING "id", (SELECT "authorId" FROM "Series" WHERE "id" = "Chapter"."seriesId") AS "seriesAuthorId"`,
    ),
    // Release rows are written with createdAt 0 by the steps (a constant keeps them prepared once); dated here.
    dateReleases: prepare<{ now: number }>(kysely, (p) => sql`UPDATE "ImageRelease" SET "createdAt" = ${p("now")} WHERE "createdAt" = 0`),
  };

  /** Runs the steps, dates the image releases and enqueues the job that removes the unused ones; answers whether images were released. */
  async function deleteWithin(trx: Executor, kind: StepKind, id: number): Promise<boolean> {
    for (const step of steps[kind]) await step.run({ id }, trx);
    const now = nowMs();
    const released = await q.dateReleases.run({ now }, trx);
    if (released > 0) await enqueueJob(trx, "image-release", 0, now);
    return released > 0;
  }

  /**
   * The statements of the deletion units, on the service's transaction: first the lookup that locks the row and reads
   * the facts the permission rules need (undefined: no such thing), then the thing with everything inside it.
   */
  return {
    lockPost: (trx: Executor, id: number, actorId: number) => q.post.first({ id, actorId }, trx),
    lockChapter: (trx: Executor, seriesId: number, number: number) => q.chapter.first({ seriesId, number }, trx),
    /** A hub's or a series' row, locked for each of its batches. */
    lockParent: (trx: Executor, kind: Batched, id: number) => lockParent[kind].first({ id }, trx),
    /** Whether more than a batch of the hub's posts or the series' chapters is left (then one batch goes, not the whole). */
    moreThanABatch: async (trx: Executor, kind: Batched, id: number) => (await hasMore[kind].first({ id }, trx)) !== undefined,
    deleteWithin,
  };
}
