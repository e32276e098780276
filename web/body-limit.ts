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
  const p = path.toLowerCase(); // publish paths are case-insensitive (CONTRACT.md 8)
  const files = (n: number) => n * config.uploadMaxBytes + Math.max(config.formMaxBytes, ENVELOPE_BYTES);
  if (p === "/uploads" || p === "/uploads.data") return config.uploadMaxBytes + ENVELOPE_BYTES;
  if (p.startsWith("/publish/chapter")) return files(CHAPTER_FILES_PER_REQUEST);
  if (p === "/profile" || p === "/profile.data" || p.startsWith("/publish/hub") || p.startsWith("/publish/series")) return files(2);
  return config.formMaxBytes;
}

/** Answers 413 unless an answer has started; tells whether it did. */
function tooLarge(req: Request, res: Response): boolean {
  if (res.headersSent) return false;
  // The rest of the body is not read: close the connection after answering.
  res.status(413).set("Connection", "close");
  const message = "The request is too large.";
  if (req.accepts(["html", "json"]) === "json") res.json({ status: 413, error: "Payload Too Large", message });
  else res.type("html").send(`<!doctype html><title>Too large</title><h1>413</h1><p>${message}</p>`);
  return true;
}

/**
 * Limits request bodies before Remix reads them (`request.formData()` has no limit): a declared
 * Content-Length over the limit is refused at once; a body without one (chunked) is counted as it
 * arrives and cut off past the limit.
 */
export function bodyLimit(limitFor: (path: string) => number): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const limit = limitFor(req.path);
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limit) {
      tooLarge(req, res);
      return;
    }
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) return;
      req.off("data", count);
      // Stop reading: the socket goes once the 413 is out (at once if another answer had started).
      if (tooLarge(req, res) && !res.writableFinished) res.once("finish", () => req.destroy());
      else req.destroy();
    };
    req.on("data", count);
    // Attaching a listener starts the flow; paused again so nothing passes before Remix listens (it resumes).
    req.pause();
    next();
  };
}
