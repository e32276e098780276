import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export const DEFAULT_UPLOAD_QUOTA_BYTES = 2 * 1024 ** 3;
export const DEFAULT_UPLOAD_RATE_PER_HOUR = 600;

/**
 * Counts uploads per user per hour. In memory for one API process; another implementation (Redis)
 * can stand behind the same interface when several processes share the limit.
 */
export interface UploadRateLimiter {
  /** Counts one upload; answers null when allowed, else the seconds until the next one is. */
  take(userId: number): Promise<number | null>;
}

export function memoryUploadRateLimiter(perHour: number): UploadRateLimiter {
  const limiter = new RateLimiterMemory({ keyPrefix: "upload", points: perHour, duration: 3600 });
  return {
    async take(userId) {
      try {
        await limiter.consume(String(userId));
        return null;
      } catch (res) {
        if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw res;
      }
    },
  };
}

/** "2 GB", "500 MB", "12 KB": for messages. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

export const quotaMessage = (quota: number) =>
  `Your upload quota of ${formatBytes(quota)} is used up. This image does not fit in the space you have left.`;

export function rateMessage(perHour: number, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `You can upload at most ${perHour} images an hour. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
