import { sql } from "kysely";
import { linkedIds } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { deleteCommentNotifications } from "../notifications/notify.ts";
import type { CommentSort } from "../rules/comment.ts";

/** Where a comment lives: a hub post or a chapter (docs/decisions/017-discussion.md). */
export interface Place {
  column: "postId" | "chapterId";
  id: number;
}

export interface CommentRow {
  id: number;
  content: string;
  authorId: number | null;
  authorName: string | null;
  authorImageId: number | null;
  createdAt: number;
  editedAt: number | null;
  likes: number;
  parentId: number | null;
  replyCount: number;
  deletedAt: number | null;
  /** Set while removed by moderators (docs/decisions/018-governance.md). */
  removedReason: string | null;
}

/** What the rules of editing and deleting need to know about a comment. */
export interface CommentAbout {
  authorId: number | null;
  postId: number | null;
  chapterId: number | null;
  deletedAt: number | null;
  /** The creator of the post's hub. */
  hubCreatorId: number | null;
  /** 1 when the viewer is one of the moderators added to the post's hub (HubModerator). */
  viewerModerates: number;
  /** The author of the chapter's series. */
  seriesAuthorId: number | null;
}

/** What a new comment's notifications are made from, inside its transaction (comment-writes.service.ts decides who is told). */
export interface NewCommentFacts {
  commentId: number;
  /** The post's or chapter's author. */
  placeAuthorId: number;
  /** The author of the comment answered (null: a top-level comment, or a tombstone answered). */
  answeredAuthorId: number | null;
  isReply: boolean;
  mentionedIds: number[];
}

/** Whether what a comment is in is removed: its post and the post's hub, or its chapter and the chapter's series. */
export interface PlaceRemoval {
  postRemoved: string | null;
  hubRemoved: string | null;
  chapterRemoved: string | null;
  seriesRemoved: string | null;
}
// From a comment `c` to the removal of its place (primary-key lookups; the unused side is null).
const PLACE_REMOVAL = sql`px."removedReason" AS "postRemoved", hx."removedReason" AS "hubRemoved",
  chx."removedReason" AS "chapterRemoved", sx."removedReason" AS "seriesRemoved"`;
const PLACE_JOINS = sql`LEFT JOIN "Post" px ON px."id" = c."postId" LEFT JOIN "Hub" hx ON hx."id" = px."hubId"
  LEFT JOIN "Chapter" chx ON chx."id" = c."chapterId" LEFT JOIN "Series" sx ON sx."id" = chx."seriesId"`;

const COLUMNS = sql`c."id", c."content", c."authorId", u."username" AS "authorName", u."profileImageId" AS "authorImageId", c."createdAt",
  c."editedAt", c."likes", c."parentId", c."replyCount", c."deletedAt", c."removedReason"`;
const FROM = sql`FROM "Comment" c LEFT JOIN "User" u ON u."id" = c."authorId"`;
export const COMMENT = sql`SELECT ${COLUMNS} ${FROM}`;

// "top": most liked, then oldest; the inner query walks the (place, parentId, ...) indexes of schema.prisma. The inner
// order leads with "parentId" (NULL in every row it sorts): PostgreSQL does not count `IS NULL` as pinning an index
// column the way `=` does, so without it it read and sorted all of a post's threads for every page (decision 014).
// `fromEnd` is `inner` backwards: the same index read from its other end.
export const ORDER = {
  top: {
    inner: sql`"parentId", "likes" DESC, "createdAt", "id"`,
    fromEnd: sql`"parentId" DESC, "likes", "createdAt" DESC, "id" DESC`,
    outer: sql`c."likes" DESC, c."createdAt", c."id"`,
  },
  oldest: {
    inner: sql`"parentId", "createdAt", "id"`,
    fromEnd: sql`"parentId" DESC, "createdAt" DESC, "id" DESC`,
    outer: sql`c."createdAt", c."id"`,
  },
  newest: {
    inner: sql`"parentId" DESC, "createdAt" DESC, "id" DESC`,
    fromEnd: sql`"parentId", "createdAt", "id"`,
    outer: sql`c."createdAt" DESC, c."id" DESC`,
  },
} satisfies Record<CommentSort, unknown>;

const PLACE_TABLE = { postId: "Post", chapterId: "Chapter" } as const;

