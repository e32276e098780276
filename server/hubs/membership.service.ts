import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { createHubBanChecks, refuseRemoved } from "../moderation/write-guards.service.ts";
import { createNotificationQueries } from "../notifications/notifications.queries.ts";
import type { NotificationMail } from "../notifications/notification-mail.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { mayActAsUser, type Actor } from "../rules/permissions.ts";

export function createMembershipService(db: Database, mail: NotificationMail) {
  const bans = createHubBanChecks(db);
  const setMember = createCountedToggle(
    db,
    {
      link: "Membership",
      targetColumn: "hubId",
      target: "Hub",
      counter: "memberCount",
      timestamped: true,
    },
    // A new member (not a repeat) tells the hub's creator, in the join's transaction.
    createNotificationQueries(db).notifyOnLink("join", mail),
    // Nobody joins a removed hub, nor a user banned from it (leaving stays possible).
    async (trx, hubId, userId) => {
      await refuseRemoved(trx, "hub", hubId);
      await bans.inHub(trx, hubId, userId);
    },
  );
  /** POST and DELETE /user/{userId}/member-hubs/{hubId}: for the token's user only (docs/api.md §5). */
  async function set(actor: Pick<Actor, "id">, userId: number, hubId: number, member: boolean) {
    if (!mayActAsUser(actor, { id: userId })) throw forbidden("You can only change your own memberships and follows");
    const memberCount = await db.kysely.transaction().execute((trx) => setMember(trx, actor.id, hubId, member));
    if (member) wakeJobRunners(db); // the owner's notification mail, if any, goes now
    if (memberCount === null) throw notFound("No hub found.");
    return { member, memberCount };
  }
  return {
    join: (actor: Pick<Actor, "id">, userId: number, hubId: number) => set(actor, userId, hubId, true),
    leave: (actor: Pick<Actor, "id">, userId: number, hubId: number) => set(actor, userId, hubId, false),
  };
}
