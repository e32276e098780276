/** Link protocols markdown may use (spec section 2, CONTRACT.md 9); relative links are kept too. */
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
