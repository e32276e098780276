// Finding @username mentions in a comment or a post (docs/decisions/017-discussion.md). Pure: the web app's markdown
// links the mentions the same splitter finds, so the API tells exactly the people the page links.
import { USERNAME_MAX, USERNAME_MIN } from "./auth.ts";

/** At most this many people are told about one text. */
export const MENTIONS_MAX = 10;

/** The username's characters (server/rules/auth.ts): letters, digits, underscore. */
const isNameChar = (c: string | undefined) =>
  c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_");

export interface TextPiece {
  text: string;
  /** The username as written when this piece is a mention ("@name"). */
  mention?: string;
}

/**
 * Splits `text` into plain pieces and mentions: an `@` that does not follow a username character (so an email
 * address mentions nobody), then the whole run of username characters, if it is as long as a username can be. One
 * pass over the characters, no regular expression, so nothing can backtrack: linear in the text.
 */
export function splitMentions(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let plainStart = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "@" || isNameChar(text[i - 1])) {
      i++;
      continue;
    }
    let end = i + 1;
    while (isNameChar(text[end])) end++;
    const length = end - i - 1;
    if (length >= USERNAME_MIN && length <= USERNAME_MAX) {
      if (i > plainStart) pieces.push({ text: text.slice(plainStart, i) });
      pieces.push({ text: text.slice(i, end), mention: text.slice(i + 1, end) });
      plainStart = end;
    }
    i = end;
  }
  if (plainStart < text.length) pieces.push({ text: text.slice(plainStart) });
  return pieces;
}

/**
 * The usernames mentioned in `text`, lower-cased (usernames are unique case-insensitively), distinct, in the order
 * of their first mention, at most MENTIONS_MAX.
 */
export function findMentions(text: string): string[] {
  const found = new Set<string>();
  for (const { mention } of splitMentions(text)) {
    if (mention === undefined) continue;
    found.add(mention.toLowerCase());
    if (found.size === MENTIONS_MAX) break;
  }
  return [...found];
}
