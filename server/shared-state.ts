import { randomUUID } from "node:crypto";
import type { Database } from "./db/database.ts";
import { watchCommitsElsewhere } from "./db/commits-elsewhere.ts";
import { Redis } from "ioredis";
import { RateLimiterRedis } from "rate-limiter-flexible";
import { limiterCounter, memoryAttemptCounter, type AttemptCounters } from "./http/attempt-counter.ts";
import { sharedRead } from "../common/shared-read.ts";

/**
 * What API instances must agree on besides the database: attempt counts (rate limits, login throttles)
 * and the data version that invalidates cached answers. In this process's memory by default; in Redis
 * when REDIS_URL is set, so that several instances count together and a write on one invalidates the
 * caches of all (docs/decisions/015-shared-state.md).
 */
export interface SharedState {
  kind: "memory" | "redis";
  /** `points` attempts per key every `durationSeconds`; `prefix` keeps counters of different things apart. */
  attemptCounter: AttemptCounters;
  /** The data version: every committed write moves it, nothing else does. */
  dataVersion: DataVersionStore;
  close(): Promise<void>;
}

export interface DataVersionStore {
  /** The version now, e.g. `3f2a91c0.42`; the part before the dot changes when the store starts afresh. */
  current(): Promise<string>;
  /** Moves the version on and answers the new one. */
  bump(): Promise<string>;
  /**
   * The version now as one user sees it: `current()` and a counter of that user's own writes that move no kept
   * answer (reading progress), e.g. `3f2a91c0.42.7`. Kept rendered pages of that user check it.
   */
  currentFor(userId: number): Promise<string>;
  /** Moves that user's own counter on. */
  bumpFor(userId: number): Promise<void>;
}

/** `db`: the API's database, whose commits by other processes move the memory store's version (SQLite). */
export function createSharedState(redisUrl?: string, db?: Database): SharedState {
  return redisUrl ? redisSharedState(redisUrl) : memorySharedState(db, { listen: true });
}

/**
 * The shared state in this process's memory. Given the API's database, the data version also moves when another
 * process commits to it (the admin command), at the next read of the version: on SQLite by the file's own counter, on
 * PostgreSQL by the writer's announcement (server/db/commits-elsewhere.ts), heard when `listen` is set (a connection of
 * its own, closed by close()).
 */
export function memorySharedState(db?: Database, { listen = false } = {}): SharedState {
  // Tells one run from the next: the counter starts again at 0 on every start.
  const epoch = randomUUID().slice(0, 8);
  let version = 0;
  const own = new Map<number, number>();
  const elsewhere = db ? watchCommitsElsewhere(db, { listen }) : undefined;
  let lastMark = elsewhere?.mark();
  // The mark is read at most once per turn of the event loop (docs/decisions/030-cached-reads-before-routing.md): the
  // requests handled in one turn share the look, and the first version read of the next turn looks again.
  let looked = false;
  const forget = () => {
    looked = false;
  };
  /** The version, moved on first if another process committed since the last look. */
  const now = () => {
    if (elsewhere && !looked) {
      looked = true;
      setImmediate(forget);
      const mark = elsewhere.mark();
      if (mark !== lastMark) {
        lastMark = mark;
        version++;
      }
    }
    return version;
  };
  // The answer of current(), made again only when the version moved: most reads are of an unchanged version.
  let answered = { version: -1, answer: Promise.resolve("") };
  const current = () => {
    const v = now();
    if (answered.version !== v) answered = { version: v, answer: Promise.resolve(`${epoch}.${v}`) };
    return answered.answer;
  };
  return {
    kind: "memory",
    attemptCounter: memoryAttemptCounter,
    dataVersion: {
      current,
      bump: () => {
        now();
        return Promise.resolve(`${epoch}.${++version}`);
      },
      currentFor: (userId) => Promise.resolve(`${epoch}.${now()}.${own.get(userId) ?? 0}`),
      bumpFor: (userId) => {
        own.set(userId, (own.get(userId) ?? 0) + 1);
        return Promise.resolve();
      },
    },
    close: () => elsewhere?.close() ?? Promise.resolve(),
  };
}

// One round trip for both: the epoch is made once per Redis data set (a flushed or new Redis gets a new one, so
// a version number seen before cannot come back meaning something else), the counter read or moved on.
const READ_OR_MAKE_EPOCH = `
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  redis.call('SET', KEYS[1], ARGV[1], 'NX')
  epoch = redis.call('GET', KEYS[1])
end`;

const VERSION_SCRIPT = `${READ_OR_MAKE_EPOCH}
local n
if ARGV[2] == '1' then n = redis.call('INCR', KEYS[2]) else n = redis.call('GET', KEYS[2]) or '0' end
return epoch .. '.' .. n`;

// The same, read only, with a user's own counter (KEYS[3]) appended.
const VERSION_FOR_SCRIPT = `${READ_OR_MAKE_EPOCH}
return epoch .. '.' .. (redis.call('GET', KEYS[2]) or '0') .. '.' .. (redis.call('GET', KEYS[3]) or '0')`;

type VersionRedis = Redis & {
  dataVersion(epochKey: string, counterKey: string, newEpoch: string, bump: "0" | "1"): Promise<string>;
  dataVersionFor(epochKey: string, counterKey: string, ownKey: string, newEpoch: string): Promise<string>;
};

/** `keyPrefix` keeps several sites (or test runs) on one Redis apart. */
export function redisSharedState(url: string, { keyPrefix = "inkwell:" } = {}): SharedState {
  // Commands wait while Redis is away (reconnecting) rather than failing at once; each still ends within the timeout.
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, commandTimeout: 2000 }) as VersionRedis;
  // Without a listener, a lost connection would be an unhandled 'error' event; the commands themselves fail.
  redis.on("error", () => {});
  redis.defineCommand("dataVersion", { numberOfKeys: 2, lua: VERSION_SCRIPT });
  redis.defineCommand("dataVersionFor", { numberOfKeys: 3, lua: VERSION_FOR_SCRIPT });
  const ownKey = (userId: number) => `${keyPrefix}data-version:user:${userId}`;
  const version = (bump: "0" | "1") =>
    redis.dataVersion(`${keyPrefix}data-epoch`, `${keyPrefix}data-version`, randomUUID().slice(0, 8), bump);
  // Every cached read asks for the version: the requests that arrive together share one round trip.
  const current = sharedRead(() => version("0"));
  return {
    kind: "redis",
    attemptCounter: (prefix, points, durationSeconds) =>
      limiterCounter(
        new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}${prefix}`, points, duration: durationSeconds }),
        points,
      ),
    dataVersion: {
      current,
      bump: () => version("1"),
      currentFor: (userId) =>
        redis.dataVersionFor(`${keyPrefix}data-epoch`, `${keyPrefix}data-version`, ownKey(userId), randomUUID().slice(0, 8)),
      bumpFor: async (userId) => {
        await redis.incr(ownKey(userId));
      },
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
