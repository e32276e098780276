import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import type { Executor } from "../db/prepared.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { memoryAttemptCounter, unlimitedAttempts, type AttemptCounters } from "../http/attempt-counter.ts";
import type { Caller } from "../http/auth.ts";
import { badRequest, conflict, TooManyRequests } from "../http/errors.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { enqueueMail } from "../mail/outbox.ts";
import {
  DEFAULT_VERIFICATION_MAILS_PER_HOUR,
  INVALID_VERIFICATION_LINK,
  NOTHING_TO_VERIFY,
  VERIFICATION_LINK_HOURS,
  verificationMailRateMessage,
  type EmailVerified,
  type VerificationSent,
  type VerifyEmailInput,
} from "../rules/email-verification.ts";
import { createEmailVerificationQueries } from "./email-verification.queries.ts";
import { emailChangedMail, verificationMail, verificationUrl } from "./verification-mail.ts";

export interface EmailVerificationConfig {
  /** The web app's public origin: the links point at its /verify-email page. Default http://localhost:3000. */
  publicUrl?: string;
  /** Resends and email changes together, per account per hour (0: no limit); default 3. */
  verificationMailsPerHour?: number;
}

/** The account a link is made for. */
export interface LinkAccount {
  id: number;
  username: string;
}

const LINK_MS = VERIFICATION_LINK_HOURS * 3600 * 1000;
const EMAIL_TAKEN = "Email is already registered";

/** Tokens are 256 random bits; only their sha256 is stored, so a copy of the database verifies nothing. */
const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/**
 * Verified email addresses (docs/api.md "Verified email addresses"): links sent on register, on an email change and on
 * request; verifying one marks the address verified, or makes a changed address take effect and tells the old one.
 * Mail is queued in the transaction of what caused it and sent by the job runner after commit (server/mail/outbox.ts).
 */
export function createEmailVerification(
  db: Database,
  config: EmailVerificationConfig = {},
  counters: AttemptCounters = memoryAttemptCounter,
) {
  const queries = createEmailVerificationQueries(db);
  const publicUrl = (config.publicUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const perHour = config.verificationMailsPerHour ?? DEFAULT_VERIFICATION_MAILS_PER_HOUR;
  const mails = perHour > 0 ? counters("verification-mail", perHour, 3600) : unlimitedAttempts;

  /** A new link for `address` (the account's own, or a change's), and its mail: in the caller's transaction. */
  async function sendLink(trx: Executor, account: LinkAccount, address: string, kind: "own" | "change"): Promise<void> {
    const token = randomBytes(32).toString("base64url");
    const now = nowMs();
    await queries.insertLink(trx, {
      userId: account.id,
      tokenHash: hashOf(token),
      email: address,
      emailKey: address.toLowerCase(),
      expiresAt: now + LINK_MS,
      createdAt: now,
    });
    await enqueueMail(trx, verificationMail(account, address, verificationUrl(publicUrl, token), kind));
  }

  /** Counts one verification mail of the account: 429 with Retry-After beyond the limit. */
  async function countMail(userId: number): Promise<void> {
    const wait = await mails.take(String(userId));
    if (wait !== null) throw new TooManyRequests(verificationMailRateMessage(perHour, wait), wait);
  }

  return {
    /** Registering: the link for the new account's address, in the transaction that makes the account. */
    sendOnRegister: (trx: Executor, account: LinkAccount & { email: string }) => sendLink(trx, account, account.email, "own"),

    /** Before an email change's transaction: counts its mail on the account's limit (429). */
    countChangeMail: countMail,

    /**
     * An email change, in the transaction of PUT /user/{id}: the account keeps its address; the new one gets a link and
     * takes effect once verified. Links of earlier changes stop working (the newest change is the one that waits).
     */
    async requestChange(trx: Executor, account: LinkAccount & { emailKey: string }, newAddress: string): Promise<void> {
      await queries.dropStaleLinks(trx, account.id, account.emailKey, nowMs());
      await sendLink(trx, account, newAddress, "change");
    },

    /** The address a change waits to take, or null (shown to the account's owner only). */
    pendingEmail: (userId: number, emailKey: string) => queries.pendingEmail(userId, emailKey, nowMs()),

    /**
     * `POST /auth/verify-email`: no sign-in needed (the token is the proof). A used, expired or unknown token is 400 on
     * `token`, the same words for each. A link for the account's address marks it verified; a link for a new one makes
     * it the account's address, verified, and tells the old address when that one was verified (an unverified one may
     * be a stranger's). 409 when another account took the new address meanwhile (the link stays usable).
     */
    async verify(input: VerifyEmailInput): Promise<EmailVerified> {
      const invalid = () => badRequest(INVALID_VERIFICATION_LINK, [{ field: "token", message: INVALID_VERIFICATION_LINK }]);
      const tokenHash = hashOf(input.token);
      const result = await db.kysely
        .transaction()
        .execute(async (trx) => {
          const now = nowMs();
          const link = await queries.linkByHash(tokenHash, trx);
          if (!link || link.usedAt !== null || link.expiresAt <= now) throw invalid();
          const account = await queries.account(link.userId, trx);
          if (!account) throw invalid();
          if (link.emailKey !== account.emailKey && (await queries.takenByOther(trx, link.emailKey, account.id)))
            throw conflict(EMAIL_TAKEN);
          // Under a second request with the same link, this one finds it used: single use.
          if ((await queries.useLink(trx, link.id, now)) === 0) throw invalid();
          if (link.emailKey === account.emailKey) {
            await queries.markVerified(trx, account.id);
            await queries.dropOpenLinksFor(trx, account.id, account.emailKey);
            return { email: account.email, emailVerified: true as const, changed: false };
          }
          await queries.takeAddress(trx, account.id, link.email, link.emailKey);
          await queries.dropOtherLinks(trx, account.id, link.id);
          if (account.emailVerified === 1) await enqueueMail(trx, emailChangedMail(account, account.email, link.email, publicUrl));
          return { email: link.email, emailVerified: true as const, changed: true };
        })
        .catch((err: unknown) => {
          // Two accounts racing for one address: the unique key decides.
          throw isUniqueViolation(err) ? conflict(EMAIL_TAKEN) : err;
        });
      if (result.changed) wakeJobRunners(db);
      return result;
    },

    /**
     * `POST /me/verify-email/resend`: a new link for the change that waits, else for the account's own address while it
     * is unverified; 400 when there is nothing to verify. Counted on the account's limit first (429).
     */
    async resend(caller: Pick<Caller, "id">): Promise<VerificationSent> {
      await countMail(caller.id);
      const sentTo = await db.kysely.transaction().execute(async (trx) => {
        const account = await queries.account(caller.id, trx);
        if (!account) throw badRequest(NOTHING_TO_VERIFY);
        const pending = await queries.pendingEmail(account.id, account.emailKey, nowMs(), trx);
        if (pending !== null) {
          await sendLink(trx, account, pending, "change");
          return pending;
        }
        if (account.emailVerified === 1) throw badRequest(NOTHING_TO_VERIFY);
        await sendLink(trx, account, account.email, "own");
        return account.email;
      });
      wakeJobRunners(db);
      return { sentTo };
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
