import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { gracefulClose } from "../common/graceful-close.ts";
import { matureAcknowledged } from "../app/lib/mature.server.ts";
import { isPrefetch } from "../app/lib/progress.server.ts";
import { storedReader } from "../app/lib/reader.server.ts";
import { readSessionCookie } from "../app/lib/session.server.ts";
import { bodyLimit, bodyLimitFor, isRefusedBody } from "./body-limit.ts";
import { createPageCache, sentAsStored } from "./page-cache.ts";
import { requestChecks } from "./request-checks.ts";
import { checkWebSettings, loadWebConfig, type WebConfig } from "../app/lib/config.server.ts";
import { inProcessApi, inProcessPages, type ExpressApp } from "./api-in-process.ts";
import { exitWithConfigProblems } from "../common/config-problems.ts";
import type { WebContext } from "../app/lib/context.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const BUILD_ENTRY = `${root}build/server/index.js`;
const CLIENT_DIR = `${root}build/client`;
/**
 * zlib's level for rendered pages (docs/web.md "What a page costs"): levels 1–3 are zlib's fast strategy, 4–9 its lazy
 * one. On the large set's pages level 3 takes a third of level 6's CPU (0.16–0.19 against 0.41–0.59 ms a page) for
 * 6–8 % more bytes (~0.7 KB of 10 KB).
 */
const PAGE_GZIP_LEVEL = 3;
/** A signed-in visitor's kept page is rendered again after this long even if nothing changed (relative times). */
const SIGNED_IN_PAGE_MAX_AGE_MS = 60_000;

export interface StartWebOptions {
  /** Serve app/ through Vite in middleware mode with hot reload (npm run dev) instead of build/. */
  vite?: boolean;
  /**
   * The API's Express app, when it runs in this process (scripts/start.ts): the API calls of pages are
   * dispatched into it in memory instead of over HTTP to API_URL (docs/web.md §1).
   */
  api?: ExpressApp;
}

/**
 * The web app's Express host: compression, static assets, /health, and Remix for everything else.
 * Production serves the built app (`remix vite:build`).
 */
