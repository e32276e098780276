import { sql } from "kysely";
import { linkedIds } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { prepare, prepareSized, type Executor } from "../db/prepared.ts";
import { notBlockedBy } from "../blocks/blocks.queries.ts";
import type { NewPostInput, PostEditInput } from "../rules/post.ts";
import { createPostPageKeys, SORT_KEY, type PostOrder } from "./post-page-keys.ts";

export interface PostRow {
  id: number;
  title: string;
  description: string;
  date: number;
  likes: number;
  commentCount: number;
  authorId: number;
  authorName: string;
  hubId: number;
  hubName: string;
  /** Set while removed by moderators (docs/decisions/018-governance.md). */
  removedReason: string | null;
  /** Set while its hub is removed: the post is answered as removed with it (docs/api.md "Removal"). */
  hubRemovedReason: string | null;
}
export interface PostDetailRow extends PostRow {
  content: string;
  authorProfileImageId: number | null;
  /** 1 when the viewer liked the post. */
  liked: number;
}

// List items leave out `content`; author and hub names come from the same query.
const POST_SUMMARY = sql`
  SELECT p."id", p."title", p."description", p."date", p."likes", p."commentCount", p."authorId", u."username" AS "authorName", p."hubId",
         h."name" AS "hubName", p."removedReason", h."removedReason" AS "hubRemovedReason"
  FROM "Post" p JOIN "User" u ON u."id" = p."authorId" JOIN "Hub" h ON h."id" = p."hubId"`;

