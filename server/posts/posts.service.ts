import { linkedIdsSync } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { embeddedImageIds, publishOwnImages, publishOwnImagesQuery } from "../images/image-refs.ts";
import { nowMs, prepare, toIso } from "../db/sql.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { Paging } from "../rules/paging.ts";
import type { NewPostInput, PostEditInput } from "../rules/post.ts";
import type { Page, Post, PostSummary } from "../rules/responses.ts";
import type { PostOrder, PostPageKeys } from "./post-page-keys.ts";

interface PostRow {
  id: number;
  title: string;
  description: string;
  date: number;
  likes: number;
  authorId: number;
  authorName: string;
  hubId: number;
  hubName: string;
}
interface PostDetailRow extends PostRow {
  content: string;
  authorProfileImageId: number | null;
}

// List items leave out `content`; author and hub names come from the same query.
const POST_SUMMARY = `
  SELECT p.id, p.title, p.description, p.date, p.likes, p.authorId, u.username AS authorName, p.hubId, h.name AS hubName
  FROM Post p JOIN User u ON u.id = p.authorId JOIN Hub h ON h.id = p.hubId`;

const POST_DETAIL = `
  SELECT p.id, p.title, p.description, p.date, p.likes, p.authorId, u.username AS authorName, p.hubId, h.name AS hubName,
         p.content, u.profileImageId AS authorProfileImageId
  FROM Post p JOIN User u ON u.id = p.authorId JOIN Hub h ON h.id = p.hubId
  WHERE p.id = ?`;

const toSummary = (row: PostRow, liked: boolean): PostSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  date: toIso(row.date),
  likes: row.likes,
  authorId: row.authorId,
  authorName: row.authorName,
  hubId: row.hubId,
  hubName: row.hubName,
  likedByMe: liked,
});

