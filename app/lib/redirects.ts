/** Any ASCII control character (tab, line breaks, NUL, DEL) or a backslash. */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
/** Percent-decoding rounds before a value that keeps changing is given up on. */
const DECODE_ROUNDS = 4;

/** One round of percent-decoding, byte by byte (never throws; what matters here is ASCII). */
const decodeOnce = (value: string) => value.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A path on this site: one "/" first, then no control character or backslash. */
const isPlainPath = (value: string) => value.startsWith("/") && !value.startsWith("//") && !UNSAFE.test(value);

/**
 * The one rule for every address the web app goes to or links back to that a request gave it (`redirectTo`, `back`,
 * `next`, a notification's `to`; docs/web.md §6): only a path on this site, else `fallback`.
 *
 * Refused: anything not starting with one "/" (an absolute URL, a scheme, "//evil.example"), control characters
 * (browsers drop tabs and line breaks, so "/\t/evil.example" is read as "//evil.example"), backslashes (read as "/"),
 * and the same after percent-decoding, as often as it changes anything ("/%09/evil.example", "/%2F/evil.example",
 * "/%255C..."), in case some later step decodes it once more. Finally it must resolve to this origin.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !isPlainPath(to)) return fallback;
  let decoded = to;
  for (let round = 0; ; round++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    if (round === DECODE_ROUNDS || !isPlainPath(next)) return fallback;
    decoded = next;
  }
  const base = "http://site.invalid";
  try {
    if (new URL(to, base).origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return to;
}

/** `/login?redirectTo=<path and query of url>`; login and register pages are not remembered. */
export function loginPath(from: URL | string): string {
  const url = typeof from === "string" ? new URL(from, "http://x") : from;
  const here = url.pathname + url.search;
  if (url.pathname === "/login" || url.pathname === "/register" || here === "/") return "/login";
  return `/login?redirectTo=${encodeURIComponent(here)}`;
}
