import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";

export function createFollowService(db: Database) {
  const setFollowing = createCountedToggle(db, {
    link: "Follow",
    targetColumn: "seriesId",
    target: "Series",
    counter: "followersCount",
    timestamped: true,
    notFoundMessage: "No series found.",
  });
  return {
    follow: async (userId: number, seriesId: number) => ({ following: true, followersCount: await setFollowing(userId, seriesId, true) }),
    unfollow: async (userId: number, seriesId: number) => ({
      following: false,
      followersCount: await setFollowing(userId, seriesId, false),
    }),
  };
}