export function createPostService(db: Database, pageKeys: PostPageKeys) {
  const { sqlite, prisma } = db;
  // The inner query picks the page's ids from the covering sort index alone (starting after a
  // remembered key on deep pages); only the rows of the page are read and joined.
  const listQuery = <P extends unknown[] | object>(order: PostOrder, afterKey: boolean) => {
    const { columns, key } = pageKeys.sortColumns(order);
    // After a remembered key (k, id): the posts tied on k with a smaller id, then those below k. Two
    // exact index ranges; a row-value `(k, id) < (?, ?)` would walk every post tied on k (most
    // posts have 0 likes).
    const ids = afterKey
      ? `SELECT id FROM (
           SELECT * FROM (SELECT id, ${key} FROM Post WHERE hubId = @hubId AND ${key} = @k AND id < @id ORDER BY id DESC LIMIT @limit + @skip)
           UNION ALL
           SELECT * FROM (SELECT id, ${key} FROM Post WHERE hubId = @hubId AND ${key} < @k ORDER BY ${columns} LIMIT @limit + @skip)
         ) ORDER BY ${columns} LIMIT @limit OFFSET @skip`
      : `SELECT id FROM Post WHERE hubId = @hubId ORDER BY ${columns} LIMIT @limit OFFSET @skip`;
    return prepare<P, PostRow>(sqlite, `${POST_SUMMARY} WHERE p.id IN (${ids}) ORDER BY ${columns.replace(/(\w+) DESC/g, "p.$1 DESC")}`);
  };
  type Start = { hubId: number; limit: number; skip: number };
  const fromStart = (order: PostOrder) => listQuery<[Start]>(order, false);
  const afterKey = (order: PostOrder) => listQuery<[Start & { k: number; id: number }]>(order, true);
  const q = {
    list: { latest: fromStart("latest"), "by-likes": fromStart("by-likes") },
    listAfterKey: { latest: afterKey("latest"), "by-likes": afterKey("by-likes") },
    postCount: prepare<[number], { postCount: number }>(sqlite, "SELECT postCount FROM Hub WHERE id = ?"),
    detail: prepare<[number], PostDetailRow>(sqlite, POST_DETAIL),
    liked: prepare<[number, number], { one: number }>(sqlite, "SELECT 1 AS one FROM PostLike WHERE userId = ? AND postId = ?"),
    hubExists: prepare<[number], { id: number }>(sqlite, "SELECT id FROM Hub WHERE id = ?"),
    isMember: prepare<[number, number], { one: number }>(sqlite, "SELECT 1 AS one FROM Membership WHERE userId = ? AND hubId = ?"),
    insert: prepare(
      sqlite,
      `INSERT INTO Post (title, content, description, date, likes, authorId, hubId)
       VALUES (@title, @content, @description, @date, 0, @authorId, @hubId)`,
    ),
    bumpPostCount: prepare(sqlite, "UPDATE Hub SET postCount = postCount + 1 WHERE id = ?"),
  };

  /** Which of these posts the viewer liked, in one query. */
  const likedSet = (viewerId: number | undefined, ids: number[]) =>
    linkedIdsSync(sqlite, { link: "PostLike", targetColumn: "postId" }, viewerId, ids);

  const insertPost = sqlite.transaction((input: NewPostInput, authorId: number) => {
    const { lastInsertRowid } = q.insert.run({
      title: input.title,
      content: input.content,
      description: input.description,
      date: nowMs(),
      authorId,
      hubId: input.hubId,
    });
    q.bumpPostCount.run(input.hubId);
    publishOwnImages(sqlite, authorId, embeddedImageIds(input.content));
    pageKeys.postAdded(input.hubId);
    return Number(lastInsertRowid);
  });

  function detail(id: number, viewerId: number | undefined): Post {
    const row = q.detail.get(id);
    if (!row) throw notFound("Post not found");
    return {
      ...toSummary(row, viewerId !== undefined && q.liked.get(viewerId, id) !== undefined),
      content: row.content,
      authorProfileImageID: row.authorProfileImageId,
    };
  }

  return {
    listByHub(hubId: number, order: PostOrder, paging: Paging, viewerId?: number): Page<PostSummary> {
      const start = pageKeys.pageStart(hubId, order, offsetOf(paging));
      const at = { hubId, limit: paging.perPage, skip: start.skip };
      const rows = start.after ? q.listAfterKey[order].all({ ...at, k: start.after[0], id: start.after[1] }) : q.list[order].all(at);
      const liked = likedSet(
        viewerId,
        rows.map((r) => r.id),
      );
      const total = q.postCount.get(hubId)?.postCount ?? 0;
      return pageOf(
        rows.map((r) => toSummary(r, liked.has(r.id))),
        total,
        paging,
      );
    },

    get: detail,

    /** A post as seen under /hubs/{hubName}/{postId}: it must belong to that hub. */
    getInHub(hubId: number, postId: number, viewerId?: number): Post {
      const post = detail(postId, viewerId);
      if (post.hubId !== hubId) throw notFound("Post not found");
      return post;
    },

    /** Posting in a hub requires membership (docs/api.md §5). */
    create(input: NewPostInput, authorId: number): Post {
      if (!q.hubExists.get(input.hubId)) throw notFound("Hub not found");
      if (!q.isMember.get(authorId, input.hubId)) throw forbidden("You do not have permission to post in this hub");
      return detail(insertPost(input, authorId), authorId);
    },

    async update(id: number, input: PostEditInput, userId: number): Promise<Post> {
      const post = await prisma.post.findUnique({ where: { id }, select: { authorId: true } });
      if (!post) throw notFound("Post not found");
      if (post.authorId !== userId) throw forbidden("Only the author can edit this post");
      await prisma.$transaction([
        prisma.post.update({
          where: { id },
          data: {
            title: input.title,
            content: input.content,
            ...(input.description !== undefined ? { description: input.description } : {}),
          },
        }),
        publishOwnImagesQuery(prisma, userId, embeddedImageIds(input.content)),
      ]);
      return detail(id, userId);
    },
  };
}
