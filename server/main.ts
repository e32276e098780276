import { pino } from "pino";
import { createApp, stopJobRunner } from "./app.ts";
import { exitWithConfigProblems } from "../common/config-problems.ts";
import { checkApiSettings, loadConfig } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { answerClientErrors } from "./http/client-errors.ts";
import { gracefulClose } from "../common/graceful-close.ts";
import { scheduleBucketTidy, tidyImages } from "./images/image-tidy.ts";
import { ensureBucket } from "./images/s3-storage.ts";
import { createSharedState } from "./shared-state.ts";

/** Starts the API: migrates the database, listens on API_PORT, shuts down cleanly on SIGINT/SIGTERM. */
export async function startApi(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(env);
  const logger = pino({ level: config.logLevel });
  await migrateDatabase(config.dataDir, config.databaseUrl);
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  // A bucket is made at the first start; its tidy (uploads a crash cut) runs in the background, now and hourly.
  if (config.s3) await ensureBucket(config.s3);
  else await tidyImages(db, config.dataDir);
  const stopBucketTidy = config.s3
    ? scheduleBucketTidy(db, config.s3, (err) => logger.error({ err }, "bucket tidy failed"))
    : () => Promise.resolve();
  const shared = createSharedState(config.redisUrl, db);
  // Each day's digest run is made by whichever instance's runner sees its hour first (docs/api.md "Digests").
  const app = createApp({ db, config, logger, shared, jobs: { scheduleDigests: true } });
  const server = app.listen(config.port);
  answerClientErrors(server);
  const closeServer = gracefulClose(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  server.keepAliveTimeout = 65_000;
  logger.info(`API listening on http://localhost:${config.port}`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let in-flight requests finish, then close the database.
      await closeServer();
      await stopJobRunner(app);
      await stopBucketTidy();
      await db.close();
      await shared.close();
    })());
  // `app`: the web app in the same process calls it in memory (scripts/start.ts, web/api-in-process.ts).
  return { config, server, close, port: config.port, app };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkApiSettings(process.env);
  if (problems.length > 0) exitWithConfigProblems("The API", problems);
  const api = await startApi();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void api.close().then(() => process.exit(0)));
  }
}
