import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The demo posts live as markdown in content/posts/, one file per hub, so code blocks and
 * backticks stay readable. A file starts with `hub: <name>`; each post starts with a line
 * `@@@ <author> | <title> | <description>` followed by its markdown body.
 */
export interface DemoPost {
  hub: string;
  author: string;
  title: string;
  description: string;
  body: string;
}

const POSTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "posts");

export function parsePostFile(text: string, source: string): DemoPost[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const first = lines.findIndex((l) => l.trim() !== "");
  const hubLine = /^hub:\s*(.+)$/.exec(lines[first] ?? "");
  if (!hubLine) throw new Error(`${source}: the first line must be "hub: <name>"`);
  const hub = hubLine[1]!.trim();
  const posts: DemoPost[] = [];
  let current: { header: string[]; body: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    const [author, title, description] = current.header;
    if (!author || !title || description === undefined) throw new Error(`${source}: a post header needs "author | title | description"`);
    posts.push({ hub, author, title, description, body: current.body.join("\n").trim() });
  };
  for (const line of lines.slice(first + 1)) {
    if (line.startsWith("@@@ ")) {
      flush();
      current = {
        header: line
          .slice(4)
          .split("|")
          .map((s) => s.trim()),
        body: [],
      };
    } else if (current) {
      current.body.push(line);
    }
  }
  flush();
  return posts;
}

/** Every demo post, in a stable order (files by name, posts as written). */
export function loadDemoPosts(dir = POSTS_DIR): DemoPost[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .flatMap((f) => parsePostFile(fs.readFileSync(path.join(dir, f), "utf8"), f));
}
