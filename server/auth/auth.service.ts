import bcrypt from "bcryptjs";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { badRequest, conflict, forbidden, HttpError } from "../http/errors.ts";
import { readDeviceToken, signAccessToken, signDeviceToken, type Caller, type TokenConfig } from "../http/auth.ts";
import type { LoginInput, PasswordChangeInput, RegisterInput } from "../rules/auth.ts";
import { createAuthQueries } from "./auth.queries.ts";
import type { AttemptCounters } from "../http/attempt-counter.ts";
import { createLoginThrottle, type LoginThrottleConfig } from "./login-throttle.ts";
import { isSuspended } from "../moderation/suspensions.service.ts";
import { ACCOUNT_SUSPENDED } from "../rules/bans.ts";
import { mayActAsUser } from "../rules/permissions.ts";
import type { Executor } from "../db/prepared.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { createSecondFactorLogin } from "../two-factor/second-factor-login.service.ts";
import type { TwoFactorConfig } from "../two-factor/totp.service.ts";

const WRONG_PASSWORD = "Current password is incorrect";

export interface AuthConfig extends TokenConfig, TwoFactorConfig {
  bcryptCost: number;
  /** Login and register attempts per client address per 15 minutes; 0 turns the limit off. */
  authRateLimit: number;
  /** Failed logins per account (or trusted device) per 15 minutes; 0 turns the limit off. Default 10. */
  loginFailureLimit?: number;
}

export interface SignedIn {
  accessToken: string;
  /** Sent back with later logins from this device (docs/decisions/008-sessions-and-login-throttling.md). */
  deviceToken: string;
}

/** Where a request came from, as the throttles see it. */
export interface Origin {
  address: string;
}

/**
 * `verifyOnRegister`: queues the new account's verification link in the transaction that makes it (docs/api.md
 * "Verified email addresses"); services.ts gives it.
 */