/** One of `make`'s answers per place column (a prepared query each). */
export const perPlace = <T>(make: (column: Place["column"]) => T) => ({ postId: make("postId"), chapterId: make("chapterId") });

/** Comments and replies on posts and chapters: pages, one comment, and the steps of the units that write them with their counts. */
export function createCommentQueries(db: Database) {
  const { kysely } = db;
  type PageParams = { placeId: number; limit: number; offset: number };

  const topLevel = (column: Place["column"], sort: CommentSort, walk: "inner" | "fromEnd") =>
    prepare<PageParams, CommentRow>(
      kysely,
      (p) => sql`${COMMENT}
        WHERE c."id" IN (SELECT "id" FROM "Comment" WHERE ${sql.ref(column)} = ${p("placeId")} AND "parentId" IS NULL
                         ORDER BY ${ORDER[sort][walk]} LIMIT ${p("limit")} OFFSET ${p("offset")})
        ORDER BY ${ORDER[sort].outer}`,
    );
  const topLevelWalks = (column: Place["column"], sort: CommentSort) => ({
    inner: topLevel(column, sort, "inner"),
    fromEnd: topLevel(column, sort, "fromEnd"),
  });

  // First in the writing units: the post's or chapter's row is locked before any of its comments (one order for all).
  // `by` moves commentCount (comments and replies not deleted), `threads` threadCount (top-level ones, tombstones too).
  const lockPlace = perPlace((column) =>
    prepare<{ id: number; by: number; threads: number }, { authorId: number }>(
      kysely,
      (p) => sql`UPDATE ${sql.table(PLACE_TABLE[column])}
                 SET "commentCount" = "commentCount" + ${p("by")}, "threadCount" = "threadCount" + ${p("threads")}
                 WHERE "id" = ${p("id")} RETURNING "authorId"`,
    ),
  );

  const q = {
    topLevel: perPlace((column) => ({
      top: topLevelWalks(column, "top"),
      oldest: topLevelWalks(column, "oldest"),
      newest: topLevelWalks(column, "newest"),
    })),
    chapterThreads: prepare<{ id: number }, { threadCount: number } & PlaceRemoval>(
      kysely,
      (p) => sql`SELECT c."threadCount", NULL AS "postRemoved", NULL AS "hubRemoved", c."removedReason" AS "chapterRemoved",
                   s."removedReason" AS "seriesRemoved"
                 FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId" WHERE c."id" = ${p("id")}`,
    ),
    replies: prepare<{ parentId: number; limit: number; offset: number }, CommentRow>(
      kysely,
      (p) => sql`${COMMENT}
        WHERE c."id" IN (SELECT "id" FROM "Comment" WHERE "parentId" = ${p("parentId")} ORDER BY "createdAt", "id"
                         LIMIT ${p("limit")} OFFSET ${p("offset")})
        ORDER BY c."createdAt", c."id"`,
    ),
    thread: prepare<{ id: number }, { parentId: number | null; replyCount: number } & PlaceRemoval>(
      kysely,
      (p) => sql`SELECT c."parentId", c."replyCount", ${PLACE_REMOVAL} FROM "Comment" c ${PLACE_JOINS} WHERE c."id" = ${p("id")}`,
    ),
    byId: prepare<{ id: number; viewerId: number }, CommentRow & PlaceRemoval & { liked: number }>(
      kysely,
      (p) => sql`SELECT ${COLUMNS}, ${PLACE_REMOVAL},
                   CASE WHEN EXISTS (SELECT 1 FROM "CommentLike" WHERE "userId" = ${p("viewerId")} AND "commentId" = c."id") THEN 1 ELSE 0 END AS "liked"
                 ${FROM} ${PLACE_JOINS} WHERE c."id" = ${p("id")}`,
    ),
    about: prepare<{ id: number; viewerId: number }, CommentAbout>(
      kysely,
      (
        p,
      ) => sql`SELECT c."authorId", c."postId", c."chapterId", c."deletedAt", h."authorId" AS "hubCreatorId", s."authorId" AS "seriesAuthorId",
                   CASE WHEN EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = p."hubId" AND m."userId" = ${p("viewerId")})
                     THEN 1 ELSE 0 END AS "viewerModerates"
                 FROM "Comment" c
                 LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Hub" h ON h."id" = p."hubId"
                 LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId" LEFT JOIN "Series" s ON s."id" = ch."seriesId"
                 WHERE c."id" = ${p("id")}`,
    ),
    postThreads: prepare<{ postId: number; hubId: number }, { threadCount: number } & PlaceRemoval>(
      kysely,
      (p) => sql`SELECT p."threadCount", p."removedReason" AS "postRemoved", h."removedReason" AS "hubRemoved", NULL AS "chapterRemoved",
                   NULL AS "seriesRemoved"
                 FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId" WHERE p."id" = ${p("postId")} AND p."hubId" = ${p("hubId")}`,
    ),
    named: prepare<
      { id: number },
      { id: number; parentId: number | null; authorId: number | null; postId: number | null; chapterId: number | null }
    >(kysely, (p) => sql`SELECT "id", "parentId", "authorId", "postId", "chapterId" FROM "Comment" WHERE "id" = ${p("id")}`),
    // Locks the thread's top-level comment; no row: it was deleted meanwhile.
    countReply: prepare<{ id: number; by: number }, { authorId: number | null; replyCount: number; deletedAt: number | null }>(
      kysely,
      (p) => sql`UPDATE "Comment" SET "replyCount" = "replyCount" + ${p("by")} WHERE "id" = ${p("id")}
                 RETURNING "authorId", "replyCount", "deletedAt"`,
    ),
    insert: prepare<
      { postId: number | null; chapterId: number | null; parentId: number | null; authorId: number; content: string; createdAt: number },
      { id: number }
    >(
      kysely,
      (p) => sql`INSERT INTO "Comment" ("postId", "chapterId", "parentId", "authorId", "content", "likes", "replyCount", "createdAt")
                 VALUES (${p("postId")}, ${p("chapterId")}, ${p("parentId")}, ${p("authorId")}, ${p("content")}, 0, 0, ${p("createdAt")})
                 RETURNING "id"`,
    ),
    // Locks a live comment (not a tombstone); no row: missing or deleted.
    lockLive: prepare<{ id: number }, { authorId: number | null; content: string; parentId: number | null; replyCount: number }>(
      kysely,
      (p) => sql`UPDATE "Comment" SET "likes" = "likes" WHERE "id" = ${p("id")} AND "deletedAt" IS NULL
                 RETURNING "authorId", "content", "parentId", "replyCount"`,
    ),
    edit: prepare<{ id: number; content: string; editedAt: number }>(
      kysely,
      (p) => sql`UPDATE "Comment" SET "content" = ${p("content")}, "editedAt" = ${p("editedAt")} WHERE "id" = ${p("id")}`,
    ),
    tombstone: prepare<{ id: number; deletedAt: number }>(
      kysely,
      (p) => sql`UPDATE "Comment" SET "deletedAt" = ${p("deletedAt")}, "content" = '', "authorId" = NULL WHERE "id" = ${p("id")}`,
    ),
    deleteLikes: prepare<{ id: number }>(kysely, (p) => sql`DELETE FROM "CommentLike" WHERE "commentId" = ${p("id")}`),
    deleteRow: prepare<{ id: number }>(kysely, (p) => sql`DELETE FROM "Comment" WHERE "id" = ${p("id")}`),
  };

  /** A comment gone for good: its likes, its notifications and its row. */
  async function erase(trx: Executor, id: number) {
    await q.deleteLikes.run({ id }, trx);
    await deleteCommentNotifications(trx, [id]);
    await q.deleteRow.run({ id }, trx);
  }

  async function removeOn(trx: Executor, id: number, place: Place, at: number) {
    if (!(await lockPlace[place.column].first({ id: place.id, by: 0, threads: 0 }, trx))) return undefined;
    const current = await q.lockLive.first({ id }, trx);
    if (!current) return undefined;
    const tombstone = current.parentId === null && current.replyCount > 0;
    let threadsGone = 0;
    if (tombstone) {
      await q.tombstone.run({ id, deletedAt: at }, trx);
      await deleteCommentNotifications(trx, [id]);
    } else {
      await erase(trx, id);
      if (current.parentId === null) threadsGone = 1;
      else {
        const thread = await q.countReply.first({ id: current.parentId, by: -1 }, trx);
        if (thread && thread.deletedAt !== null && thread.replyCount === 0) {
          await erase(trx, current.parentId);
          threadsGone = 1;
        }
      }
    }
    await lockPlace[place.column].run({ id: place.id, by: -1, threads: -threadsGone }, trx);
    return { tombstone };
  }

  return {
    /** How many top-level comments (tombstones included) the post has, and its removal; undefined: no such post in this hub. */
    postThreads: (postId: number, hubId: number) => q.postThreads.first({ postId, hubId }),

    /** How many top-level comments (tombstones included) the chapter has, and its removal; undefined: no such chapter. */
    chapterThreads: (id: number) => q.chapterThreads.first({ id }),

    /**
     * A page of the place's top-level comments, tombstones included; `total` is their count (threadCount). A page in
     * the second half is read from the index's other end: OFFSET walks every skipped entry, so the last page of a post
     * with 10,000 threads walked all of them (1.3 ms on PostgreSQL; from the end it skips none).
     */
    topLevelPage: (place: Place, sort: CommentSort, limit: number, offset: number, total: number) => {
      const walks = q.topLevel[place.column][sort];
      const fromEnd = total - offset - limit;
      return fromEnd < offset
        ? walks.fromEnd.all({ placeId: place.id, limit: Math.min(limit, total - offset), offset: Math.max(0, fromEnd) })
        : walks.inner.all({ placeId: place.id, limit, offset });
    },

    /** The comment's thread head: undefined when there is no such comment. */
    thread: (id: number) => q.thread.first({ id }),

    replyPage: (parentId: number, limit: number, offset: number) => q.replies.all({ parentId, limit, offset }),

    byId: async (id: number, viewerId: number | undefined) => {
      const row = await q.byId.first({ id, viewerId: viewerId ?? 0 });
      return row && { row, liked: row.liked === 1, place: row as PlaceRemoval };
    },

    likedBy: (viewerId: number | undefined, ids: number[]) =>
      linkedIds(kysely, { link: "CommentLike", targetColumn: "commentId" }, viewerId, ids),

    about: (id: number, viewerId: number) => q.about.first({ id, viewerId }),

    // The steps of the writing units (comment-writes.service.ts runs them in its transaction). Each unit locks the place
    // first, then the thread's top-level comment: one order for all.

    /** Locks the post's or chapter's row and moves its commentCount by `by` and threadCount by `threads`: its author; undefined: no such place. */
    lockPlace: (trx: Executor, place: Place, by: number, threads: number) =>
      lockPlace[place.column].first({ id: place.id, by, threads }, trx),

    /** The comment a new reply names as its parent: its thread, its author and its place; undefined: no such comment. */
    named: (trx: Executor, id: number) => q.named.first({ id }, trx),

    /** Locks the thread's top-level comment and moves its replyCount by `by`; undefined: it was deleted meanwhile. */
    countReply: (trx: Executor, threadId: number, by: number) => q.countReply.first({ id: threadId, by }, trx),

    /** Writes the comment's row: its id. */
    insertRow: async (
      trx: Executor,
      place: Place,
      row: { authorId: number; content: string; parentId: number | null; createdAt: number },
    ): Promise<number> =>
      (await q.insert.first(
        {
          postId: place.column === "postId" ? place.id : null,
          chapterId: place.column === "chapterId" ? place.id : null,
          ...row,
        },
        trx,
      ))!.id,

    /** Locks a live comment (not a tombstone): its author and content; undefined: missing or deleted. */
    lockLive: (trx: Executor, id: number) => q.lockLive.first({ id }, trx),

    /** The new content and `editedAt`. */
    setContent: (trx: Executor, id: number, content: string, editedAt: number) => q.edit.run({ id, content, editedAt }, trx),

    /**
     * Deletes a comment (docs/decisions/017-discussion.md) on the caller's transaction, at `at`: a top-level comment with
     * replies becomes a tombstone (its likes stay); anything else goes with its likes and notifications, and a tombstone
     * goes with its last reply. The place's commentCount and threadCount and the thread's replyCount move in the same
     * unit. Answers whether it stays as a tombstone; undefined: it was already gone.
     */
    removeWithin: (trx: Executor, id: number, place: Place, at: number) => removeOn(trx, id, place, at),
  };
}
