import type { RequestHandler } from "express";
import type { AttemptCounters } from "./attempt-counter.ts";
import { TooManyRequests } from "./errors.ts";
import {
  chapterRateMessage,
  DEFAULT_CHAPTER_RATE_PER_HOUR,
  DEFAULT_EDIT_RATE_PER_HOUR,
  DEFAULT_POST_RATE_PER_HOUR,
  editRateMessage,
  postRateMessage,
} from "../rules/write-limits.ts";

/**
 * A per-user limit as an endpoint's `before` middleware: `perHour` attempts of one kind (`prefix`) per signed-in user
 * an hour, counted on the shared attempt counters (once across instances with Redis) before the body is read; beyond
 * it, 429 with Retry-After. No middleware at all when `perHour` is 0 (the limit is off).
 */
export function perUserHourlyLimit(
  counters: AttemptCounters,
  prefix: string,
  perHour: number,
  message: (perHour: number, retryAfterSeconds: number) => string,
): RequestHandler[] {
  if (perHour <= 0) return [];
  const attempts = counters(prefix, perHour, 3600);
  return [
    async (_req, res, next) => {
      const wait = await attempts.take(String((res.locals.user as { id: number }).id));
      next(wait === null ? undefined : new TooManyRequests(message(perHour, wait), wait));
    },
  ];
}

/** The write limits' settings (server/config.ts); each absent one takes its default, 0 turns it off. */
export interface WriteLimitConfig {
  /** New posts per user per hour (POST_RATE_PER_HOUR). */
  postRatePerHour?: number;
  /** Edits of comments and posts per user per hour, counted together (EDIT_RATE_PER_HOUR). */
  editRatePerHour?: number;
  /** New chapters per user per hour (CHAPTER_RATE_PER_HOUR). */
  chapterRatePerHour?: number;
}

/** The `before` middleware of each limited write, made once per app so that comment and post edits share one count. */
export interface WriteLimits {
  post: RequestHandler[];
  edit: RequestHandler[];
  chapter: RequestHandler[];
}

export function writeLimits(config: WriteLimitConfig, counters: AttemptCounters): WriteLimits {
  return {
    post: perUserHourlyLimit(counters, "post", config.postRatePerHour ?? DEFAULT_POST_RATE_PER_HOUR, postRateMessage),
    edit: perUserHourlyLimit(counters, "edit", config.editRatePerHour ?? DEFAULT_EDIT_RATE_PER_HOUR, editRateMessage),
    chapter: perUserHourlyLimit(counters, "chapter", config.chapterRatePerHour ?? DEFAULT_CHAPTER_RATE_PER_HOUR, chapterRateMessage),
  };
}
