import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { insertModLogEntry } from "./modlog.queries.ts";

/**
 * A suspension without an end: 9999-12-31T23:59:59.999Z, so "suspended" is one comparison (`suspendedUntil > now`)
 * on both engines, and the same column answers when it ends.
 */
export const SUSPENDED_FOREVER = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface SuspendedUserRow {
  id: number;
  username: string;
  usernameKey: string;
  isAdmin: number;
  suspendedUntil: number | null;
  suspendedReason: string | null;
}

export interface SuspensionChange {
  userId: number;
  /** Copied into the mod log entry's title. */
  username: string;
  actorId: number;
  reason: string;
  until: number;
  now: number;
}

/**
 * Site suspensions (docs/api.md "Bans, suspensions and the mod log"): each change and its site mod log entry (no hub),
 * written on the service's transaction.
 */
export function createSuspensionQueries({ kysely }: Database) {
  const user = prepare<{ id: number }, SuspendedUserRow>(kysely, (p) =>
    kysely
      .selectFrom("User")
      .select(["id", "username", "usernameKey", "isAdmin", "suspendedUntil", "suspendedReason"])
      .where("id", "=", p("id")),
  );
  // One statement: the suspension and the next token generation together, so every token signed before it stops
  // working on every instance (the token check reads the generation), and a login racing it either sees the
  // suspension or signs a token of the old generation.
  const suspend = prepare<{ id: number; until: number; reason: string }>(
    kysely,
    (p) => sql`UPDATE "User" SET "suspendedUntil" = ${p("until")}, "suspendedReason" = ${p("reason")},
                 "tokenGeneration" = "tokenGeneration" + 1 WHERE "id" = ${p("id")}`,
  );
  const lift = prepare<{ id: number }>(
    kysely,
    (p) => sql`UPDATE "User" SET "suspendedUntil" = NULL, "suspendedReason" = NULL
               WHERE "id" = ${p("id")} AND "suspendedUntil" IS NOT NULL`,
  );

  const log = (c: Omit<SuspensionChange, "until">, action: "suspended" | "unsuspended") => ({
    hubId: null,
    action,
    moderatorId: c.actorId,
    subjectType: "user" as const,
    subjectId: c.userId,
    subjectTitle: c.username,
    reason: c.reason,
    createdAt: c.now,
  });

  return {
    user: (id: number) => user.first({ id }),

    /** Suspends (or sets the suspension again), ends every session, logs `suspended`; false: no such user. */
    suspend: async (trx: Executor, c: SuspensionChange): Promise<boolean> => {
      if ((await suspend.run({ id: c.userId, until: c.until, reason: c.reason }, trx)) === 0) return false;
      await insertModLogEntry(trx, log(c, "suspended"));
      return true;
    },

    /** Lifts the suspension and logs `unsuspended`; nothing when there was none (an ended one is cleared and logged). */
    lift: async (trx: Executor, c: Omit<SuspensionChange, "until">): Promise<boolean> => {
      const lifted = (await lift.run({ id: c.userId }, trx)) > 0;
      if (lifted) await insertModLogEntry(trx, log(c, "unsuspended"));
      return lifted;
    },
  };
}
