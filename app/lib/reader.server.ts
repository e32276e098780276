import { createCookie, type Cookie } from "@remix-run/node";

export const READER_COOKIE_NAME = "inkwell_reader";
import type { WebContext } from "./context.ts";
import { isPageFit, isPageLayout, isReadingMode, type PageFit, type PageLayout, type ReaderSettings, type ReadingMode } from "./reader.ts";

const cookies = new Map<boolean, Cookie>();

/** The series whose mode or shift the cookie remembers (most recent first); older ones fall back to their default. */
export const REMEMBERED_SERIES = 40;

/**
 * The reader's choices, remembered for a year: per series `[seriesId, mode or null, shifted 0/1]`
 * (most recent first), and one layout and fit for every series.
 */
export interface StoredReader {
  series: [number, ReadingMode | null, 0 | 1][];
  layout?: PageLayout;
  fit?: PageFit;
}

/**
 * The reader's cookie. A cookie (not local storage) so the server renders the chosen mode at once,
 * and it works without JavaScript. Nothing secret: not signed.
 */
function readerCookie(context: WebContext): Cookie {
  const secure = context.config.secureCookies;
  let cookie = cookies.get(secure);
  if (!cookie) {
    cookie = createCookie(READER_COOKIE_NAME, { path: "/", sameSite: "lax", httpOnly: true, secure, maxAge: 365 * 24 * 3600 });
    cookies.set(secure, cookie);
  }
  return cookie;
}

/** The cookie's choices; anything unexpected (an old or edited cookie) is dropped, not an error. */
export async function storedReader(request: Pick<Request, "headers">, context: WebContext): Promise<StoredReader> {
  const value: unknown = await readerCookie(context)
    .parse(request.headers.get("Cookie"))
    .catch(() => null);
  const v = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const series = Array.isArray(v.series) ? v.series : [];
  return {
    series: series
      .filter(
        (e): e is [number, ReadingMode | null, 0 | 1] =>
          Array.isArray(e) && Number.isSafeInteger(e[0]) && (e[1] === null || isReadingMode(e[1])) && (e[2] === 0 || e[2] === 1),
      )
      .slice(0, REMEMBERED_SERIES),
    layout: isPageLayout(v.layout) ? v.layout : undefined,
    fit: isPageFit(v.fit) ? v.fit : undefined,
  };
}

/** The settings for one series: the reader's choices, else the series' direction, single pages and fit height. */
export function settingsFor(stored: StoredReader, seriesId: number | null, seriesMode: ReadingMode): ReaderSettings {
  const entry = stored.series.find((e) => e[0] === seriesId);
  return { mode: entry?.[1] ?? seriesMode, layout: stored.layout ?? "single", fit: stored.fit ?? "height", shift: entry?.[2] === 1 };
}

/** The stored choices with one change applied (the series moves to the front of the list). */
export function withChoice(
  stored: StoredReader,
  seriesId: number | null,
  change: { mode?: ReadingMode; shift?: boolean; layout?: PageLayout; fit?: PageFit },
): StoredReader {
  const next: StoredReader = { ...stored, layout: change.layout ?? stored.layout, fit: change.fit ?? stored.fit };
  if (seriesId !== null && (change.mode !== undefined || change.shift !== undefined)) {
    const old = stored.series.find((e) => e[0] === seriesId);
    const entry: StoredReader["series"][number] = [seriesId, change.mode ?? old?.[1] ?? null, (change.shift ?? old?.[2] === 1) ? 1 : 0];
    next.series = [entry, ...stored.series.filter((e) => e[0] !== seriesId)].slice(0, REMEMBERED_SERIES);
  }
  return next;
}

/** A Set-Cookie value remembering the choices. */
export function rememberReader(context: WebContext, stored: StoredReader): Promise<string> {
  return readerCookie(context).serialize(stored);
}
