// Formatting shared by screens. Dates in UTC so the server's and the browser's render agree.
//
// Written out rather than with Intl (the same text as en-US): a phone's first Intl formatter loads the locale's data,
// ~30 ms of one task while the page hydrates (docs/web.md "First paint").
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Nov 24, 2026", as Intl's en-US short date in UTC. */
const shortDate = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;

/** "1,234,567": a whole number with en-US grouping (anything else as toLocaleString writes it). */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : shortDate(d);
}

export function yearOf(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : String(d.getUTCFullYear());
}

/** "1 member", "12 members". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${groupDigits(count)} ${count === 1 ? one : many}`;
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
  return shortDate(new Date(then));
}

/** The like label of docs/web.md §3: 'Like' when the count is 1, otherwise 'Likes'. */
export const likesLabel = (count: number) => (count === 1 ? "Like" : "Likes");

/** A page number from a query string: 1 unless a whole number from 1 up. */
export function pageParam(value: string | null): number {
  if (!value || !/^[0-9]{1,9}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}
