import { memoryAttemptCounter, unlimitedAttempts, type AttemptCounters } from "../http/attempt-counter.ts";
import { TooManyRequests } from "../http/errors.ts";

const WINDOW_SECONDS = 15 * 60;

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
export function createLoginThrottle(config: LoginThrottleConfig, counters: AttemptCounters = memoryAttemptCounter) {
  const perAddress =
    config.attemptsPerAddress > 0 ? counters("auth-address", config.attemptsPerAddress, WINDOW_SECONDS) : unlimitedAttempts;
  const failures = config.failuresPerAccount > 0 ? counters("auth-failures", config.failuresPerAccount, WINDOW_SECONDS) : unlimitedAttempts;

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
