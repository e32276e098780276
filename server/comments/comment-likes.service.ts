import type { Database } from "../db/database.ts";
import { createCommentLikeQueries } from "./comments.queries.ts";

/** Likes of comments (CONTRACT.md 6): idempotent, counted exactly; a tombstone takes none (404). */
export function createCommentLikeService(db: Database) {
  const { setLiked } = createCommentLikeQueries(db);
  return {
    like: async (userId: number, commentId: number) => ({ liked: true, likes: await setLiked(userId, commentId, true) }),
    unlike: async (userId: number, commentId: number) => ({ liked: false, likes: await setLiked(userId, commentId, false) }),
  };
}
