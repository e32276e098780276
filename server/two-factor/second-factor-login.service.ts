import { randomBytes } from "node:crypto";
import type { AttemptCounters } from "../http/attempt-counter.ts";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { readDeviceToken, signAccessToken, signDeviceToken, type TokenConfig } from "../http/auth.ts";
import { badRequest, forbidden } from "../http/errors.ts";
import { createLoginThrottle } from "../auth/login-throttle.ts";
import { isSuspended } from "../moderation/suspensions.service.ts";
import { ACCOUNT_SUSPENDED } from "../rules/bans.ts";
import { CHALLENGE_EXPIRED, CHALLENGE_TTL_MS, WRONG_CODE, WRONG_RECOVERY_CODE, type SecondFactorLoginInput } from "../rules/two-factor.ts";
import { recoveryCodeHash, sha256, stepOfCode } from "./totp.ts";
import type { TwoFactorConfig } from "./totp.service.ts";
import { createTwoFactorQueries } from "./two-factor.queries.ts";

export interface SecondFactorLoginConfig extends TokenConfig, TwoFactorConfig {
  /** Attempts per client address per 15 minutes (AUTH_RATE_LIMIT_PER_15_MIN); 0 turns it off. */
  authRateLimit: number;
  /** Wrong codes per account per 15 minutes (LOGIN_FAILURES_PER_ACCOUNT_PER_15_MIN); 0 turns it off. Default 10. */
  loginFailureLimit?: number;
}

const expired = () => badRequest(CHALLENGE_EXPIRED, [{ field: "challenge", message: CHALLENGE_EXPIRED }]);

/**
 * The login's code step (docs/api.md "Second factors"): the right password of an account with TOTP on gives a
 * challenge instead of a token; the challenge with a code (or a recovery code) gives the token. A challenge lives 5
 * minutes, works once and dies after 5 wrong codes; wrong codes also count per account as failed sign-ins do, and
 * every attempt on the client address, so guessing codes needs the password again and again, slowly.
 */
export function createSecondFactorLogin(db: Database, config: SecondFactorLoginConfig, counters?: AttemptCounters) {
  const q = createTwoFactorQueries(db);
  const now = config.clock ?? nowMs;
  const throttle = createLoginThrottle(
    { attemptsPerAddress: config.authRateLimit, failuresPerAccount: config.loginFailureLimit ?? 10 },
    counters,
  );

  return {
    /** After the right password: a challenge when the account has TOTP on, else null (signed in as before). */
    async challengeIfRequired(userId: number): Promise<{ secondFactorRequired: true; challenge: string } | null> {
      if (!(await q.totpOn(userId))) return null;
      const challenge = randomBytes(32).toString("base64url");
      const at = now();
      await q.createChallenge(sha256(challenge), userId, at + CHALLENGE_TTL_MS, at);
      return { secondFactorRequired: true, challenge };
    },

    complete: async (input: SecondFactorLoginInput, origin: { address: string }): Promise<{ accessToken: string; deviceToken: string }> => {
      await throttle.countAttempt(origin.address);
      const idHash = sha256(input.challenge);
      const live = await q.liveChallenge(idHash, now());
      if (!live) throw expired();
      const bucket = `second-factor:${live.userId}`;
      await throttle.assertMayTry(bucket);
      const [user, totp] = await Promise.all([q.signInUser(live.userId), q.totp(live.userId)]);
      // TOTP turned off since the password was checked: this sign-in starts again.
      if (!user || !totp || totp.confirmedAt === null) throw expired();
      const at = now();
      const step = input.code === undefined ? null : stepOfCode(totp.secret, input.code, at);
      const outcome = await db.kysely.transaction().execute(async (trx) => {
        const factorOk =
          input.code !== undefined
            ? step !== null && (await q.useStep(trx, user.id, step))
            : await q.useRecoveryCode(trx, user.id, recoveryCodeHash(input.recoveryCode!));
        if (!factorOk) return "wrong" as const;
        // Used once: a second request with the same challenge finds it gone (and this one's code is given back).
        if (!(await q.takeChallenge(trx, idHash, at))) throw expired();
        return "ok" as const;
      });
      if (outcome === "wrong") {
        await q.countWrongCode(idHash);
        await throttle.countFailure(bucket);
        const [field, message] = input.code !== undefined ? ["code", WRONG_CODE] : ["recoveryCode", WRONG_RECOVERY_CODE];
        throw badRequest(message, [{ field, message }]);
      }
      if (isSuspended(user.suspendedUntil)) throw forbidden(ACCOUNT_SUSPENDED);
      const device = readDeviceToken(input.deviceToken, config);
      const deviceToken = device !== null && device.uid === user.id ? input.deviceToken! : signDeviceToken(user.id, config);
      return { accessToken: signAccessToken(user, config), deviceToken };
    },
  };
}
