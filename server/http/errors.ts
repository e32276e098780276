import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import { isOutOfSpace, OUT_OF_SPACE_MESSAGE } from "../db/storage-full.ts";
import type { FieldError } from "../rules/api-responses.ts";
import { ADMIN_NEEDS_SECOND_FACTOR } from "../rules/two-factor.ts";

export type { FieldError };

/** Thrown anywhere below a router; the error handler turns it into the contract's error body. */
export class HttpError extends Error {
  readonly status: number;
  readonly errors?: FieldError[];
  constructor(status: number, message: string, errors?: FieldError[]) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

/** 429 with a Retry-After header: a throttle's answer says when to come back. */
export class TooManyRequests extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new HttpError(400, message, errors);
export const unauthorized = (message = "Authentication required") => new HttpError(401, message);
export const forbidden = (message = "You are not allowed to do this") => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** Validation failure: one message per field, the first rule that failed (docs/api.md §2). */
export function validationError(error: z.ZodError, location: "body" | "query" | "params"): HttpError {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : location;
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message: issue.message });
  }
  return badRequest(errors[0]?.message ?? "Invalid request", errors);
}

export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  errors?: FieldError[];
}

export function errorBody(status: number, message: string, errors?: FieldError[]): ErrorBody {
  return { status, error: STATUS_CODES[status] ?? "Error", message, ...(errors ? { errors } : {}) };
}

/**
 * A path that is not valid percent-encoding (`/hubs/%FF`) is a 400 on every route, known or not. Without
 * this, Express answered 400 only where some route's pattern matched it (whatever the method) and 404
 * elsewhere.
 */
export const malformedPath: RequestHandler = (req, _res, next) => {
  if (!req.path.includes("%")) return next();
  try {
    decodeURIComponent(req.path);
  } catch {
    return next(badRequest("Malformed URL: the path is not valid percent-encoding"));
  }
  next();
};

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(notFound(`No route for ${req.method} ${req.path}`));
};

/** Errors raised by body-parser, multer and others carry a status or a code; map the known ones. */
function fromLibraryError(err: unknown): HttpError | null {
  if (typeof err !== "object" || err === null) return null;
  const e = err as { name?: string; type?: string; code?: string; status?: number; statusCode?: number; message?: string };
  switch (e.type) {
    case "entity.parse.failed":
      return badRequest("Malformed JSON body");
    case "entity.too.large":
      return new HttpError(413, "Request body is too large");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpError(415, "Unsupported body encoding");
    case "request.aborted":
      return badRequest("Request aborted");
  }
  // Every multer error is about the client's form (a part without a name, too many parts, a file in
  // another field...); only a file over the limit is not a plain 400.
  if (e.name === "MulterError") {
    return e.code === "LIMIT_FILE_SIZE"
      ? new HttpError(413, "The file is too large")
      : badRequest("Send one image in the multipart field 'file'");
  }
  if (e.message === "Malformed part header" || e.message === "Unexpected end of form" || e.message?.startsWith("Multipart:")) {
    return badRequest("Malformed multipart body");
  }
  // A full disk (SQLite or a file write): the write changed nothing; reads keep working.
  if (isOutOfSpace(err)) return new HttpError(503, OUT_OF_SPACE_MESSAGE);
  const status = e.status ?? e.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new HttpError(status, e.message || STATUS_CODES[status] || "Bad Request");
  }
  return null;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = err instanceof HttpError ? err : fromLibraryError(err);
    if (!known) logger.error({ err, method: req.method, url: req.originalUrl }, "unhandled error");
    if (res.headersSent) {
      // Failed mid-response (an image stream): nothing else can be sent.
      res.end();
      return;
    }
    // No cache or CDN may keep an error: a 404 for a private image must not outlive the image's publishing.
    res.setHeader("Cache-Control", "no-store");
    if (known) {
      if (known instanceof TooManyRequests) res.setHeader("Retry-After", String(known.retryAfterSeconds));
      // ADMIN_REQUIRE_2FA: an admin acting as a member until they set up a second factor hears why (docs/api.md "Second factors").
      const awaiting =
        known.status === 403 && (res.locals.user as { adminAwaitingSecondFactor?: boolean } | null)?.adminAwaitingSecondFactor;
      const message = awaiting ? `${known.message.replace(/\.$/, "")}. ${ADMIN_NEEDS_SECOND_FACTOR}` : known.message;
      res.status(known.status).json(errorBody(known.status, message, known.errors));
      return;
    }
    res.status(500).json(errorBody(500, "Something went wrong on our side"));
  };
}
