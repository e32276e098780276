import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * A count of attempts per key over a window (sign-ins, uploads). In memory for one API process, in Redis
 * when several instances must share the counts (server/shared-state.ts).
 */
export interface AttemptCounter {
  /** Counts one attempt; answers null when it was allowed, else the seconds until the next one is. */
  take(key: string): Promise<number | null>;
  /** The seconds until the key may try again, or null when it may now; counts nothing. */
  blockedFor(key: string): Promise<number | null>;
  forget(key: string): Promise<void>;
}

/** Makes the counters of one kind of attempt: in memory, or shared by every instance (server/shared-state.ts). */
export type AttemptCounters = (prefix: string, points: number, durationSeconds: number) => AttemptCounter;

/** `points` attempts per key every `durationSeconds` in this process's memory; `prefix` keeps counters of different things apart. */
export function memoryAttemptCounter(prefix: string, points: number, durationSeconds: number): AttemptCounter {
  return limiterCounter(new RateLimiterMemory({ keyPrefix: prefix, points, duration: durationSeconds }), points);
}

/** An AttemptCounter on a rate-limiter-flexible limiter (in memory, or in Redis: server/shared-state.ts). */
export function limiterCounter(limiter: RateLimiterAbstract, points: number): AttemptCounter {
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

/** A counter that allows everything: a limit of 0 turns it off. */
export const unlimitedAttempts: AttemptCounter = {
  take: () => Promise.resolve(null),
  blockedFor: () => Promise.resolve(null),
  forget: () => Promise.resolve(),
};
