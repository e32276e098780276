// Per-user limits on writing (docs/api.md "Limits"): high enough that a real user never meets them, low enough that a
// script cannot flood a hub, a series' followers or someone's notifications. Each is set by its environment variable
// (server/config.ts); 0 turns it off.

/** New posts per user per hour (POST_RATE_PER_HOUR). */
export const DEFAULT_POST_RATE_PER_HOUR = 30;
/** Edits of comments and posts together, per user per hour (EDIT_RATE_PER_HOUR). */
export const DEFAULT_EDIT_RATE_PER_HOUR = 120;
/** New chapters per user per hour (CHAPTER_RATE_PER_HOUR): each tells every follower of the series. */
export const DEFAULT_CHAPTER_RATE_PER_HOUR = 60;

const inMinutes = (retryAfterSeconds: number) => {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
};

export const postRateMessage = (perHour: number, retryAfterSeconds: number) =>
  `You can publish at most ${perHour} posts an hour. ${inMinutes(retryAfterSeconds)}`;

export const editRateMessage = (perHour: number, retryAfterSeconds: number) =>
  `You can make at most ${perHour} edits an hour. ${inMinutes(retryAfterSeconds)}`;

export const chapterRateMessage = (perHour: number, retryAfterSeconds: number) =>
  `You can publish at most ${perHour} chapters an hour. ${inMinutes(retryAfterSeconds)}`;
