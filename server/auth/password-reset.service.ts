import { createHash, randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { pino, type Logger } from "pino";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { memoryAttemptCounter, unlimitedAttempts, type AttemptCounters } from "../http/attempt-counter.ts";
import { signAccessToken, type TokenConfig } from "../http/auth.ts";
import { badRequest, forbidden, TooManyRequests } from "../http/errors.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { DEFAULT_PUBLIC_URL } from "../mail/transport.ts";
import { isSuspended } from "../moderation/suspensions.service.ts";
import { ACCOUNT_SUSPENDED } from "../rules/bans.ts";
import {
  DEFAULT_RESET_MAILS_PER_ACCOUNT_PER_HOUR,
  DEFAULT_RESET_REQUESTS_PER_ADDRESS_PER_HOUR,
  INVALID_RESET_LINK,
  RESET_LINK_MINUTES,
  type PasswordResetConfirmInput,
  type PasswordResetRequestInput,
} from "../rules/password-reset.ts";
import { createSecondFactorLogin, type SecondFactorLoginConfig } from "../two-factor/second-factor-login.service.ts";
import { passwordChangedMail, resetMail, resetUrl } from "./password-reset-mail.ts";
import { createPasswordResetQueries } from "./password-reset.queries.ts";

export interface PasswordResetConfig extends TokenConfig, SecondFactorLoginConfig {
  bcryptCost: number;
  /** The web app's public origin: the links point at its /reset-password page. Default http://localhost:3000. */
  publicUrl?: string;
  /** Confirm attempts per client address per 15 minutes, as logins (AUTH_RATE_LIMIT_PER_15_MIN); 0 turns it off. */
  authRateLimit: number;
  /** Reset requests per client address per hour; 0 turns it off. Default 10. */
  resetRequestsPerHour?: number;
  /** Reset mails per account per hour; 0 turns it off. Default 3. */
  resetMailsPerHour?: number;
}

const LINK_MS = RESET_LINK_MINUTES * 60 * 1000;

/** Tokens are 256 random bits; only their sha256 is stored, so a copy of the database resets nothing. */
const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const invalidLink = () => badRequest(INVALID_RESET_LINK, [{ field: "token", message: INVALID_RESET_LINK }]);

/**
 * Password reset by username or email (docs/api.md "Password reset"): a mailed link with a single-use token valid for
 * an hour, which sets a new password and ends every other session of the account.
 */
export function createPasswordReset(
  db: Database,
  config: PasswordResetConfig,
  counters: AttemptCounters = memoryAttemptCounter,
  logger: Logger = pino({ level: "silent" }),
) {
  const queries = createPasswordResetQueries(db);
  const secondFactor = createSecondFactorLogin(db, config, counters);
  const publicUrl = (config.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, "");
  const counter = (prefix: string, points: number, seconds: number) => (points > 0 ? counters(prefix, points, seconds) : unlimitedAttempts);
  const requestsPerAddress = counter("reset-address", config.resetRequestsPerHour ?? DEFAULT_RESET_REQUESTS_PER_ADDRESS_PER_HOUR, 3600);
  const mailsPerAccount = counter("reset-mail", config.resetMailsPerHour ?? DEFAULT_RESET_MAILS_PER_ACCOUNT_PER_HOUR, 3600);
  const confirmsPerAddress = counter("reset-confirm-address", config.authRateLimit, 15 * 60);
  /** Requests whose account part has not finished (after their answer went). */
  const pending = new Set<Promise<void>>();

  /** The account part of a request: a new token and its mail, when the login names an account that may have one. */
  async function sendLink(login: string): Promise<void> {
    // Usernames cannot hold "@", so a login with one is an email address; both keys are the lower-cased text.
    const account = await queries.account(login.toLowerCase(), login.includes("@"));
    // Deleted accounts have no row; suspended ones get no link (they could not sign in with it).
    if (!account || isSuspended(account.suspendedUntil)) return;
    if ((await mailsPerAccount.take(`user:${account.id}`)) !== null) {
      logger.info({ userId: account.id }, "password reset mail not sent: the account's hourly limit is reached");
      return;
    }
    const token = randomBytes(32).toString("base64url");
    const now = nowMs();
    // Older tokens stay valid until they expire: mails can arrive out of order, and the hourly limit bounds them.
    await db.kysely.transaction().execute(async (trx) => {
      await queries.insertToken(trx, { tokenHash: hashOf(token), userId: account.id, expiresAt: now + LINK_MS, createdAt: now });
      await enqueueMail(trx, resetMail(account, resetUrl(publicUrl, token)));
    });
    wakeJobRunners(db);
  }

  return {
    /**
     * `202 {}` for every input. Only the client address's limit is checked before the answer; the account is looked up
     * after it is sent, so neither the answer nor its time tells whether one matched.
     */
    async requestReset(input: PasswordResetRequestInput, origin: { address: string }): Promise<Record<string, never>> {
      const wait = await requestsPerAddress.take(origin.address);
      if (wait !== null) throw new TooManyRequests("Too many password reset requests. Please try again later.", wait);
      const work = sendLink(input.login).catch((err: unknown) => logger.error({ err }, "password reset request failed"));
      pending.add(work);
      void work.finally(() => pending.delete(work));
      return {};
    },

    /**
     * The new password for a live token: every other token and session of the account ends; the caller is signed in, or,
     * when the account has TOTP on, gets the login's code step (a reset does not remove a second factor, nor pass it).
     */
    async confirmReset(
      input: PasswordResetConfirmInput,
      origin: { address: string },
    ): Promise<{ accessToken: string } | { secondFactorRequired: true; challenge: string }> {
      const wait = await confirmsPerAddress.take(origin.address);
      if (wait !== null) throw new TooManyRequests("Too many attempts. Please try again later.", wait);
      const tokenHash = hashOf(input.token);
      const now = nowMs();
      const live = await queries.liveToken(tokenHash, now);
      if (!live) throw invalidLink();
      // Suspended since the mail went: the suspension stands, and the token stays for after it (if still alive).
      if (isSuspended(live.suspendedUntil, now)) throw forbidden(ACCOUNT_SUSPENDED);
      const passwordHash = await bcrypt.hash(input.newPassword, config.bcryptCost);
      const user = await db.kysely.transaction().execute(async (trx) => {
        const taken = await queries.takeToken(trx, tokenHash, now);
        if (!taken) return undefined; // used by a confirm that raced this one
        await queries.dropTokensOf(trx, taken.userId);
        const changed = await queries.setPassword(trx, taken.userId, passwordHash);
        if (changed) await enqueueMail(trx, passwordChangedMail(changed, publicUrl));
        return changed;
      });
      if (!user) throw invalidLink();
      wakeJobRunners(db);
      await queries.dropExpired(now);
      // docs/api.md "Password reset": the mail proves the address, not the second factor.
      return (await secondFactor.challengeIfRequired(user.id)) ?? { accessToken: signAccessToken(user, config) };
    },

    /** Resolves once every request answered so far has done its account part (tests; a closing instance). */
    async settled(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}
