/** Link protocols markdown may use (docs/web.md §9); relative links are kept too. */
export const ALLOWED_PROTOCOLS = ["http", "https", "irc", "ircs", "mailto", "xmpp"] as const;

/** Keeps a URL when it is relative or uses an allowed protocol; anything else becomes "". */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  const colon = trimmed.indexOf(":");
  // No colon, or a colon after a "/", "?" or "#": relative.
  const firstSpecial = trimmed.search(/[/?#]/);
  if (colon === -1 || (firstSpecial !== -1 && colon > firstSpecial)) return trimmed;
  const protocol = trimmed.slice(0, colon).toLowerCase();
  return (ALLOWED_PROTOCOLS as readonly string[]).includes(protocol) ? trimmed : "";
}

/** The URL as a browser reads it: it drops ASCII tabs and line breaks anywhere in a URL. */
const asBrowserReads = (url: string) => url.replaceAll("\t", "").replaceAll("\n", "").replaceAll("\r", "");

/**
 * A path on this site ("/media/1.png"): starts with one "/". "//host/x" and "/\host/x" are
 * protocol-relative, so another site's.
 */
export function isSitePath(url: string): boolean {
  const u = asBrowserReads(url);
  return u.startsWith("/") && u[1] !== "/" && u[1] !== "\\";
}

/** A link that leaves the site: a scheme ("https:", "mailto:") or protocol-relative ("//host"). */
export function isExternalUrl(url: string, publicApiUrl: string): boolean {
  const u = asBrowserReads(url);
  if (publicApiUrl !== "" && (u === publicApiUrl || u.startsWith(publicApiUrl + "/"))) return false;
  if (u.startsWith("/")) return !isSitePath(u);
  const colon = u.indexOf(":");
  if (colon <= 0) return false;
  const firstSpecial = u.search(/[/?#]/);
  return firstSpecial === -1 || colon < firstSpecial;
}
