import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { prepare } from "../db/sql.ts";
import { notFound } from "../http/errors.ts";
import type { PostPageKeys } from "./post-page-keys.ts";

export function createPostLikeService(db: Database, pageKeys: PostPageKeys) {
  const setLiked = createCountedToggle(db, {
    link: "PostLike",
    targetColumn: "postId",
    target: "Post",
    counter: "likes",
    timestamped: false,
    notFoundMessage: "Post not found",
  });
  const hubOf = prepare<[number], { hubId: number }>(db.sqlite, "SELECT hubId FROM Post WHERE id = ?");

  /** A post is liked under its own hub's path only. */
  async function set(userId: number, hubId: number, postId: number, liked: boolean) {
    if (hubOf.get(postId)?.hubId !== hubId) throw notFound("Post not found");
    const likes = await setLiked(userId, postId, liked);
    pageKeys.likesChanged(hubId);
    return { liked, likes };
  }

  return {
    like: (userId: number, hubId: number, postId: number) => set(userId, hubId, postId, true),
    unlike: (userId: number, hubId: number, postId: number) => set(userId, hubId, postId, false),
  };
}
