import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { prepare, type Executor, type Prepared } from "../db/prepared.ts";
import { enqueueJob } from "../jobs/jobs.queries.ts";

/** What a deletion removes, with everything inside it (CONTRACT.md 12, docs/decisions/018-governance.md). */
export type DeletedKind = "post" | "chapter" | "series" | "hub";

type Id = { id: number };

// A big hub or series is emptied in batches, one transaction each, before the last one deletes it: each batch holds
// SQLite's writer for tens of milliseconds instead of seconds (20,000 posts in one transaction: 1 s; bench/delete-hub.ts).
export const HUB_BATCH_POSTS = 1000;
export const SERIES_BATCH_CHAPTERS = 20;
// The batch's rows, newest first over the list indexes: the same rows for every statement of its transaction.
const hubBatch = (id: RawBuilder<unknown>) =>
  sql`SELECT "id" FROM "Post" WHERE "hubId" = ${id} ORDER BY "date" DESC, "id" DESC LIMIT ${sql.lit(HUB_BATCH_POSTS)}`;
const seriesBatch = (id: RawBuilder<unknown>) =>
  sql`SELECT "id" FROM "Chapter" WHERE "seriesId" = ${id} ORDER BY "date" DESC, "id" DESC LIMIT ${sql.lit(SERIES_BATCH_CHAPTERS)}`;

/** A deletion's unit: the whole thing, or one batch of a hub's posts or a series' chapters. */
type StepKind = DeletedKind | "hub-batch" | "series-batch";

// The ids of the posts, chapters and comments inside the deleted thing (`:id`), as subqueries over their indexes.
interface Contents {
  posts?: (id: RawBuilder<unknown>) => RawBuilder<unknown>;
  chapters?: (id: RawBuilder<unknown>) => RawBuilder<unknown>;
}
const CONTENTS: Record<StepKind, Contents> = {
  "hub-batch": { posts: hubBatch },
  "series-batch": { chapters: seriesBatch },
  post: { posts: (id) => sql`SELECT ${id}` },
  chapter: { chapters: (id) => sql`SELECT ${id}` },
  series: { chapters: (id) => sql`SELECT "id" FROM "Chapter" WHERE "seriesId" = ${id}` },
  hub: { posts: (id) => sql`SELECT "id" FROM "Post" WHERE "hubId" = ${id}` },
};

/**
 * The statements of one deletion, in order: each takes the deleted thing's `id`. Children go before their parents
 * (the foreign keys), notifications move their recipients' unread counts before they go, and the uses of images
 * by the removed rows become ImageRelease rows for the job that deletes unused images after the commit.
 */
