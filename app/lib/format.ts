// Formatting shared by screens. Dates in UTC so the server's and the browser's render agree.
const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : dateFormat.format(d);
}

export function yearOf(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : String(d.getUTCFullYear());
}

/** "1 member", "12 members". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", then the date. `now`: the server's clock, in ms. */
export function relativeDate(iso: string, now: number): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${plural(Math.floor(seconds / 60), "minute")} ago`;
  if (seconds < 86_400) return `${plural(Math.floor(seconds / 3600), "hour")} ago`;
  if (seconds < 30 * 86_400) return `${plural(Math.floor(seconds / 86_400), "day")} ago`;
  return dateFormat.format(then);
}

/** The like label of docs/web.md §3: 'Like' when the count is 1, otherwise 'Likes'. */
export const likesLabel = (count: number) => (count === 1 ? "Like" : "Likes");

/** A page number from a query string: 1 unless a whole number from 1 up. */
export function pageParam(value: string | null): number {
  if (!value || !/^[0-9]{1,9}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}
