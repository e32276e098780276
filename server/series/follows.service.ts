import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";

export function createFollowService(db: Database) {
  const setFollowing = createCountedToggle(db.sqlite, {
    link: "Follow",
    targetColumn: "seriesId",
    target: "Series",
    counter: "followersCount",
    timestamped: true,
    notFoundMessage: "No series found.",
  });
  return {
    follow: (userId: number, seriesId: number) => ({ following: true, followersCount: setFollowing(userId, seriesId, true) }),
    unfollow: (userId: number, seriesId: number) => ({ following: false, followersCount: setFollowing(userId, seriesId, false) }),
  };
}
