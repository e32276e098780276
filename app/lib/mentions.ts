// `@username` mentions in markdown (comments and posts) link to the user's page (docs/decisions/017-discussion.md),
// found by the splitter the API uses to tell the people mentioned.
import type { Content, Link, Root, Text } from "mdast";
import { splitMentions } from "../../server/rules/mentions.ts";

type Nodes = Root | Content;

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
