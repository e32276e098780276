// Real PostgreSQL 15, Redis 7 and S3 (Swift) for tests, each on loopback ports and a temp folder (README.md here).
import { startPostgres, type RunningPostgres } from "./postgres.ts";
import { startRedis, type RunningRedis } from "./redis.ts";
import { startSwift, type RunningSwift, type S3Env } from "./swift.ts";

export { startPostgres, startRedis, startSwift };
export type { RunningPostgres, RunningRedis, RunningSwift, S3Env };
export { freePort, freePorts, isPortClosed } from "./ports.ts";

export interface RunningServices {
  postgres: RunningPostgres;
  redis: RunningRedis;
  s3: RunningSwift;
  /** DATABASE_URL, REDIS_URL and the S3_* settings: the environment of an API instance on these three. */
  env: RunningPostgres["env"] & RunningRedis["env"] & S3Env;
  stop(): Promise<void>;
}

/** Starts the three at once; if one fails, the others are stopped before the error is thrown. */
export async function startServices({ bucket = "inkwell" } = {}): Promise<RunningServices> {
  const starts = [startPostgres(), startRedis(), startSwift({ bucket })] as const;
  const [postgres, redis, s3] = await Promise.allSettled(starts);
  if (postgres.status === "rejected" || redis.status === "rejected" || s3.status === "rejected") {
    await Promise.all([postgres, redis, s3].flatMap((started) => (started.status === "fulfilled" ? [started.value.stop()] : [])));
    const failures = [postgres, redis, s3].flatMap((started) => (started.status === "rejected" ? [started.reason as unknown] : []));
    const messages = failures.map((failure) => (failure instanceof Error ? failure.message : String(failure)));
    throw new AggregateError(failures, `${failures.length} of 3 services did not start:\n${messages.join("\n")}`);
  }
  return {
    postgres: postgres.value,
    redis: redis.value,
    s3: s3.value,
    env: { ...postgres.value.env, ...redis.value.env, ...s3.value.env },
    stop: async () => {
      await Promise.all([postgres.value.stop(), redis.value.stop(), s3.value.stop()]);
    },
  };
}
