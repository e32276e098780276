import cors from "cors";
import express from "express";
import helmet from "helmet";
import { sql } from "kysely";
import { pino, type Logger } from "pino";
import { pinoHttp } from "pino-http";
import { authEndpoints } from "./auth/auth.router.ts";
import { passwordResetEndpoints } from "./auth/password-reset.router.ts";
import { emailVerificationEndpoints } from "./auth/email-verification.router.ts";
import { twoFactorEndpoints } from "./two-factor/two-factor.router.ts";
import { blockEndpoints } from "./blocks/blocks.router.ts";
import { progressEndpoints } from "./progress/progress.router.ts";
import { chapterEndpoints } from "./chapters/chapters.router.ts";
import { commentEndpoints } from "./comments/comments.router.ts";
import type { Database } from "./db/database.ts";
import { deletionEndpoints } from "./deletion/deletion.router.ts";
import { feedEndpoints } from "./feed/feed.router.ts";
import { sitemapEndpoints } from "./sitemap/sitemap.router.ts";
import { memoryAttemptCounter, type AttemptCounters } from "./http/attempt-counter.ts";
import { writeLimits, type WriteLimitConfig } from "./http/user-rate-limit.ts";
import { readBearerToken } from "./http/auth.ts";
import { mountEndpoints, type AnyEndpoint } from "./http/endpoint.ts";
import { errorHandler, malformedPath, unknownRoute } from "./http/errors.ts";
import { dataVersionEndpoint } from "./http/data-version.ts";
import { createResponseCache, type ResponseCache } from "./http/response-cache.ts";
import { buildOpenApi } from "./http/openapi.ts";
import { hubEndpoints } from "./hubs/hubs.router.ts";
import { moderatorEndpoints } from "./hubs/moderators.router.ts";
import { banEndpoints } from "./moderation/bans.router.ts";
import { modLogEndpoints } from "./moderation/modlog.router.ts";
import { suspensionEndpoints } from "./moderation/suspensions.router.ts";
import { imageEndpoints } from "./images/images.router.ts";
import { createMailTransport, DEFAULT_PUBLIC_URL } from "./mail/transport.ts";
import { createJobRunner, type JobRunner, type JobRunnerOptions } from "./jobs/job-runner.ts";
import { unsubscribeSecret } from "./mail/unsubscribe.ts";
import { removalEndpoints } from "./moderation/removal.router.ts";
import { notificationEndpoints } from "./notifications/notifications.router.ts";
import { emailPreferenceEndpoints } from "./notifications/email-preferences.router.ts";
import { createNotificationMail } from "./notifications/notification-mail.ts";
import { passkeyEndpoints } from "./passkeys/passkeys.router.ts";
import { postEndpoints } from "./posts/posts.router.ts";
import { reportEndpoints } from "./reports/reports.router.ts";
import { seriesEndpoints } from "./series/series.router.ts";
import { createServices, imageStorage, type ServiceConfig, type Services } from "./services.ts";
import { memorySharedState, type SharedState } from "./shared-state.ts";
import { userEndpoints } from "./users/users.router.ts";
import { viewerEndpoints } from "./viewer/viewer.router.ts";

export interface AppConfig extends ServiceConfig {
  uploadMaxBytes: number;
  /** Image uploads per user per hour (0: no limit); default 600. */
  uploadRatePerHour?: number;
  /** New comments per user per minute (0: no limit); default 10. */
  commentRatePerMinute?: number;
  /** Reports per user per hour (0: no limit); default 30. */
  reportRatePerHour?: number;
  /** Data exports per account per hour (0: no limit); default 3. */
  exportRatePerHour?: number;
  /** New posts per user per hour (0: no limit); default 30. */
  postRatePerHour?: number;
  /** Edits of comments and posts per user per hour (0: no limit); default 120. */
  editRatePerHour?: number;
  /** New chapters per user per hour (0: no limit); default 60. */
  chapterRatePerHour?: number;
  authRateLimit: number;
  /**
   * Express "trust proxy": whose X-Forwarded-For names the real client. Default "loopback": the web
   * app calls the API from the same host for every visitor, and the login rate limit must count
   * visitors, not the web server.
   */
  trustProxy?: boolean | number | string;
  /** Anonymous GET answers kept until the next write (0 turns the cache off); default 2000. */
  responseCacheEntries?: number;
  /** Bytes of kept answers at most; default 32 MB. */
  responseCacheBytes?: number;
}

export interface AppDeps {
  db: Database;
  config: AppConfig;
  logger?: Logger;
  /** What instances share (rate limits, the data version): this process's memory unless given (server/shared-state.ts). */
  shared?: SharedState;
  /** The job runner's timings (tests); it starts with the app: stop it with `stopJobRunner(app)` before closing the database. */
  jobs?: JobRunnerOptions;
}

const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

function withoutCredentials(headers: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADERS.includes(name) ? "[redacted]" : value]),
  );
}

