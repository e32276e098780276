export const DEFAULT_UPLOAD_QUOTA_BYTES = 2 * 1024 ** 3;
export const DEFAULT_UPLOAD_RATE_PER_HOUR = 600;

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
