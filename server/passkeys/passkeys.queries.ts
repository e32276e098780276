import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import type { Executor } from "../db/prepared.ts";
import type { PasskeyChallengeTable, PasskeyTable, UserTable } from "../db/schema.ts";

export type PasskeyRow = Selectable<PasskeyTable>;
export type NewPasskeyRow = Omit<Insertable<PasskeyTable>, "id" | "lastUsedAt">;
/** A passkey with what signing its owner in needs of the account. */
export type SignInPasskeyRow = PasskeyRow & Pick<Selectable<UserTable>, "username" | "email" | "tokenGeneration" | "suspendedUntil">;

/** Rows and facts of passkeys and their challenges (docs/api.md "Passkeys"); nothing of HTTP. */
export function createPasskeyQueries({ kysely }: Database) {
  return {
    /** The user's passkeys, oldest first (the `userId, createdAt` index). */
    listOf: (userId: number, on: Executor = kysely): Promise<PasskeyRow[]> =>
      on.selectFrom("Passkey").selectAll().where("userId", "=", userId).orderBy("createdAt").orderBy("id").execute(),

    /** Throws a unique violation when the credential is registered already (isUniqueViolation). */
    async insert(row: NewPasskeyRow, on: Executor = kysely): Promise<PasskeyRow> {
      return on.insertInto("Passkey").values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** The passkey of this credential id, with its account; undefined when there is none (or the account went). */
    forSignIn: (credentialId: string): Promise<SignInPasskeyRow | undefined> =>
      kysely
        .selectFrom("Passkey as p")
        .innerJoin("User as u", "u.id", "p.userId")
        .selectAll("p")
        .select(["u.username", "u.email", "u.tokenGeneration", "u.suspendedUntil"])
        .where("p.credentialId", "=", credentialId)
        .executeTakeFirst(),

    /**
     * Moves the counter from what was read to what the authenticator said, and stamps the use: false when another
     * sign-in moved it meanwhile (the same assertion twice at once: only one of them wins).
     */
    async advanceCounter(id: number, from: number, to: number, now: number): Promise<boolean> {
      const result = await kysely
        .updateTable("Passkey")
        .set({ counter: to, lastUsedAt: now })
        .where("id", "=", id)
        .where("counter", "=", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Deletes the passkey when it is the user's: false when there is no such passkey of theirs. */
    async deleteOwn(userId: number, id: number): Promise<boolean> {
      const result = await kysely.deleteFrom("Passkey").where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Deletes the user's registration challenges (a new one replaces them) and anyone's expired challenges. */
    async dropStaleChallenges(on: Executor, now: number, userId?: number): Promise<void> {
      await on
        .deleteFrom("PasskeyChallenge")
        .where((w) => (userId === undefined ? w("expiresAt", "<", now) : w.or([w("userId", "=", userId), w("expiresAt", "<", now)])))
        .execute();
    },

    /** Keeps a challenge: a registration's with its user, a sign-in's with its challengeId's hash. */
    async insertChallenge(on: Executor, row: Insertable<PasskeyChallengeTable>): Promise<void> {
      await on.insertInto("PasskeyChallenge").values(row).execute();
    },

    /** Takes (deletes) the user's registration challenge: its expiry, or undefined when there is none. Used once. */
    takeRegistrationChallenge: async (userId: number, challengeHash: string): Promise<number | undefined> =>
      (
        await kysely
          .deleteFrom("PasskeyChallenge")
          .where("challengeHash", "=", challengeHash)
          .where("userId", "=", userId)
          .returning("expiresAt")
          .executeTakeFirst()
      )?.expiresAt,

    /** Takes (deletes) a sign-in challenge by its challengeId's hash: undefined when there is none. Used once. */
    takeSignInChallenge: (challengeIdHash: string): Promise<{ challengeHash: string; expiresAt: number } | undefined> =>
      kysely
        .deleteFrom("PasskeyChallenge")
        .where("challengeIdHash", "=", challengeIdHash)
        .where("userId", "is", null)
        .returning(["challengeHash", "expiresAt"])
        .executeTakeFirst(),

    /** How many passkeys the user has, read in the transaction that adds one. */
    countOf: async (userId: number, on: Executor): Promise<number> =>
      Number(
        (
          await on
            .selectFrom("Passkey")
            .select(sql<number>`COUNT(*)`.as("n"))
            .where("userId", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