export function allEndpoints(
  config: Pick<AppConfig, "uploadMaxBytes" | "uploadRatePerHour" | "commentRatePerMinute" | "reportRatePerHour" | "exportRatePerHour"> &
    WriteLimitConfig,
  cache: ResponseCache = createResponseCache({ maxEntries: 0 }),
  counters: AttemptCounters = memoryAttemptCounter,
): AnyEndpoint<Services>[] {
  const limits = writeLimits(config, counters);
  return [
    dataVersionEndpoint(cache),
    ...authEndpoints,
    ...passwordResetEndpoints,
    ...emailVerificationEndpoints,
    ...twoFactorEndpoints,
    ...passkeyEndpoints,
    ...userEndpoints(config, counters),
    ...hubEndpoints,
    // Before the post routes: /hubs/{name}/moderators beside /hubs/{hubName}/{postId}.
    ...moderatorEndpoints,
    ...banEndpoints,
    ...modLogEndpoints,
    ...suspensionEndpoints,
    ...postEndpoints(limits),
    ...seriesEndpoints,
    ...chapterEndpoints(limits),
    // After the post and chapter routes: /hubs/{hubName}/{postId}/comments beside /hubs/{name}/posts/latest and the like paths.
    ...commentEndpoints(config, counters, limits),
    ...imageEndpoints(config, counters),
    ...notificationEndpoints,
    ...emailPreferenceEndpoints,
    ...feedEndpoints,
    ...sitemapEndpoints,
    ...reportEndpoints(config, counters),
    ...blockEndpoints,
    ...progressEndpoints,
    ...viewerEndpoints,
    ...deletionEndpoints,
    ...removalEndpoints,
  ];
}

export function createApp({ db, config, logger = pino({ level: "silent" }), shared = memorySharedState(db), jobs }: AppDeps) {
  const services = createServices(db, config, shared.attemptCounter, shared.dataVersion, logger);
  const responseCache = createResponseCache({
    maxEntries: config.responseCacheEntries ?? 2000,
    maxBytes: config.responseCacheBytes,
    versions: shared.dataVersion,
  });
  const endpoints = allEndpoints(config, responseCache, shared.attemptCounter);
  const openApi = buildOpenApi(endpoints, { version: "1.0.0" });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy ?? "loopback");
  // Access logs are written at "info"; below that level the per-request logger is not mounted at all
  // (it costs ~10% of a cached read even when it writes nothing). Errors are logged either way.
  if (logger.isLevelEnabled("info")) {
    app.use(
      pinoHttp({
        logger,
        autoLogging: { ignore: (req) => req.url === "/health" },
        // A logged bearer token or session cookie is a stolen session for whoever reads the logs.
        serializers: { req: (req: { headers?: Record<string, unknown> }) => ({ ...req, headers: withoutCredentials(req.headers) }) },
      }),
    );
  }
  // A guest's read answered from the response cache before is answered again here, with the same headers and bytes,
  // before Helmet, CORS, the token check, routing and validation run (docs/api.md "The response cache").
  responseCache.answerImagesFrom((key, version) => services.images.keptPublic(key, version));
  app.use(async (req, res, next) => {
    if (!(await responseCache.answerEarly(req, res))) next();
  });
  // Images are embedded by the web app on another port, and the API serves any client.
  app.use(helmet({ crossOriginResourcePolicy: { policy: "cross-origin" } }));
  app.use(cors({ exposedHeaders: ["Content-Length"], maxAge: 600 }));
  app.locals.responseCache = responseCache;
  // One job runner per instance (docs/decisions/017-discussion.md); it also stops by itself once the database is closed.
  // Kept signed-in pages show unread counts: a finished notification job moves the data version as a write does.
  const onNotified = () => responseCache.dataChanged();
  // Mail goes out through the job runner after the commit of what caused it (docs/api.md "Mail").
  const mail = createMailTransport(config, logger);
  // Any instance can run a day's digests (docs/api.md "Digests"); server/main.ts also has it make each day's run.
  const digestMail = { publicUrl: config.publicUrl ?? DEFAULT_PUBLIC_URL, unsubscribeSecret: unsubscribeSecret(config.jwtSecret) };
  // The chapter job's batches queue the followers' instant mail (docs/api.md "Notification mail").
  const notificationMail = createNotificationMail(config);
  const jobRunner = createJobRunner(db, {
    logger,
    imageStorage: imageStorage(config),
    onNotified,
    mail,
    digestMail,
    notificationMail,
    ...jobs,
  });
  app.locals.jobRunner = jobRunner;
  app.locals.answeredWork = () => services.passwordReset.settled();
  jobRunner.start();
  // Bodies are read per endpoint (only those that take one) and cached answers are served after the
  // route's validation, both in mountEndpoints: so a bad token is a 401 even where a cached answer exists (the early
  // answer above never takes a request with a token).
  app.use(malformedPath);
  app.use(readBearerToken(db, config));

  app.get("/health", async (_req, res) => {
    await sql`SELECT 1`.execute(db.kysely);
    res.json({ status: "ok", database: "ok" });
  });
  app.get("/openapi.json", (_req, res) => res.json(openApi));

  const router = express.Router();
  mountEndpoints(router, endpoints, services, responseCache);
  app.use(router);

  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return app;
}

/** Stops the app's job runner, waiting for its batch in progress and for work left by answered requests (before the database closes). */
export async function stopJobRunner(app: ReturnType<typeof createApp>): Promise<void> {
  await answeredWorkSettled(app);
  return (app.locals.jobRunner as JobRunner).stop();
}

/** Resolves once what requests left to do after their answer is done (a password reset request's account part). */
export function answeredWorkSettled(app: ReturnType<typeof createApp>): Promise<void> {
  return (app.locals.answeredWork as () => Promise<void>)();
}