function deletionSteps(db: Database, kind: StepKind): Prepared<Id, never>[] {
  const { posts, chapters } = CONTENTS[kind];
  const makers: ((id: RawBuilder<unknown>) => RawBuilder<unknown>)[] = [];

  // First the rows that likes, comments and replies lock before they write (no-op updates): on PostgreSQL one of
  // those waits for this deletion and then finds nothing (404), instead of adding a row to something being deleted.
  if (posts)
    makers.push(
      (id) => sql`UPDATE "Post" SET "likes" = "likes" WHERE "id" IN (${posts(id)})`,
      (id) => sql`UPDATE "Comment" SET "likes" = "likes" WHERE "postId" IN (${posts(id)})`,
    );
  if (chapters)
    makers.push(
      (id) => sql`UPDATE "Chapter" SET "likes" = "likes" WHERE "id" IN (${chapters(id)})`,
      (id) => sql`UPDATE "Comment" SET "likes" = "likes" WHERE "chapterId" IN (${chapters(id)})`,
    );

  // The rows that use images, per type: their uses are released, then removed.
  const users: [string, (id: RawBuilder<unknown>) => RawBuilder<unknown>][] = [];
  if (posts) {
    users.push(["post", posts]);
    users.push(["comment", (id) => sql`SELECT "id" FROM "Comment" WHERE "postId" IN (${posts(id)})`]);
  }
  if (chapters) {
    users.push(["chapter", chapters]);
    users.push(["comment", (id) => sql`SELECT "id" FROM "Comment" WHERE "chapterId" IN (${chapters(id)})`]);
  }
  if (kind === "series" || kind === "hub") users.push([kind, (id) => sql`SELECT ${id}`]);
  for (const [type, ids] of users) {
    makers.push(
      (id) => sql`INSERT INTO "ImageRelease" ("imageId", "createdAt")
          SELECT DISTINCT "imageId", 0 FROM "ImageUse" WHERE "userType" = ${sql.lit(type)} AND "userId" IN (${ids(id)})
          ON CONFLICT DO NOTHING`,
      (id) => sql`DELETE FROM "ImageUse" WHERE "userType" = ${sql.lit(type)} AND "userId" IN (${ids(id)})`,
    );
  }

  // Notifications about what goes, by each subject column (indexed): the recipients' unread counts first.
  const about: [string, (id: RawBuilder<unknown>) => RawBuilder<unknown>][] = [];
  if (posts) {
    about.push(["commentId", (id) => sql`SELECT "id" FROM "Comment" WHERE "postId" IN (${posts(id)})`]);
    about.push(["postId", posts]);
  }
  if (chapters) {
    about.push(["commentId", (id) => sql`SELECT "id" FROM "Comment" WHERE "chapterId" IN (${chapters(id)})`]);
    about.push(["chapterId", chapters]);
  }
  if (kind === "series") about.push(["seriesId", (id) => sql`SELECT ${id}`]);
  if (kind === "hub") about.push(["hubId", (id) => sql`SELECT ${id}`]);
  for (const [column, ids] of about) {
    const col = sql.ref(column);
    makers.push(
      // Counted per recipient from the subject's index (not from each recipient's unread rows, which may be 200,000).
      (id) => sql`UPDATE "User" SET "unreadNotifications" = "unreadNotifications" - x."n"
        FROM (SELECT "userId", COUNT(*) AS "n" FROM "Notification" WHERE "readAt" IS NULL AND ${col} IN (${ids(id)}) GROUP BY "userId") x
        WHERE "User"."id" = x."userId"`,
      (id) => sql`DELETE FROM "Notification" WHERE ${col} IN (${ids(id)})`,
    );
  }

  if (posts) {
    const comments = (id: RawBuilder<unknown>) => sql`SELECT "id" FROM "Comment" WHERE "postId" IN (${posts(id)})`;
    makers.push(
      (id) => sql`DELETE FROM "CommentLike" WHERE "commentId" IN (${comments(id)})`,
      (id) => sql`DELETE FROM "Comment" WHERE "postId" IN (${posts(id)})`,
      (id) => sql`DELETE FROM "PostLike" WHERE "postId" IN (${posts(id)})`,
    );
  }
  if (chapters) {
    const comments = (id: RawBuilder<unknown>) => sql`SELECT "id" FROM "Comment" WHERE "chapterId" IN (${chapters(id)})`;
    makers.push(
      (id) => sql`DELETE FROM "CommentLike" WHERE "commentId" IN (${comments(id)})`,
      (id) => sql`DELETE FROM "Comment" WHERE "chapterId" IN (${chapters(id)})`,
      (id) => sql`DELETE FROM "ChapterLike" WHERE "chapterId" IN (${chapters(id)})`,
      (id) => sql`DELETE FROM "ChapterPage" WHERE "chapterId" IN (${chapters(id)})`,
      // A chapter's new-chapter notifications still being made.
      (id) => sql`DELETE FROM "Job" WHERE "kind" = ${sql.lit("chapter-notifications")} AND "subjectId" IN (${chapters(id)})`,
    );
  }

  switch (kind) {
    case "post":
      // The hub's count, and its order versions so no instance reuses page keys that counted the post.
      makers.push(
        (id) => sql`UPDATE "Hub" SET "postCount" = "postCount" - 1, "postOrderVersion" = "postOrderVersion" + 1,
            "likeOrderVersion" = "likeOrderVersion" + 1 WHERE "id" = (SELECT "hubId" FROM "Post" WHERE "id" = ${id})`,
        (id) => sql`DELETE FROM "Post" WHERE "id" = ${id}`,
      );
      break;
    case "chapter":
      makers.push(
        (id) =>
          sql`UPDATE "Series" SET "chapterCount" = "chapterCount" - 1 WHERE "id" = (SELECT "seriesId" FROM "Chapter" WHERE "id" = ${id})`,
        (id) => sql`DELETE FROM "Chapter" WHERE "id" = ${id}`,
      );
      break;
    case "series":
      makers.push(
        (id) => sql`DELETE FROM "Chapter" WHERE "seriesId" = ${id}`,
        (id) => sql`DELETE FROM "Follow" WHERE "seriesId" = ${id}`,
        (id) => sql`DELETE FROM "Series" WHERE "id" = ${id}`,
      );
      break;
    case "hub-batch":
      makers.push(
        (id) => sql`UPDATE "Hub" SET "postCount" = "postCount" - (SELECT COUNT(*) FROM (${hubBatch(id)}) "b"),
            "postOrderVersion" = "postOrderVersion" + 1, "likeOrderVersion" = "likeOrderVersion" + 1 WHERE "id" = ${id}`,
        (id) => sql`DELETE FROM "Post" WHERE "id" IN (${hubBatch(id)})`,
      );
      break;
    case "series-batch":
      makers.push(
        (id) =>
          sql`UPDATE "Series" SET "chapterCount" = "chapterCount" - (SELECT COUNT(*) FROM (${seriesBatch(id)}) "b") WHERE "id" = ${id}`,
        (id) => sql`DELETE FROM "Chapter" WHERE "id" IN (${seriesBatch(id)})`,
      );
      break;
    case "hub":
      makers.push(
        (id) => sql`DELETE FROM "Post" WHERE "hubId" = ${id}`,
        (id) => sql`DELETE FROM "Membership" WHERE "hubId" = ${id}`,
        (id) => sql`DELETE FROM "HubModerator" WHERE "hubId" = ${id}`,
        (id) => sql`DELETE FROM "Hub" WHERE "id" = ${id}`,
      );
      break;
  }
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

/** Deleting posts, chapters, series and hubs with everything inside them: one transaction each, big ones in batches. */
export function createDeletionQueries(db: Database) {
  const { kysely } = db;
  const steps = {
    post: deletionSteps(db, "post"),
    chapter: deletionSteps(db, "chapter"),
    series: deletionSteps(db, "series"),
    hub: deletionSteps(db, "hub"),
    "hub-batch": deletionSteps(db, "hub-batch"),
    "series-batch": deletionSteps(db, "series-batch"),
  };
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
    series: prepare<Id, { authorId: number }>(
      kysely,
      (p) => sql`UPDATE "Series" SET "name" = "name" WHERE "id" = ${p("id")} RETURNING "authorId"`,
    ),
    hub: prepare<Id, { authorId: number }>(
      kysely,
      (p) => sql`UPDATE "Hub" SET "name" = "name" WHERE "id" = ${p("id")} RETURNING "authorId"`,
    ),
    // Whether more than a batch is left: then a batch goes first.
    hubHasMore: prepare<Id, { id: number }>(
      kysely,
      (p) =>
        sql`SELECT "id" FROM "Post" WHERE "hubId" = ${p("id")} ORDER BY "date" DESC, "id" DESC LIMIT 1 OFFSET ${sql.lit(HUB_BATCH_POSTS)}`,
    ),
    seriesHasMore: prepare<Id, { id: number }>(
      kysely,
      (p) =>
        sql`SELECT "id" FROM "Chapter" WHERE "seriesId" = ${p("id")} ORDER BY "date" DESC, "id" DESC LIMIT 1 OFFSET ${sql.lit(SERIES_BATCH_CHAPTERS)}`,
    ),
    // Release rows are written with createdAt 0 by the steps (a constant keeps them prepared once); dated here.
    dateReleases: prepare<{ now: number }>(kysely, (p) => sql`UPDATE "ImageRelease" SET "createdAt" = ${p("now")} WHERE "createdAt" = 0`),
  };

  /** Runs the steps, dates the image releases and enqueues the job that removes the unused ones. */
  async function deleteWith(trx: Executor, kind: StepKind, id: number): Promise<boolean> {
    for (const step of steps[kind]) await step.run({ id }, trx);
    const now = nowMs();
    const released = await q.dateReleases.run({ now }, trx);
    if (released > 0) await enqueueJob(trx, "image-release", 0, now);
    return released > 0;
  }

  /**
   * Each deletion is one unit: `decide` gets the row's facts (undefined: no such thing) and throws when the actor may
   * not; then the thing and everything inside it go. Answers whether images were released (the job runner is woken).
   */
  return {
    deletePost: (id: number, actorId: number, decide: (facts: PostFacts | undefined) => void) =>
      kysely.transaction().execute(async (trx) => {
        decide(await q.post.first({ id, actorId }, trx));
        return deleteWith(trx, "post", id);
      }),
    deleteChapter: (seriesId: number, number: number, decide: (facts: { id: number; seriesAuthorId: number } | undefined) => void) =>
      kysely.transaction().execute(async (trx) => {
        const chapter = await q.chapter.first({ seriesId, number }, trx);
        decide(chapter);
        return deleteWith(trx, "chapter", chapter!.id);
      }),
    deleteSeries: (id: number, decide: (facts: { authorId: number } | undefined) => void) =>
      inBatches(id, decide, q.series, q.seriesHasMore, "series-batch", "series"),
    deleteHub: (id: number, decide: (facts: { authorId: number } | undefined) => void) =>
      inBatches(id, decide, q.hub, q.hubHasMore, "hub-batch", "hub"),
  };

  /**
   * A hub or a series: while more than a batch of its posts or chapters is left, one batch goes per transaction (with
   * the counts it moves, so every commit between them is consistent: the hub just has fewer posts), then the rest and
   * the thing itself in the last. Each transaction locks the row and asks `decide` again.
   */
  async function inBatches(
    id: number,
    decide: (facts: { authorId: number } | undefined) => void,
    lookup: Prepared<Id, { authorId: number }>,
    hasMore: Prepared<Id, { id: number }>,
    batch: "hub-batch" | "series-batch",
    whole: "hub" | "series",
  ): Promise<boolean> {
    let released = false;
    for (;;) {
      const done = await kysely.transaction().execute(async (trx) => {
        decide(await lookup.first({ id }, trx));
        const more = (await hasMore.first({ id }, trx)) !== undefined;
        released = (await deleteWith(trx, more ? batch : whole, id)) || released;
        return !more;
      });
      if (done) return released;
      await new Promise((resolve) => setImmediate(resolve)); // other writers in between
    }
  }
}

export type DeletionQueries = ReturnType<typeof createDeletionQueries>;
