import { createCountedToggle } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { notFound } from "../http/errors.ts";
import { createHubBanChecks, refuseRemoved } from "../moderation/write-guards.service.ts";

/** Likes of comments (docs/api.md §6): idempotent, counted exactly; a tombstone takes none (404). */
export function createCommentLikeService(db: Database) {
  const bans = createHubBanChecks(db);
  /** Sets the like on or off; answers the comment's likes after it (null: no such comment, or a tombstone). */
  const setLiked = createCountedToggle(
    db,
    {
      link: "CommentLike",
      targetColumn: "commentId",
      target: "Comment",
      counter: "likes",
      timestamped: false,
      goneWhenSet: "deletedAt",
    },
    undefined,
    // In the toggle's transaction, before a like is made: a removed comment (or one in something removed) takes none,
    // and a hub ban reaches the comments on its posts.
    async (trx, commentId, userId) => {
      await refuseRemoved(trx, "comment", commentId);
      await bans.onComment(trx, commentId, userId);
    },
  );

  async function set(userId: number, commentId: number, liked: boolean) {
    const likes = await db.kysely.transaction().execute((trx) => setLiked(trx, userId, commentId, liked));
    if (likes === null) throw notFound("Comment not found");
    return { liked, likes };
  }
  return {
    like: (userId: number, commentId: number) => set(userId, commentId, true),
    unlike: (userId: number, commentId: number) => set(userId, commentId, false),
  };
}