export function createAuthService(
  db: Database,
  config: AuthConfig,
  counters?: AttemptCounters,
  verifyOnRegister?: (trx: Executor, account: { id: number; username: string; email: string }) => Promise<void>,
) {
  const users = createAuthQueries(db);
  // Compared against when the username is unknown, so both failures take the same time.
  const dummyHash = bcrypt.hashSync("not-a-real-password", config.bcryptCost);
  const throttle = createLoginThrottle(
    {
      attemptsPerAddress: config.authRateLimit,
      failuresPerAccount: config.loginFailureLimit ?? 10,
    } satisfies LoginThrottleConfig,
    counters,
  );
  // The login's code step (docs/api.md "Second factors").
  const secondFactor = createSecondFactorLogin(db, config, counters);

  async function assertKeysFree(usernameKey: string, emailKey: string): Promise<void> {
    const taken = await users.takenKeys(usernameKey, emailKey);
    if (taken.username) throw conflict("Username is already taken");
    if (taken.email) throw conflict("Email is already registered");
  }

  /**
   * A signed-in caller confirming a change with their password (password and email changes). Throttled as
   * logins are: every try counts on the address, failures on the account's own bucket, so a stolen token
   * cannot be used to guess the password quickly. 400 with a field error when it is wrong.
   */
  async function confirmPassword(caller: Caller, password: string, origin: Origin, field = "currentPassword") {
    await throttle.countAttempt(origin.address);
    const bucket = `password:${caller.id}`;
    await throttle.assertMayTry(bucket);
    const user = await users.forPasswordCheck(caller.id);
    const ok = await bcrypt.compare(password, user?.passwordHash ?? dummyHash);
    if (!user || !ok) {
      await throttle.countFailure(bucket);
      throw badRequest(WRONG_PASSWORD, [{ field, message: WRONG_PASSWORD }]);
    }
    return user;
  }

  return {
    /** `field`: the body's field the error names (`password` for an account deletion). */
    confirmPassword: (caller: Caller, password: string, origin: Origin, field?: string) =>
      confirmPassword(caller, password, origin, field).then(() => undefined),

    /**
     * The user's own password only: every token of theirs signed so far stops working (on every instance: the
     * generation is in the database), and a new one for the caller comes back.
     */
    async changePassword(userId: number, caller: Caller, input: PasswordChangeInput, origin: Origin): Promise<{ accessToken: string }> {
      if (!mayActAsUser(caller, { id: userId })) throw forbidden("You can only change your own password");
      await confirmPassword(caller, input.currentPassword, origin);
      const passwordHash = await bcrypt.hash(input.newPassword, config.bcryptCost);
      const user = await users.setPassword(caller.id, passwordHash);
      if (!user) throw new HttpError(401, "Invalid token");
      return { accessToken: signAccessToken(user, config) };
    },

    /** "Log out everywhere": every token of the caller's, this one included, stops working. */
    async logoutEverywhere(caller: Caller): Promise<{ loggedOut: true }> {
      await users.bumpTokenGeneration(caller.id);
      return { loggedOut: true };
    },

    async register(input: RegisterInput, origin: Origin): Promise<SignedIn> {
      await throttle.countAttempt(origin.address);
      const usernameKey = input.username.toLowerCase();
      const emailKey = input.email.toLowerCase();
      await assertKeysFree(usernameKey, emailKey);
      const passwordHash = await bcrypt.hash(input.password, config.bcryptCost);
      try {
        // The account and its verification mail: one unit, the mail sent by the job runner after commit.
        const user = await db.kysely.transaction().execute(async (trx) => {
          const user = await users.insertUser(
            { username: input.username, usernameKey, email: input.email, emailKey, passwordHash, joinedAt: nowMs() },
            trx,
          );
          await verifyOnRegister?.(trx, user);
          return user;
        });
        if (verifyOnRegister) wakeJobRunners(db);
        return { accessToken: signAccessToken(user, config), deviceToken: signDeviceToken(user.id, config) };
      } catch (err) {
        // Two registrations racing for one name: the unique key decides, and the loser hears which name it lost.
        if (!isUniqueViolation(err)) throw err;
        await assertKeysFree(usernameKey, emailKey);
        throw conflict("Username or email already exists");
      }
    },

    async login(input: LoginInput, origin: Origin): Promise<SignedIn | { secondFactorRequired: true; challenge: string }> {
      await throttle.countAttempt(origin.address);
      const usernameKey = input.username.toLowerCase();
      const user = (await users.forSignIn(usernameKey)) ?? null;
      const device = readDeviceToken(input.deviceToken, config);
      const trusted = device !== null && user !== null && device.uid === user.id;
      // Failures count per account, or per device for a device that signed in to it before. Unknown
      // usernames count too, so a throttled answer tells nothing about which accounts exist.
      const bucket = trusted ? `device:${device.did}` : `account:${usernameKey}`;
      await throttle.assertMayTry(bucket);
      const ok = await bcrypt.compare(input.password, user?.passwordHash ?? dummyHash);
      if (!user || !ok) {
        await throttle.countFailure(bucket);
        throw new HttpError(401, "Invalid credentials");
      }
      if (trusted) await throttle.forgetFailures(bucket);
      // After the password check, so the answer tells nothing to someone without the password.
      if (isSuspended(user.suspendedUntil)) throw forbidden(ACCOUNT_SUSPENDED);
      // TOTP on: no token yet, a challenge for POST /auth/login/second-factor.
      const challenge = await secondFactor.challengeIfRequired(user.id);
      if (challenge) return challenge;
      return { accessToken: signAccessToken(user, config), deviceToken: trusted ? input.deviceToken! : signDeviceToken(user.id, config) };
    },

    /** POST /auth/login/second-factor: the challenge of a login with a code or a recovery code gives the token. */
    completeSecondFactor: secondFactor.complete,

    /** Ends the caller's token at once (docs/api.md §5): it is a 401 everywhere from now on. */
    async logout(caller: Caller): Promise<{ loggedOut: true }> {
      await users.revoke(caller.token.jti, caller.id, caller.token.exp * 1000);
      // Rows of tokens past their expiry are no longer needed: an expired token is refused anyway.
      await users.dropExpiredRevocations(nowMs());
      return { loggedOut: true };
    },

    /** Ends every session of the user (password change, suspension): their tokens signed so far stop working. */
    async endAllSessions(userId: number): Promise<void> {
      await users.bumpTokenGeneration(userId);
    },
  };
}
