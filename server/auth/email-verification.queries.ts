import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { EmailVerificationTable, UserTable } from "../db/schema.ts";

/** A verification link as verifying it needs it. */
export type LinkRow = Pick<Selectable<EmailVerificationTable>, "id" | "userId" | "email" | "emailKey" | "expiresAt" | "usedAt">;

/** The account a link belongs to, as verifying needs it. */
export type AccountRow = Pick<Selectable<UserTable>, "id" | "username" | "email" | "emailKey" | "emailVerified">;

export type NewLink = Omit<Insertable<EmailVerificationTable>, "id" | "usedAt">;

/**
 * The rows of verified addresses (docs/api.md "Verified email addresses"): the links (only their tokens' sha256) and the
 * account's address and flag. Every write runs on the service's transaction.
 */
export function createEmailVerificationQueries({ kysely }: Database) {
  const q = {
    linkByHash: prepare<{ tokenHash: string }, LinkRow>(kysely, (p) =>
      kysely
        .selectFrom("EmailVerification")
        .select(["id", "userId", "email", "emailKey", "expiresAt", "usedAt"])
        .where("tokenHash", "=", p("tokenHash")),
    ),
    // Of two requests with one link, the second finds it used: single use under any concurrency.
    useLink: prepare<{ id: number; now: number }>(
      kysely,
      (p) => sql`UPDATE "EmailVerification" SET "usedAt" = ${p("now")} WHERE "id" = ${p("id")} AND "usedAt" IS NULL`,
    ),
    account: prepare<{ id: number }, AccountRow>(kysely, (p) =>
      kysely.selectFrom("User").select(["id", "username", "email", "emailKey", "emailVerified"]).where("id", "=", p("id")),
    ),
    emailVerified: prepare<{ id: number }, { emailVerified: number }>(kysely, (p) =>
      kysely.selectFrom("User").select("emailVerified").where("id", "=", p("id")),
    ),
    // The newest open link for an address other than the account's: the change waiting for its link.
    pendingEmail: prepare<{ userId: number; emailKey: string; now: number }, { email: string }>(kysely, (p) =>
      kysely
        .selectFrom("EmailVerification")
        .select("email")
        .where("userId", "=", p("userId"))
        .where("usedAt", "is", null)
        .where("expiresAt", ">", p("now"))
        .where("emailKey", "<>", p("emailKey"))
        .orderBy("id", "desc")
        .limit(1),
    ),
    takenByOther: prepare<{ emailKey: string; id: number }, { id: number }>(kysely, (p) =>
      kysely.selectFrom("User").select("id").where("emailKey", "=", p("emailKey")).where("id", "<>", p("id")),
    ),
  };

  return {
    linkByHash: (tokenHash: string, on?: Executor) => q.linkByHash.first({ tokenHash }, on),
    /** 1 when this call used the link, 0 when it was used already. */
    useLink: (on: Executor, id: number, now: number) => q.useLink.run({ id, now }, on),
    account: (id: number, on?: Executor) => q.account.first({ id }, on),
    /** Whether the account's address is verified; false for no such account. */
    isEmailVerified: async (on: Executor, id: number) => Number((await q.emailVerified.first({ id }, on))?.emailVerified ?? 0) === 1,
    /** The address a change waits to take once verified (an open link for another address than `emailKey`), or null. */
    pendingEmail: async (userId: number, emailKey: string, now: number, on?: Executor) =>
      (await q.pendingEmail.first({ userId, emailKey, now }, on))?.email ?? null,
    /** Whether another account has this address (case-insensitively). */
    takenByOther: async (on: Executor, emailKey: string, id: number) => (await q.takenByOther.first({ emailKey, id }, on)) !== undefined,

    insertLink: async (on: Executor, link: NewLink) => void (await on.insertInto("EmailVerification").values(link).execute()),

    /** Drops the account's links for another address than `keepKey` (changes asked for before) and its expired ones; how many went. */
    async dropStaleLinks(on: Executor, userId: number, keepKey: string, now: number): Promise<number> {
      const result = await on
        .deleteFrom("EmailVerification")
        .where("userId", "=", userId)
        .where((w) => w.or([w("emailKey", "<>", keepKey), w("expiresAt", "<=", now)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /** Drops every link of the account but `keepId` (a change took effect: the others were for addresses it no longer has or wants). */
    dropOtherLinks: async (on: Executor, userId: number, keepId: number) =>
      void (await on.deleteFrom("EmailVerification").where("userId", "=", userId).where("id", "<>", keepId).execute()),
    /** Drops the account's unused links for one address (it was just verified: they have nothing left to do). */
    dropOpenLinksFor: async (on: Executor, userId: number, emailKey: string) =>
      void (await on
        .deleteFrom("EmailVerification")
        .where("userId", "=", userId)
        .where("emailKey", "=", emailKey)
        .where("usedAt", "is", null)
        .execute()),

    markVerified: async (on: Executor, id: number) =>
      void (await on.updateTable("User").set({ emailVerified: 1 }).where("id", "=", id).execute()),
    /** The new address takes effect, verified. Throws a unique violation when another account took it meanwhile (isUniqueViolation). */
    takeAddress: async (on: Executor, id: number, email: string, emailKey: string) =>
      void (await on.updateTable("User").set({ email, emailKey, emailVerified: 1 }).where("id", "=", id).execute()),
  };
}

export type EmailVerificationQueries = ReturnType<typeof createEmailVerificationQueries>;
