import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { createHubBanChecks } from "../moderation/bans.queries.ts";
import { createNotificationQueries } from "../notifications/notifications.queries.ts";

export function createMembershipService(db: Database) {
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
    // A user banned from the hub cannot join it (leaving stays possible).
    createHubBanChecks(db).inHub,
  );
  return {
    join: async (userId: number, hubId: number) => ({ member: true, memberCount: await setMember(userId, hubId, true) }),
    leave: async (userId: number, hubId: number) => ({ member: false, memberCount: await setMember(userId, hubId, false) }),
  };
}
