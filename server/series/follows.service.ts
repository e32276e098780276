import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { refuseRemoved } from "../moderation/write-guards.service.ts";
import { createNotificationQueries } from "../notifications/notifications.queries.ts";
import type { NotificationMail } from "../notifications/notification-mail.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { mayActAsUser, type Actor } from "../rules/permissions.ts";

export function createFollowService(db: Database, mail: NotificationMail) {
  const setFollowing = createCountedToggle(
    db,
    {
      link: "Follow",
      targetColumn: "seriesId",
      target: "Series",
      counter: "followersCount",
      timestamped: true,
    },
    // A new follower (not a repeat) tells the series' author, in the follow's transaction.
    createNotificationQueries(db).notifyOnLink("follow", mail),
    // Nobody follows a removed series (unfollowing stays possible).
    (trx, seriesId) => refuseRemoved(trx, "series", seriesId),
  );
  /** POST and DELETE /user/{userId}/followed-series/{seriesId}: for the token's user only (docs/api.md §5). */
  async function set(actor: Pick<Actor, "id">, userId: number, seriesId: number, following: boolean) {
    if (!mayActAsUser(actor, { id: userId })) throw forbidden("You can only change your own memberships and follows");
    const followersCount = await db.kysely.transaction().execute((trx) => setFollowing(trx, actor.id, seriesId, following));
    if (following) wakeJobRunners(db); // the owner's notification mail, if any, goes now
    if (followersCount === null) throw notFound("No series found.");
    return { following, followersCount };
  }
  return {
    follow: (actor: Pick<Actor, "id">, userId: number, seriesId: number) => set(actor, userId, seriesId, true),
    unfollow: (actor: Pick<Actor, "id">, userId: number, seriesId: number) => set(actor, userId, seriesId, false),
  };
}
