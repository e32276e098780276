import { createCookie, type Cookie } from "@remix-run/node";

export const READER_COOKIE_NAME = "inkwell_reader";
import type { WebContext } from "./context.ts";
import { isReadingMode, type ReadingMode } from "./reader.ts";

const cookies = new Map<boolean, Cookie>();

/**
 * The reader's chosen mode, remembered for a year. A cookie (not local storage) so the server
 * renders the chosen mode at once, and it works without JavaScript. Nothing secret: not signed.
 */
function modeCookie(context: WebContext): Cookie {
  const secure = context.config.secureCookies;
  let cookie = cookies.get(secure);
  if (!cookie) {
    cookie = createCookie(READER_COOKIE_NAME, { path: "/", sameSite: "lax", httpOnly: true, secure, maxAge: 365 * 24 * 3600 });
    cookies.set(secure, cookie);
  }
  return cookie;
}

/** The mode from the request's cookie; the vertical strip unless the reader chose otherwise. */
export async function readingMode(request: Request, context: WebContext): Promise<ReadingMode> {
  const value: unknown = await modeCookie(context)
    .parse(request.headers.get("Cookie"))
    .catch(() => null);
  return isReadingMode(value) ? value : "strip";
}

/** A Set-Cookie value remembering `mode`. */
export function rememberMode(context: WebContext, mode: ReadingMode): Promise<string> {
  return modeCookie(context).serialize(mode);
}
