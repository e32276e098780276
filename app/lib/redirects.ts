/**
 * Where to go after login. Only paths on this site: an absolute URL, a protocol-relative
 * "//evil.example" or a backslash trick would be an open redirect.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Control characters (tab, newline) are dropped by URL parsers and could smuggle a "//".
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  return to;
}

/** `/login?redirectTo=<path and query of url>`; login and register pages are not remembered. */
export function loginPath(from: URL | string): string {
  const url = typeof from === "string" ? new URL(from, "http://x") : from;
  const here = url.pathname + url.search;
  if (url.pathname === "/login" || url.pathname === "/register" || here === "/") return "/login";
  return `/login?redirectTo=${encodeURIComponent(here)}`;
}
