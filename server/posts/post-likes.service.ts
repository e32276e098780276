import { createCountedToggle } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { notFound } from "../http/errors.ts";
import type { HubLookup } from "../moderation/bans.service.ts";
import { createHubBanChecks, refuseRemoved } from "../moderation/write-guards.service.ts";
import { createPostLikeQueries } from "./posts.queries.ts";

export function createPostLikeService(db: Database, hubs: HubLookup) {
  const likes = createPostLikeQueries(db);
  const bans = createHubBanChecks(db);
  /** Sets the like on or off; answers the post's likes after it (null: no such post). */
  const setLiked = createCountedToggle(
    db,
    { link: "PostLike", targetColumn: "postId", target: "Post", counter: "likes", timestamped: false },
    // The like moves the hub's "by-likes" order, in its transaction.
    (postId, trx) => likes.bumpLikeOrder(trx, postId),
    // Nobody likes a removed post (or one in a removed hub), nor a post of a hub they are banned from.
    async (trx, postId, userId) => {
      await refuseRemoved(trx, "post", postId);
      await bans.onPost(trx, postId, userId);
    },
  );

  /** A post is liked under its own hub's path only. */
  async function set(userId: number, hubName: string, postId: number, liked: boolean) {
    const hubId = await hubs.resolveId(hubName, "Post not found");
    if ((await likes.hubOf(postId)) !== hubId) throw notFound("Post not found");
    const count = await db.kysely.transaction().execute((trx) => setLiked(trx, userId, postId, liked));
    if (count === null) throw notFound("Post not found");
    return { liked, likes: count };
  }

  return {
    like: (userId: number, hubName: string, postId: number) => set(userId, hubName, postId, true),
    unlike: (userId: number, hubName: string, postId: number) => set(userId, hubName, postId, false),
  };
}