/** The list items of these posts (in no order): the cards of other lists (the following feed). */
export async function postCards(on: Executor, ids: number[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  return (await sql<PostRow>`${POST_SUMMARY} WHERE p."id" IN (${sql.join(ids)})`.execute(on)).rows;
}

/** The posts of hubs: lists, the post with its content, and the writes that move a hub's orders. */
export function createPostQueries(db: Database) {
  const { kysely } = db;
  const pageKeys = createPostPageKeys(db);

  // The inner query picks the page's ids from the covering sort index alone (starting after a remembered key
  // on deep pages); only the rows of the page are read and joined.
  type Start = { hubId: number; limit: number; skip: number };
  const listFromStart = (order: PostOrder) => {
    const key = sql.ref(SORT_KEY[order]);
    return prepareSized<Start, PostRow>(
      db,
      (p, limit) => sql`${POST_SUMMARY}
        WHERE p."id" IN (SELECT "id" FROM "Post" WHERE "hubId" = ${p("hubId")} ORDER BY ${key} DESC, "id" DESC LIMIT ${limit} OFFSET ${p("skip")})
        ORDER BY ${sql.ref(`p.${SORT_KEY[order]}`)} DESC, p."id" DESC`,
    );
  };
  // After a remembered key (k, id): the posts tied on k with a smaller id, then those below k. Two exact index
  // ranges; a row-value `(k, id) < (?, ?)` would walk every post tied on k (most posts have 0 likes).
  const listAfterKey = (order: PostOrder) => {
    const key = sql.ref(SORT_KEY[order]);
    return prepareSized<Start & { k: number; id: number; take: number }, PostRow>(
      db,
      (p, limit) => sql`${POST_SUMMARY}
        WHERE p."id" IN (SELECT "id" FROM (
            SELECT * FROM (SELECT "id", ${key} FROM "Post" WHERE "hubId" = ${p("hubId")} AND ${key} = ${p("k")} AND "id" < ${p("id")}
                           ORDER BY "id" DESC LIMIT ${p("take")}) AS "tied"
            UNION ALL
            SELECT * FROM (SELECT "id", ${key} FROM "Post" WHERE "hubId" = ${p("hubId")} AND ${key} < ${p("k")}
                           ORDER BY ${key} DESC, "id" DESC LIMIT ${p("take")}) AS "below"
          ) AS "ahead" ORDER BY ${key} DESC, "id" DESC LIMIT ${limit} OFFSET ${p("skip")})
        ORDER BY ${sql.ref(`p.${SORT_KEY[order]}`)} DESC, p."id" DESC`,
    );
  };
  // A blocker's page (docs/decisions/018-governance.md "Blocks"): plain OFFSET over the sort index, without the blocked
  // authors' posts (no remembered page keys: their positions differ per viewer). Callers without blocks never run it.
  const listHidingBlocked = (order: PostOrder) => {
    const key = sql.ref(SORT_KEY[order]);
    return prepare<Start & { viewerId: number }, PostRow>(
      kysely,
      (p) => sql`${POST_SUMMARY}
        WHERE p."id" IN (SELECT x."id" FROM "Post" x WHERE x."hubId" = ${p("hubId")} AND ${notBlockedBy(p("viewerId"), sql.ref("x.authorId"))}
                         ORDER BY ${key} DESC, "id" DESC LIMIT ${p("limit")} OFFSET ${p("skip")})
        ORDER BY ${sql.ref(`p.${SORT_KEY[order]}`)} DESC, p."id" DESC`,
    );
  };
  const hidingBlocked = {
    list: { latest: listHidingBlocked("latest"), "by-likes": listHidingBlocked("by-likes") },
    // From the blocks: one range of the Post(authorId, hubId) index per blocked author. A correlated count, not a
    // join: without statistics SQLite planned the join as a walk of the hub's every post (40 ms at 200,000).
    hidden: prepare<{ hubId: number; viewerId: number }, { n: number }>(
      kysely,
      (p) => sql`SELECT COALESCE(SUM((SELECT COUNT(*) FROM "Post" x
                   WHERE x."authorId" = b."blockedId" AND x."hubId" = ${p("hubId")})), 0) AS "n"
                 FROM "Block" b WHERE b."userId" = ${p("viewerId")}`,
    ),
  };
  const q = {
    list: { latest: listFromStart("latest"), "by-likes": listFromStart("by-likes") },
    listAfterKey: { latest: listAfterKey("latest"), "by-likes": listAfterKey("by-likes") },
    // The count and the orders' versions, read with every page.
    hubHead: prepare<{ hubId: number }, { postCount: number; postOrderVersion: number; likeOrderVersion: number }>(
      kysely,
      (p) => sql`SELECT "postCount", "postOrderVersion", "likeOrderVersion" FROM "Hub" WHERE "id" = ${p("hubId")}`,
    ),
    detail: prepare<{ id: number; viewerId: number }, PostDetailRow>(
      kysely,
      (p) => sql`SELECT p."id", p."title", p."description", p."date", p."likes", p."commentCount", p."authorId",
                   u."username" AS "authorName", p."hubId",
                   h."name" AS "hubName", p."removedReason", h."removedReason" AS "hubRemovedReason", p."content", u."profileImageId" AS "authorProfileImageId",
                   CASE WHEN EXISTS (SELECT 1 FROM "PostLike" WHERE "userId" = ${p("viewerId")} AND "postId" = p."id") THEN 1 ELSE 0 END AS "liked"
                 FROM "Post" p JOIN "User" u ON u."id" = p."authorId" JOIN "Hub" h ON h."id" = p."hubId"
                 WHERE p."id" = ${p("id")}`,
    ),
    authorOf: prepare<{ id: number }, { authorId: number }>(kysely, (p) => sql`SELECT "authorId" FROM "Post" WHERE "id" = ${p("id")}`),
    // First in the editing unit: locks the post and reads the content before the edit (who was mentioned already).
    lockForEdit: prepare<{ id: number }, { content: string }>(
      kysely,
      (p) => sql`UPDATE "Post" SET "title" = "title" WHERE "id" = ${p("id")} RETURNING "content"`,
    ),
    // Undefined: no such hub.
    membership: prepare<{ hubId: number; userId: number }, { member: number }>(
      kysely,
      (
        p,
      ) => sql`SELECT CASE WHEN EXISTS (SELECT 1 FROM "Membership" WHERE "userId" = ${p("userId")} AND "hubId" = h."id") THEN 1 ELSE 0 END AS "member"
                 FROM "Hub" h WHERE h."id" = ${p("hubId")}`,
    ),
    // First in the unit: locks the hub's row. A new post moves both orders.
    countNewPost: prepare<{ hubId: number }, { id: number }>(
      kysely,
      (p) => sql`UPDATE "Hub" SET "postCount" = "postCount" + 1, "postOrderVersion" = "postOrderVersion" + 1,
                   "likeOrderVersion" = "likeOrderVersion" + 1
                 WHERE "id" = ${p("hubId")} RETURNING "id"`,
    ),
    insert: prepare<{ title: string; content: string; description: string; date: number; authorId: number; hubId: number }, { id: number }>(
      kysely,
      (p) => sql`INSERT INTO "Post" ("title", "content", "description", "date", "likes", "authorId", "hubId")
                 VALUES (${p("title")}, ${p("content")}, ${p("description")}, ${p("date")}, 0, ${p("authorId")}, ${p("hubId")}) RETURNING "id"`,
    ),
  };

  return {
    /** The hub's post count and a page of its posts in `order`. */
    async page(hubId: number, order: PostOrder, limit: number, offset: number): Promise<{ total: number; rows: PostRow[] }> {
      const head = await q.hubHead.first({ hubId });
      if (!head) return { total: 0, rows: [] };
      const version = order === "latest" ? head.postOrderVersion : head.likeOrderVersion;
      const start = await pageKeys.pageStart(hubId, order, version, offset);
      const at = { hubId, limit, skip: start.skip };
      const rows = start.after
        ? await q.listAfterKey[order].all({ ...at, k: start.after[0], id: start.after[1], take: limit + start.skip })
        : await q.list[order].all(at);
      return { total: head.postCount, rows };
    },

    /**
     * The page as a viewer who blocks someone sees it: without the blocked authors' posts; `total` counts the rest and
     * `hidden` the posts left out.
     */
    async pageHidingBlocked(
      hubId: number,
      order: PostOrder,
      limit: number,
      offset: number,
      viewerId: number,
    ): Promise<{ total: number; rows: PostRow[]; hidden: number }> {
      const head = await q.hubHead.first({ hubId });
      if (!head) return { total: 0, rows: [], hidden: 0 };
      const hidden = Number((await hidingBlocked.hidden.first({ hubId, viewerId }))!.n);
      const total = head.postCount - hidden;
      const rows = offset < total ? await hidingBlocked.list[order].all({ hubId, limit, skip: offset, viewerId }) : [];
      return { total, rows, hidden };
    },

    /** Which of these posts the viewer liked, in one query. */
    likedBy: (viewerId: number | undefined, ids: number[]) =>
      linkedIds(kysely, { link: "PostLike", targetColumn: "postId" }, viewerId, ids),

    detail: (id: number, viewerId: number | undefined) => q.detail.first({ id, viewerId: viewerId ?? 0 }),

    authorOf: async (id: number) => (await q.authorOf.first({ id }))?.authorId,

    /** Undefined: no such hub; else whether the user is a member. */
    isMember: async (hubId: number, userId: number) => {
      const row = await q.membership.first({ hubId, userId });
      return row && row.member === 1;
    },

    /** First in a new post's unit: counts the post and moves both orders, locking the hub's row. False: no such hub. */
    countNewPost: async (trx: Executor, hubId: number) => (await q.countNewPost.first({ hubId }, trx)) !== undefined,

    /** The new post's row, on the unit's transaction; answers its id. */
    insert: async (trx: Executor, input: NewPostInput, authorId: number, date: number): Promise<number> =>
      (await q.insert.first(
        { title: input.title, content: input.content, description: input.description, date, authorId, hubId: input.hubId },
        trx,
      ))!.id,

    /** First in an edit's unit: locks the post and answers its content before the edit (who was mentioned already). */
    lockForEdit: async (trx: Executor, id: number) => (await q.lockForEdit.first({ id }, trx))?.content,

    /** The edit, on the unit's transaction. An absent description is kept. */
    update: async (trx: Executor, id: number, input: PostEditInput): Promise<void> => {
      await trx
        .updateTable("Post")
        .set({
          title: input.title,
          content: input.content,
          ...(input.description !== undefined ? { description: input.description } : {}),
        })
        .where("id", "=", id)
        .execute();
    },
  };
}

/** Likes of posts: which hub a post is in, and the hub's "by-likes" order version a like or unlike moves. */
export function createPostLikeQueries(db: Database) {
  // So no instance uses page keys found before the like (post-page-keys.ts).
  const bumpLikeOrder = prepare<{ postId: number }>(
    db.kysely,
    (p) =>
      sql`UPDATE "Hub" SET "likeOrderVersion" = "likeOrderVersion" + 1 WHERE "id" = (SELECT "hubId" FROM "Post" WHERE "id" = ${p("postId")})`,
  );
  const hubOf = prepare<{ postId: number }, { hubId: number }>(
    db.kysely,
    (p) => sql`SELECT "hubId" FROM "Post" WHERE "id" = ${p("postId")}`,
  );
  return {
    hubOf: async (postId: number) => (await hubOf.first({ postId }))?.hubId,
    /** On the like's transaction. */
    bumpLikeOrder: (trx: Executor, postId: number) => bumpLikeOrder.run({ postId }, trx),
  };
}
