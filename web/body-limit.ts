import type { Request, RequestHandler, Response } from "express";
import type { WebConfig } from "../app/lib/config.server.ts";

/** Room for a multipart form's envelope and text fields around its files. */
const ENVELOPE_BYTES = 64 * 1024;
/** Files one chapter form post may carry without JavaScript (it can be saved again with more). */
export const CHAPTER_FILES_PER_REQUEST = 100;

/**
 * The largest body each form may send. Plain forms get FORM_MAX_BYTES; the forms that carry image
 * files (streamed one at a time to the API, app/lib/uploads.server.ts) get room for their files at
 * the API's per-file limit: the upload route one, hub/series/profile forms two (logo and banner),
 * the chapter form a bounded number of pages.
 */
export function bodyLimitFor(path: string, config: Pick<WebConfig, "formMaxBytes" | "uploadMaxBytes">): number {
  const p = path.toLowerCase(); // publish paths are case-insensitive (docs/web.md §7)
  const files = (n: number) => n * config.uploadMaxBytes + Math.max(config.formMaxBytes, ENVELOPE_BYTES);
  if (p === "/uploads" || p === "/uploads.data") return config.uploadMaxBytes + ENVELOPE_BYTES;
  if (p.startsWith("/publish/chapter")) return files(CHAPTER_FILES_PER_REQUEST);
  if (p === "/profile" || p === "/profile.data" || p.startsWith("/publish/hub") || p.startsWith("/publish/series")) return files(2);
  return config.formMaxBytes;
}

/** How long the rest of a refused body is read and dropped, so the client can read the 413 before the connection goes. */
const LINGER_MS = 5_000;

/** Set on a response answered 413 here: an error Remix raises afterwards (its body read failed) is expected. */
export const isRefusedBody = (res: Response) => res.locals.bodyTooLarge === true;

/** Answers 413 unless an answer has started; tells whether it did. */
function tooLarge(req: Request, res: Response): boolean {
  if (res.headersSent) return false;
  res.locals.bodyTooLarge = true;
  res.status(413);
  const message = "The request is too large.";
  if (req.accepts(["html", "json"]) === "json") res.json({ status: 413, error: "Payload Too Large", message });
  else res.type("html").send(`<!doctype html><title>Too large</title><h1>413</h1><p>${message}</p>`);
  return true;
}

/**
 * Reads the rest of the body and drops it for a while, then closes the connection. Closing at once
 * with unread bytes resets it (TCP RST), and the client may lose the 413 it was sent.
 */
function linger(req: Request) {
  if (req.complete) return;
  req.on("data", () => {});
  req.resume();
  const timer = setTimeout(() => req.destroy(), LINGER_MS).unref();
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
}

/**
 * Limits request bodies before Remix reads them (`request.formData()` has no limit): a declared
 * Content-Length over the limit is refused at once; a body without one (chunked) is counted as it
 * arrives and cut off past the limit: Remix's body reader gets an error (no action runs on a cut
 * body) and keeps nothing more of it.
 */
export function bodyLimit(limitFor: (path: string) => number): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const limit = limitFor(req.path);
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limit) {
      tooLarge(req, res);
      linger(req);
      return;
    }
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) return;
      req.off("data", count);
      if (!tooLarge(req, res)) return void req.destroy();
      // Remix's reader (a listener of this stream) fails its formData(); it drops later chunks.
      if (req.listenerCount("error") > 0) req.emit("error", Object.assign(new Error("Request body too large"), { status: 413 }));
      linger(req);
    };
    req.on("data", count);
    // Attaching a listener starts the flow; paused again so nothing passes before Remix listens (it resumes).
    req.pause();
    next();
  };
}
