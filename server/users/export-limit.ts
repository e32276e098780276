import type { RequestHandler } from "express";
import type { AttemptCounter } from "../http/attempt-counter.ts";
import { TooManyRequests } from "../http/errors.ts";

/**
 * Data exports per account per hour (docs/api.md §12). Each one reads every original the account uploaded (up to the
 * 2 GB quota) and streams it out, and nothing is kept to send again: a stored copy would be one more place where
 * deleted or removed content lives on. Three an hour leave room for a download that broke off and its retry.
 */
export const DEFAULT_EXPORT_RATE_PER_HOUR = 3;

export function exportRateMessage(perHour: number, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `You can download your data at most ${perHour} times an hour. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Counts an export per caller before any of it is read (the shared attempt counters, so every instance counts
 * together); beyond the limit, 429 with Retry-After. Keyed by the caller, never by the account asked for: a stranger's
 * refused tries (403) cannot use up someone else's exports.
 */
export function limitExportRate(exports: AttemptCounter, perHour: number): RequestHandler {
  return async (_req, res, next) => {
    const wait = await exports.take(String((res.locals.user as { id: number }).id));
    next(wait === null ? undefined : new TooManyRequests(exportRateMessage(perHour, wait), wait));
  };
}
