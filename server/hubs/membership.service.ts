import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";

export function createMembershipService(db: Database) {
  const setMember = createCountedToggle(db, {
    link: "Membership",
    targetColumn: "hubId",
    target: "Hub",
    counter: "memberCount",
    timestamped: true,
    notFoundMessage: "No hub found.",
  });
  return {
    join: async (userId: number, hubId: number) => ({ member: true, memberCount: await setMember(userId, hubId, true) }),
    leave: async (userId: number, hubId: number) => ({ member: false, memberCount: await setMember(userId, hubId, false) }),
  };
}
