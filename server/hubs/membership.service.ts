import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";

export function createMembershipService(db: Database) {
  const setMember = createCountedToggle(db.sqlite, {
    link: "Membership",
    targetColumn: "hubId",
    target: "Hub",
    counter: "memberCount",
    timestamped: true,
    notFoundMessage: "No hub found.",
  });
  return {
    join: (userId: number, hubId: number) => ({ member: true, memberCount: setMember(userId, hubId, true) }),
    leave: (userId: number, hubId: number) => ({ member: false, memberCount: setMember(userId, hubId, false) }),
  };
}
