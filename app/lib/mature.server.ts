// The notice before a mature series (docs/api.md "Series metadata and browsing", docs/web.md §12): shown to guests and to
// readers who have not turned on "Show mature series", until they choose Continue. The choice is a
// browser-session cookie (no expiry), so it holds for every mature series until the browser closes.
import { createCookie, redirect, type Cookie } from "@remix-run/node";
import type { WebContext } from "./context.ts";
import { safeRedirect } from "./redirects.ts";
import type { Session } from "./session.server.ts";
import { seriesPath } from "./urls.ts";
import { viewerState } from "./viewer.server.ts";

export const MATURE_COOKIE_NAME = "inkwell_mature";

const cookies = new Map<boolean, Cookie>();

function matureCookie(context: WebContext): Cookie {
  const secure = context.config.secureCookies;
  let cookie = cookies.get(secure);
  if (!cookie) {
    // Nothing secret and nothing to forge: it only skips a notice the reader may skip anyway.
    cookie = createCookie(MATURE_COOKIE_NAME, { path: "/", sameSite: "lax", httpOnly: true, secure });
    cookies.set(secure, cookie);
  }
  return cookie;
}

/** A Set-Cookie value that skips the notice for the rest of this browser session. */
export function acknowledgeMature(context: WebContext): Promise<string> {
  return matureCookie(context).serialize("1");
}

/** Whether this browser chose Continue (the cookie as the app reads it; the page cache keys pages by it too). */
export async function matureAcknowledged(request: Pick<Request, "headers">, context: WebContext): Promise<boolean> {
  const value: unknown = await matureCookie(context)
    .parse(request.headers.get("Cookie"))
    .catch(() => null);
  return value === "1";
}

interface Rated {
  author: number;
  contentRating?: string;
}

/**
 * Whether `series` opens with the notice: rated mature, not the viewer's own, not acknowledged in
 * this browser session, and the viewer (if signed in) has not turned on `showMature` (the viewer's state, read
 * once per request).
 */
export async function needsMatureNotice(request: Request, context: WebContext, session: Session | null, series: Rated): Promise<boolean> {
  if (series.contentRating !== "mature" || series.author === session?.user.id) return false;
  if (await matureAcknowledged(request, context)) return false;
  if (!session) return true;
  return (await viewerState(request, context, session))?.user.showMature !== true;
}

/** Where the notice's Continue link goes: `/mature?next=`, back to the page that was asked for. */
export function continuePath(next: string): string {
  return `/mature?next=${encodeURIComponent(next)}`;
}

/**
 * The series page's notice, or null: its Continue link leads on to `?next=` when that is one of
 * this series' pages (a chapter that sent the reader here), else to the series page itself.
 */
export async function seriesMatureNotice(
  request: Request,
  context: WebContext,
  session: Session | null,
  series: Rated & { name: string },
): Promise<{ continueTo: string } | null> {
  if (!(await needsMatureNotice(request, context, session, series))) return null;
  const url = new URL(request.url);
  const home = seriesPath(series.name);
  const next = safeRedirect(url.searchParams.get("next"), home);
  const target = next === home || next.startsWith(`${home}/`) ? next : home;
  return { continueTo: continuePath(target) };
}

/**
 * The chapter page's guard: a mature series' chapter sends a reader who would see the notice to
 * the series page's notice, which leads back here on Continue.
 */
export async function guardMatureChapter(
  request: Request,
  context: WebContext,
  session: Session | null,
  series: Rated & { name: string },
): Promise<void> {
  if (!(await needsMatureNotice(request, context, session, series))) return;
  const url = new URL(request.url);
  throw redirect(`${seriesPath(series.name)}?next=${encodeURIComponent(url.pathname + url.search)}`);
}
