import type { Database } from "../db/database.ts";
import { notFound } from "../http/errors.ts";
import { createPostLikeQueries } from "./posts.queries.ts";

export function createPostLikeService(db: Database) {
  const likes = createPostLikeQueries(db);

  /** A post is liked under its own hub's path only. */
  async function set(userId: number, hubId: number, postId: number, liked: boolean) {
    if ((await likes.hubOf(postId)) !== hubId) throw notFound("Post not found");
    return { liked, likes: await likes.setLiked(userId, postId, liked) };
  }

  return {
    like: (userId: number, hubId: number, postId: number) => set(userId, hubId, postId, true),
    unlike: (userId: number, hubId: number, postId: number) => set(userId, hubId, postId, false),
  };
}
