// Finding @username mentions in a comment or a post (docs/decisions/017-discussion.md). Pure: the web app may use it too.

/** At most this many people are told about one text. */
export const MENTIONS_MAX = 10;

const USERNAME_MIN = 3;
const USERNAME_MAX = 30;

// `@` not preceded by a username character (so an email address mentions nobody), then the longest run of username
// characters (server/rules/auth.ts). Nothing follows the run, so the pattern never backtracks: linear in the text.
const MENTION = /(?<![A-Za-z0-9_])@([A-Za-z0-9_]+)/g;

/**
 * The usernames mentioned in `text`, lower-cased (usernames are unique case-insensitively), distinct, in the order
 * of their first mention, at most MENTIONS_MAX. A run too short or too long to be a username mentions nobody.
 */
export function findMentions(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const name = match[1]!;
    if (name.length < USERNAME_MIN || name.length > USERNAME_MAX) continue;
    found.add(name.toLowerCase());
    if (found.size === MENTIONS_MAX) break;
  }
  return [...found];
}
