// Baseline 3: the minimal Remix page, served the way web/main.ts serves the site (compression,
// Helmet's headers with a per-response CSP nonce, static build/client, @remix-run/express in
// production mode), so the site's pages are compared with the cost of the same stack and no data.
import crypto from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";

const here = fileURLToPath(new URL(".", import.meta.url));
const BUILD_ENTRY = `${here}build/server/index.js`;
const CLIENT_DIR = `${here}build/client`;
if (!fs.existsSync(BUILD_ENTRY)) throw new Error(`No build at ${BUILD_ENTRY}: the benchmark builds it (bench/run.ts).`);

const build = (await import(BUILD_ENTRY)) as ServerBuild;
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.get("/health", (_req, res) => {
  res.json({ status: "ok" });
});
const headers = helmet({
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.nonce}'`],
      "style-src": ["'self'", "'unsafe-inline'"],
      "upgrade-insecure-requests": null,
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: "same-origin" },
  strictTransportSecurity: false,
});
app.use((req, res, next) => {
  res.locals.nonce = crypto.randomBytes(16).toString("base64");
  headers(req, res, next);
});
app.use("/assets", express.static(`${CLIENT_DIR}/assets`, { immutable: true, maxAge: "1y", fallthrough: false }));
app.use(express.static(CLIENT_DIR, { maxAge: "1h", index: false }));
app.all(
  "/{*splat}",
  createRequestHandler({
    build,
    mode: "production",
    // The site's AppLoadContext type is its own (app/lib/context.ts); this page only gets the nonce.
    getLoadContext: (_req, res) => ({ nonce: String(res.locals.nonce ?? "") }) as unknown as AppLoadContext,
  }),
);

const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`Minimal Remix baseline on ${JSON.stringify(server.address())}`);
});
server.keepAliveTimeout = 65_000;
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