export async function startWeb(env: NodeJS.ProcessEnv = process.env, options: StartWebOptions = {}) {
  const config = loadWebConfig(env);
  const apiTransport = options.api ? inProcessApi(options.api) : undefined;
  // A page's own transport: its calls share one check of the viewer's token (web/api-in-process.ts).
  const pageTransport = options.api ? inProcessPages(options.api) : undefined;
  const app = express();
  app.disable("x-powered-by");
  // req.ip is the visitor's address (behind a proxy: from its X-Forwarded-For); the API gets it forwarded.
  app.set("trust proxy", config.trustProxy);
  // A bad Host, or a form post from another site, is refused before its body is read (docs/web.md §10).
  app.use(requestChecks());
  app.use(bodyLimit((path) => bodyLimitFor(path, config)));
  // A page from the page cache is sent as stored, gzipped once when it was kept (docs/web.md §10).
  const filter: compression.CompressionFilter = (req, res) => !sentAsStored(res) && compression.filter(req, res);
  // A rendered page is gzipped at every view: at PAGE_GZIP_LEVEL; the hashed assets, fetched once a browser, at zlib's default.
  const pageGzip = compression({ filter, level: PAGE_GZIP_LEVEL });
  const fileGzip = compression({ filter });
  app.use((req, res, next) => (req.path.startsWith("/assets/") ? fileGzip : pageGzip)(req, res, next));
  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });

  let build: ServerBuild | (() => Promise<ServerBuild>);
  let closeVite = async () => {};
  if (options.vite) {
    const vite = await import("vite").then((v) => v.createServer({ root, server: { middlewareMode: true } }));
    closeVite = () => vite.close();
    app.use(vite.middlewares);
    build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  } else {
    if (!fs.existsSync(BUILD_ENTRY)) throw new Error(`No built web app at ${BUILD_ENTRY}: run "npm run build" first.`);
    build = (await import(BUILD_ENTRY)) as ServerBuild;
    app.use(securityHeaders(config));
    // Hashed file names never change: cache them for a year. Anything else briefly.
    app.use("/assets", express.static(`${CLIENT_DIR}/assets`, { immutable: true, maxAge: "1y", fallthrough: false }));
    // The few other files (the favicon, the share image) are known at start: a page's path is not looked up on disk.
    const clientFiles = new Set(
      fs
        .readdirSync(CLIENT_DIR, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => `/${path.relative(CLIENT_DIR, path.join(e.parentPath, e.name))}`),
    );
    const staticFiles = express.static(CLIENT_DIR, { maxAge: "1h", index: false });
    app.use((req, res, next) => (clientFiles.has(req.path) ? staticFiles(req, res, next) : next()));
    if (config.pageCacheEntries > 0) {
      app.use(
        createPageCache({
          build,
          apiUrl: config.apiUrl,
          apiTransport,
          loadContext: (nonce, req): WebContext => ({
            config,
            nonce,
            clientAddress: req.ip,
            perRequest: new Map(),
            apiTransport: pageTransport?.(),
          }),
          // The page cache's key reads the request with the app's own functions (docs/web.md §10, "Page cache").
          sessionOf: (request) => readSessionCookie(request.headers.get("Cookie"), { config, nonce: "" }),
          varyOf: async (request) => {
            const context = { config, nonce: "" };
            return [await storedReader(request, context), await matureAcknowledged(request, context), isPrefetch(request)];
          },
          signedInMaxAgeMs: SIGNED_IN_PAGE_MAX_AGE_MS,
          maxEntries: config.pageCacheEntries,
          timeoutMs: config.apiTimeoutMs,
        }).middleware,
      );
    }
  }

  const remix = createRequestHandler({
    build,
    mode: options.vite ? "development" : "production",
    getLoadContext: (req, res): WebContext => ({
      config,
      nonce: String(res.locals.nonce ?? ""),
      clientAddress: req.ip,
      perRequest: new Map(),
      apiTransport: pageTransport?.(),
    }),
  });
  // After a 413 from the body limit, Remix fails to read the body and then to answer: expected,
  // and passing it on would make Express close the connection before the client reads the 413.
  app.all("/{*splat}", (req, res, next) => remix(req, res, (err?: unknown) => (isRefusedBody(res) ? undefined : next(err))));

  const server: Server = app.listen(config.port);
  const closeServer = gracefulClose(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let in-flight requests finish.
      await closeServer();
      await closeVite();
    })());
  /** How the pages reach the API, for the start log. */
  const apiCalls = apiTransport ? "in process (no HTTP)" : `over HTTP to ${config.apiUrl}`;
  return { server, close, port, config, apiCalls };
}

/**
 * Helmet's headers with a real Content-Security-Policy: scripts only from this origin or carrying
 * this response's nonce; images also from the API origin (docs/web.md §10).
 */
function securityHeaders(config: WebConfig): express.RequestHandler {
  const apiOrigin = new URL(config.publicApiUrl).origin;
  const imageOrigin = new URL(config.imagePublicUrl).origin;
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.nonce}'`],
        // blob: the publish forms preview a chosen file before it is uploaded.
        "img-src": [...new Set(["'self'", "data:", "blob:", apiOrigin, imageOrigin])],
        "style-src": ["'self'", "'unsafe-inline'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "upgrade-insecure-requests": config.secureCookies ? [] : null,
      },
    },
    // Images come from the API origin.
    crossOriginEmbedderPolicy: false,
    // Helmet's "no-referrer" makes browsers send "Origin: null" on form posts, which Remix's
    // CSRF check rejects. Same-origin requests keep their referrer; links out send nothing.
    referrerPolicy: { policy: "same-origin" },
    strictTransportSecurity: config.secureCookies,
  });
  return (req, res, next) => {
    res.locals.nonce = crypto.randomBytes(16).toString("base64");
    headers(req, res, next);
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkWebSettings(process.env);
  if (problems.length > 0) exitWithConfigProblems("The web app", problems);
  const web = await startWeb();
  console.log(`Web app listening on http://localhost:${web.port}; API calls ${web.apiCalls}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void web.close().then(() => process.exit(0)));
  }
}
