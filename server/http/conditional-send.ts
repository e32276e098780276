import type { Request, Response } from "express";

/** Sends `body` with its ETag, or a bare 304 when the client already holds it (If-None-Match). */
export function sendWithEtag(req: Request, res: Response, etag: string, body: Buffer): void {
  res.setHeader("ETag", etag);
  if (req.headers["if-none-match"] === etag) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Length", body.length);
  res.end(body);
}
