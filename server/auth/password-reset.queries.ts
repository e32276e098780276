import { sql, type Insertable } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { PasswordResetTokenTable } from "../db/schema.ts";

/** The account a reset request names: whom the mail goes to. */
export interface ResetAccount {
  id: number;
  username: string;
  email: string;
  suspendedUntil: number | null;
}

/** Password reset tokens (docs/api.md "Password reset"): only their sha256 is stored. */
export function createPasswordResetQueries({ kysely }: Database) {
  const q = {
    byUsername: prepare<{ key: string }, ResetAccount>(kysely, (p) =>
      kysely.selectFrom("User").select(["id", "username", "email", "suspendedUntil"]).where("usernameKey", "=", p("key")),
    ),
    byEmail: prepare<{ key: string }, ResetAccount>(kysely, (p) =>
      kysely.selectFrom("User").select(["id", "username", "email", "suspendedUntil"]).where("emailKey", "=", p("key")),
    ),
    // The token's account, while the token is alive; nothing is changed by looking.
    liveToken: prepare<{ tokenHash: string; now: number }, { userId: number; suspendedUntil: number | null }>(
      kysely,
      (p) => sql`SELECT t."userId", u."suspendedUntil" FROM "PasswordResetToken" t JOIN "User" u ON u."id" = t."userId"
                 WHERE t."tokenHash" = ${p("tokenHash")} AND t."expiresAt" > ${p("now")}`,
    ),
    // Single use: of two confirms with one token, only the first deletes its row.
    takeToken: prepare<{ tokenHash: string; now: number }, { userId: number }>(
      kysely,
      (p) => sql`DELETE FROM "PasswordResetToken" WHERE "tokenHash" = ${p("tokenHash")} AND "expiresAt" > ${p("now")} RETURNING "userId"`,
    ),
    dropTokensOf: prepare<{ userId: number }>(kysely, (p) => kysely.deleteFrom("PasswordResetToken").where("userId", "=", p("userId"))),
    dropExpired: prepare<{ now: number }>(kysely, (p) => kysely.deleteFrom("PasswordResetToken").where("expiresAt", "<=", p("now"))),
    // The new hash and the next generation in one statement: every token signed so far stops working.
    setPassword: prepare<{ id: number; passwordHash: string }, { id: number; username: string; email: string; tokenGeneration: number }>(
      kysely,
      (p) => sql`UPDATE "User" SET "passwordHash" = ${p("passwordHash")}, "tokenGeneration" = "tokenGeneration" + 1
                 WHERE "id" = ${p("id")} RETURNING "id", "username", "email", "tokenGeneration"`,
    ),
  };

  return {
    /** The account whose username key (or, with `byEmail`, email key) this is. */
    account: (key: string, byEmail: boolean) => (byEmail ? q.byEmail : q.byUsername).first({ key }),
    insertToken: async (trx: Executor, row: Insertable<PasswordResetTokenTable>) => {
      await trx.insertInto("PasswordResetToken").values(row).execute();
    },
    liveToken: (tokenHash: string, now: number) => q.liveToken.first({ tokenHash, now }),
    takeToken: (trx: Executor, tokenHash: string, now: number) => q.takeToken.first({ tokenHash, now }, trx),
    dropTokensOf: (trx: Executor, userId: number) => q.dropTokensOf.run({ userId }, trx),
    dropExpired: (now: number) => q.dropExpired.run({ now }),
    setPassword: (trx: Executor, id: number, passwordHash: string) => q.setPassword.first({ id, passwordHash }, trx),
  };
}
