import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { CHALLENGE_WRONG_CODES, type TwoFactorState } from "../rules/two-factor.ts";

/** An account's TOTP as the service sees it. */
export interface TotpRow {
  secret: string;
  confirmedAt: number | null;
  lastUsedStep: number | null;
}

/** The rows of second factors (docs/api.md "Second factors"): TOTP, recovery codes and login challenges. */
export function createTwoFactorQueries({ kysely }: Database) {
  const savePending = prepare<{ userId: number; secret: string; now: number }>(
    kysely,
    (p) => sql`INSERT INTO "TotpFactor" ("userId", "secret", "confirmedAt", "lastUsedStep", "createdAt")
      VALUES (${p("userId")}, ${p("secret")}, NULL, NULL, ${p("now")})
      ON CONFLICT ("userId") DO UPDATE SET "secret" = excluded."secret", "lastUsedStep" = NULL, "createdAt" = excluded."createdAt"
      WHERE "TotpFactor"."confirmedAt" IS NULL`,
  );
  const totpOn = async (userId: number): Promise<boolean> =>
    (await kysely
      .selectFrom("TotpFactor")
      .select("userId")
      .where("userId", "=", userId)
      .where("confirmedAt", "is not", null)
      .executeTakeFirst()) !== undefined;
  return {
    totp: (userId: number, on: Executor = kysely): Promise<TotpRow | undefined> =>
      on.selectFrom("TotpFactor").select(["secret", "confirmedAt", "lastUsedStep"]).where("userId", "=", userId).executeTakeFirst(),

    /** What signing the user in needs, after the second factor. */
    signInUser: (userId: number) =>
      kysely
        .selectFrom("User")
        .select(["id", "username", "email", "tokenGeneration", "suspendedUntil"])
        .where("id", "=", userId)
        .executeTakeFirst(),

    /** What second factors the account has on, as its owner sees it in their user (`twoFactor`). */
    state: async (userId: number): Promise<TwoFactorState> => ({ totp: await totpOn(userId) }),

    /** Whether the account has TOTP on (confirmed). */
    totpOn,

    /** Whether the account has any second factor: TOTP on, or at least one passkey (ADMIN_REQUIRE_2FA). */
    async hasSecondFactor(userId: number): Promise<boolean> {
      const row = await sql<{ on: number }>`SELECT CASE WHEN EXISTS (
          SELECT 1 FROM "TotpFactor" WHERE "userId" = ${userId} AND "confirmedAt" IS NOT NULL
        ) OR EXISTS (SELECT 1 FROM "Passkey" WHERE "userId" = ${userId}) THEN 1 ELSE 0 END AS "on"`.execute(kysely);
      return Number(row.rows[0]?.on) === 1;
    },

    /** A new pending secret, replacing a pending one; a confirmed TOTP is left alone (answers false then). */
    savePending: async (userId: number, secret: string, now: number): Promise<boolean> =>
      (await savePending.run({ userId, secret, now })) === 1,

    /** Takes the time step for a code: false when a code of this step or a later one was used already (a replay). */
    async useStep(trx: Executor, userId: number, step: number): Promise<boolean> {
      const result = await trx
        .updateTable("TotpFactor")
        .set({ lastUsedStep: step })
        .where("userId", "=", userId)
        .where((w) => w.or([w("lastUsedStep", "is", null), w("lastUsedStep", "<", step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Turns the pending TOTP on and puts these recovery codes (their hashes) in place of any earlier ones. */
    async confirm(trx: Executor, userId: number, now: number, codeHashes: string[]): Promise<boolean> {
      const result = await trx
        .updateTable("TotpFactor")
        .set({ confirmedAt: now })
        .where("userId", "=", userId)
        .where("confirmedAt", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom("RecoveryCode").where("userId", "=", userId).execute();
      await trx
        .insertInto("RecoveryCode")
        .values(codeHashes.map((codeHash) => ({ userId, codeHash })))
        .execute();
      return true;
    },

    /** TOTP off: the secret, the recovery codes and the login challenges in progress. */
    async removeTotp(trx: Executor, userId: number): Promise<void> {
      await trx.deleteFrom("LoginChallenge").where("userId", "=", userId).execute();
      await trx.deleteFrom("RecoveryCode").where("userId", "=", userId).execute();
      await trx.deleteFrom("TotpFactor").where("userId", "=", userId).execute();
    },

    /** Uses up a recovery code: false when the account has no such code (wrong, or used already). */
    async useRecoveryCode(trx: Executor, userId: number, codeHash: string): Promise<boolean> {
      const result = await trx.deleteFrom("RecoveryCode").where("userId", "=", userId).where("codeHash", "=", codeHash).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** A new login challenge; the user's expired ones go at the same time. */
    async createChallenge(idHash: string, userId: number, expiresAt: number, now: number): Promise<void> {
      await kysely.deleteFrom("LoginChallenge").where("userId", "=", userId).where("expiresAt", "<=", now).execute();
      await kysely.insertInto("LoginChallenge").values({ idHash, userId, expiresAt }).execute();
    },

    /** The challenge while it lives: not expired, fewer than 5 wrong codes. */
    liveChallenge: (idHash: string, now: number) =>
      kysely
        .selectFrom("LoginChallenge")
        .select(["userId"])
        .where("idHash", "=", idHash)
        .where("expiresAt", ">", now)
        .where("wrongCodes", "<", CHALLENGE_WRONG_CODES)
        .executeTakeFirst(),

    countWrongCode: (idHash: string) =>
      kysely
        .updateTable("LoginChallenge")
        .set((eb) => ({ wrongCodes: eb("wrongCodes", "+", 1) }))
        .where("idHash", "=", idHash)
        .execute(),

    /** Ends a live challenge as it is used: false when it was used, expired or killed meanwhile. */
    async takeChallenge(trx: Executor, idHash: string, now: number): Promise<boolean> {
      const result = await trx
        .deleteFrom("LoginChallenge")
        .where("idHash", "=", idHash)
        .where("expiresAt", ">", now)
        .where("wrongCodes", "<", CHALLENGE_WRONG_CODES)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
