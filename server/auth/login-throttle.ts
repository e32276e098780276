import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { TooManyRequests } from "../http/errors.ts";

const WINDOW_SECONDS = 15 * 60;

/**
 * A count of attempts per key over a window. In memory for one API process; a Redis-backed one can stand
 * behind the same interface when several processes must share the counts.
 */
export interface AttemptCounter {
  /** Counts one attempt; answers null when it was allowed, else the seconds until the next one is. */
  take(key: string): Promise<number | null>;
  /** The seconds until the key may try again, or null when it may now; counts nothing. */
  blockedFor(key: string): Promise<number | null>;
  forget(key: string): Promise<void>;
}

function memoryAttemptCounter(prefix: string, points: number, durationSeconds = WINDOW_SECONDS): AttemptCounter {
  const limiter = new RateLimiterMemory({ keyPrefix: prefix, points, duration: durationSeconds });
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  return {
    async take(key) {
      try {
        await limiter.consume(key);
        return null;
      } catch (res) {
        if (res instanceof RateLimiterRes) return seconds(res.msBeforeNext);
        throw res;
      }
    },
    async blockedFor(key) {
      const res = await limiter.get(key);
      return res && res.consumedPoints >= points ? seconds(res.msBeforeNext) : null;
    },
    async forget(key) {
      await limiter.delete(key);
    },
  };
}

export interface LoginThrottleConfig {
  /** Sign-in and registration attempts per client address per 15 minutes; 0 turns it off. */
  attemptsPerAddress: number;
  /** Failed sign-ins per account (or per trusted device of it) per 15 minutes; 0 turns it off. */
  failuresPerAccount: number;
}

/**
 * Two throttles on guessing passwords (docs/decisions/008-sessions-and-login-throttling.md):
 * - per client address, every attempt counts: one machine cannot try many accounts;
 * - per account, failures count: many machines cannot try one account. While an account is throttled,
 *   a device that signed in to it before (its device token) may still try, on a count of its own, so an
 *   attacker slows the guesses without locking the owner out.
 */
export function createLoginThrottle(config: LoginThrottleConfig) {
  const off: AttemptCounter = {
    take: () => Promise.resolve(null),
    blockedFor: () => Promise.resolve(null),
    forget: () => Promise.resolve(),
  };
  const perAddress = config.attemptsPerAddress > 0 ? memoryAttemptCounter("auth-address", config.attemptsPerAddress) : off;
  const failures = config.failuresPerAccount > 0 ? memoryAttemptCounter("auth-failures", config.failuresPerAccount) : off;

  return {
    /** Counts an attempt from this address; throws 429 when its attempts are used up. */
    async countAttempt(address: string): Promise<void> {
      const wait = await perAddress.take(address);
      if (wait !== null) throw new TooManyRequests("Too many attempts. Please try again later.", wait);
    },

    /** Throws 429 while this account (or this trusted device of it) has used up its failed sign-ins. */
    async assertMayTry(bucket: string): Promise<void> {
      const wait = await failures.blockedFor(bucket);
      if (wait !== null) throw new TooManyRequests("Too many failed sign-ins for this account. Please try again later.", wait);
    },

    countFailure: async (bucket: string) => void (await failures.take(bucket)),
    forgetFailures: (bucket: string) => failures.forget(bucket),
  };
}
