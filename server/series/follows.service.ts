import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { refuseRemoved } from "../moderation/removed-guard.ts";
import { createNotificationQueries } from "../notifications/notifications.queries.ts";

export function createFollowService(db: Database) {
  const setFollowing = createCountedToggle(
    db,
    {
      link: "Follow",
      targetColumn: "seriesId",
      target: "Series",
      counter: "followersCount",
      timestamped: true,
      notFoundMessage: "No series found.",
    },
    // A new follower (not a repeat) tells the series' author, in the follow's transaction.
    createNotificationQueries(db).notifyOnLink("follow"),
    // Nobody follows a removed series (unfollowing stays possible).
    (trx, seriesId) => refuseRemoved(trx, "series", seriesId),
  );
  return {
    follow: async (userId: number, seriesId: number) => ({ following: true, followersCount: await setFollowing(userId, seriesId, true) }),
    unfollow: async (userId: number, seriesId: number) => ({
      following: false,
      followersCount: await setFollowing(userId, seriesId, false),
    }),
  };
}
