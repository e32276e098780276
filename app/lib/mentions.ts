// `@username` mentions in markdown (comments and posts) link to the user's page (docs/decisions/017-discussion.md).
import type { Content, Link, Root, Text } from "mdast";

type Nodes = Root | Content;

const USERNAME_MIN = 3;
const USERNAME_MAX = 30;

const isNameChar = (c: string | undefined) =>
  c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_");

export interface TextPiece {
  text: string;
  /** The username when this piece is a mention ("@name"). */
  mention?: string;
}

/**
 * Splits `text` into plain pieces and mentions, as the API finds them (server/rules/mentions.ts): an `@` that does
 * not follow a username character, then the whole run of username characters, 3 to 30 of them. One pass over the
 * characters, no regular expression.
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

/** Nodes whose text must stay as it is: links already (a mention inside a link would nest links). */
const SKIP = new Set(["link", "linkReference", "definition"]);

function linkMentions(node: Nodes): void {
  if (!("children" in node) || SKIP.has(node.type)) return;
  const children = node.children as Nodes[];
  for (let n = children.length - 1; n >= 0; n--) {
    const child = children[n]!;
    if (child.type !== "text") {
      linkMentions(child);
      continue;
    }
    if (!child.value.includes("@")) continue;
    const pieces = splitMentions(child.value);
    if (pieces.every((p) => !p.mention)) continue;
    const replaced = pieces.map((p): Text | Link =>
      p.mention
        ? {
            type: "link",
            url: `/user/${encodeURIComponent(p.mention)}`,
            data: { hProperties: { className: "mention" } },
            children: [{ type: "text", value: p.text }],
          }
        : { type: "text", value: p.text },
    );
    children.splice(n, 1, ...replaced);
  }
}

/** The remark plugin: every mention in the text becomes a link to `/user/{name}`. */
export function remarkMentions() {
  return (tree: Root) => linkMentions(tree);
}
