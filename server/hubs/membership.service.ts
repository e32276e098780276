import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { createHubBanChecks } from "../moderation/bans.queries.ts";
import { refuseRemoved } from "../moderation/removed-guard.ts";
import { createNotificationQueries } from "../notifications/notifications.queries.ts";

export function createMembershipService(db: Database) {
  const bans = createHubBanChecks(db);
  const setMember = createCountedToggle(
    db,
    {
      link: "Membership",
      targetColumn: "hubId",
      target: "Hub",
      counter: "memberCount",
      timestamped: true,
      notFoundMessage: "No hub found.",
    },
    // A new member (not a repeat) tells the hub's creator, in the join's transaction.
    createNotificationQueries(db).notifyOnLink("join"),
    // Nobody joins a removed hub, nor a user banned from it (leaving stays possible).
    async (trx, hubId, userId) => {
      await refuseRemoved(trx, "hub", hubId);
      await bans.inHub(trx, hubId, userId);
    },
  );
  return {
    join: async (userId: number, hubId: number) => ({ member: true, memberCount: await setMember(userId, hubId, true) }),
    leave: async (userId: number, hubId: number) => ({ member: false, memberCount: await setMember(userId, hubId, false) }),
  };
}
