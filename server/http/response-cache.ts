import { createHash, randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const MAX_BODY_BYTES = 256 * 1024;

interface Entry {
  version: number;
  status: number;
  body: Buffer;
  etag: string;
  /** The answer did not depend on who asked: any caller may get it, signed in or not. */
  shared: boolean;
}

export interface ResponseCacheOptions {
  /** How many responses to keep (least recently used go first); 0 turns the cache off. */
  maxEntries: number;
}

/**
 * Serialized JSON answers to GETs, reused until the next write. Every write request bumps one data
 * version when it starts and again when it finishes, and an entry counts only while its version is
 * current, so no reader is served data older than a completed write
 * (docs/decisions/006-response-cache.md). An answer that read the caller (likedByMe, joinedByMe,
 * their email) is kept for guests only and never built for a signed-in caller; an answer of a public
 * call that never looked at the caller (the lists) is shared by everyone.
 */
export function createResponseCache({ maxEntries }: ResponseCacheOptions) {
  let version = 0;
  // Tells one run of the API from the next: the counter starts again at 0 on every start.
  const boot = randomUUID().slice(0, 8);
  const entries = new Map<string, Entry>();
  const enabled = maxEntries > 0;

  const cacheable = (req: Request) => enabled && req.method === "GET";
  /** Set by the bearer-token middleware, which runs first (server/http/auth.ts). */
  const signedIn = (res: Response) => res.locals.user != null;

  function send(req: Request, res: Response, entry: Entry) {
    res.status(entry.status);
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("ETag", entry.etag);
    if (req.headers["if-none-match"] === entry.etag) {
      res.status(304).end();
      return;
    }
    res.setHeader("Content-Length", entry.body.length);
    res.end(entry.body);
  }

  return {
    /** Bumps the data version around every write request. Mount before the routes. */
    invalidateOnWrite: ((req, res, next) => {
      if (WRITE_METHODS.has(req.method)) {
        version++;
        res.once("finish", () => version++);
      }
      next();
    }) satisfies RequestHandler,

    /** Answers from the cache when it can. Mount after the bearer-token check, before the routes. */
    serveCached: ((req, res, next) => {
      if (!cacheable(req)) return next();
      const key = req.originalUrl;
      const entry = entries.get(key);
      if (!entry || entry.version !== version || (signedIn(res) && !entry.shared)) return next();
      // Most recently used last.
      entries.delete(key);
      entries.set(key, entry);
      send(req, res, entry);
    }) satisfies RequestHandler,

    /**
     * Sends a JSON answer, keeping it when it may be reused. `startVersion` is the version when the
     * request started: an answer computed across a write is sent but not kept. `shared`: the answer
     * is the same whoever asks (a public call whose handler never read the caller).
     */
    sendJson(req: Request, res: Response, status: number, value: unknown, startVersion: number, shared = false): void {
      const body = Buffer.from(JSON.stringify(value));
      const etag = `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
      const entry: Entry = { version: startVersion, status, body, etag, shared };
      const keep = cacheable(req) && (shared || !signedIn(res)) && status === 200 && body.length <= MAX_BODY_BYTES && startVersion === version;
      if (keep) {
        entries.delete(req.originalUrl);
        entries.set(req.originalUrl, entry);
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      send(req, res, entry);
    },

    currentVersion: () => version,

    /** The data version as other processes see it (GET /data-version): changes with every write. */
    dataVersion: () => `${boot}.${version}`,

    /** For writes that bypass the API (tests, maintenance scripts run in-process). */
    invalidate: () => void version++,
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;
