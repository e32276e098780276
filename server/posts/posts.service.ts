import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { removedOf } from "../moderation/removed.ts";
import type { Paging } from "../rules/paging.ts";
import type { NewPostInput, PostEditInput } from "../rules/post.ts";
import type { Post, PostSummary } from "../rules/responses.ts";
import type { PostOrder } from "./post-page-keys.ts";
import { createHubBanChecks } from "../moderation/bans.queries.ts";
import { refuseRemoved } from "../moderation/removed-guard.ts";
import type { PageHiding } from "../blocks/blocks.service.ts";
import { createPostQueries, type PostRow } from "./posts.queries.ts";

export const toSummary = (row: PostRow, liked: boolean): PostSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  date: toIso(row.date),
  likes: row.likes,
  commentCount: row.commentCount,
  authorId: row.authorId,
  authorName: row.authorName,
  hubId: row.hubId,
  hubName: row.hubName,
  likedByMe: liked,
  removed: removedOf(row, { container: "hub", reason: row.hubRemovedReason }),
});

export function createPostService(db: Database) {
  const posts = createPostQueries(db);
  const bans = createHubBanChecks(db);

  async function detail(id: number, viewerId: number | undefined): Promise<Post> {
    const row = await posts.detail(id, viewerId);
    if (!row) throw notFound("Post not found");
    return { ...toSummary(row, row.liked === 1), content: row.content, authorProfileImageID: row.authorProfileImageId };
  }

  return {
    /** `hidingBlocksOf`: the viewer whose blocked users' posts are left out and counted in `hidden` (server/blocks). */
    async listByHub(
      hubId: number,
      order: PostOrder,
      paging: Paging,
      viewerId?: number,
      hidingBlocksOf?: number,
    ): Promise<PageHiding<PostSummary>> {
      if (hidingBlocksOf !== undefined) {
        const { total, rows, hidden } = await posts.pageHidingBlocked(hubId, order, paging.perPage, offsetOf(paging), hidingBlocksOf);
        const liked = await posts.likedBy(
          viewerId,
          rows.map((r) => r.id),
        );
        return {
          ...pageOf(
            rows.map((r) => toSummary(r, liked.has(r.id))),
            total,
            paging,
          ),
          hidden,
        };
      }
      const { total, rows } = await posts.page(hubId, order, paging.perPage, offsetOf(paging));
      const liked = await posts.likedBy(
        viewerId,
        rows.map((r) => r.id),
      );
      return pageOf(
        rows.map((r) => toSummary(r, liked.has(r.id))),
        total,
        paging,
      );
    },

    get: detail,

    /** A post as seen under /hubs/{hubName}/{postId}: it must belong to that hub. */
    async getInHub(hubId: number, postId: number, viewerId?: number): Promise<Post> {
      const post = await detail(postId, viewerId);
      if (post.hubId !== hubId) throw notFound("Post not found");
      return post;
    },

    /** Posting in a hub requires membership (docs/api.md §5). */
    async create(input: NewPostInput, authorId: number): Promise<Post> {
      const member = await posts.isMember(input.hubId, authorId);
      if (member === undefined) throw notFound("Hub not found");
      if (!member) {
        // A non-member hears that the hub was removed or that they are banned (they cannot join either); members are
        // checked in the insert.
        await refuseRemoved(db.kysely, "hub", input.hubId);
        await bans.inHub(db.kysely, input.hubId, authorId);
        throw forbidden("You do not have permission to post in this hub");
      }
      const id = await posts.insert(input, authorId);
      if (id === undefined) throw notFound("Hub not found");
      return detail(id, authorId);
    },

    async update(id: number, input: PostEditInput, userId: number): Promise<Post> {
      const authorId = await posts.authorOf(id);
      if (authorId === undefined) throw notFound("Post not found");
      if (authorId !== userId) throw forbidden("Only the author can edit this post");
      await posts.update(id, input, userId);
      return detail(id, userId);
    },
  };
}
