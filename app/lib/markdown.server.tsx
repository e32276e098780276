import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { isExternalUrl, isSitePath, safeUrl } from "./markdown-links.ts";
import { remarkMentions } from "./mentions.ts";
import { ownImageUrl } from "./uploads.ts";

/**
 * The longest text rendered, in UTF-16 units (the longest field is 10,000 characters, at most two
 * units each): the preview refuses more, and anything longer could not have been saved anyway.
 */
export const MARKDOWN_PREVIEW_MAX = 20_000;

/**
 * Block quotes and lists opened on one line ("> > > ..."): the parser and the renderer recurse
 * once per level, so thousands of them take seconds and overflow the stack. Markers past this
 * depth are escaped and show as text.
 */
export const MAX_MARKDOWN_NESTING = 32;

/** The index just past a list or quote marker starting at `i` of `line`, or -1. */
function markerEnd(line: string, i: number): number {
  const c = line[i];
  const spaceOrEnd = (j: number) => j >= line.length || line[j] === " " || line[j] === "\t";
  if (c === ">") return i + 1;
  if ((c === "-" || c === "*" || c === "+") && spaceOrEnd(i + 1)) return i + 1;
  let j = i;
  while (j < line.length && j - i < 9 && line[j]! >= "0" && line[j]! <= "9") j++;
  if (j > i && (line[j] === "." || line[j] === ")") && spaceOrEnd(j + 1)) return j + 1;
  return -1;
}

/**
 * Escapes the container markers of each line beyond MAX_MARKDOWN_NESTING (plain string scanning).
 * Lists also nest by indentation over many lines (about two columns a level), so every two
 * columns of indentation count as a level too.
 */
export function limitNesting(text: string): string {
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    let markers = 0;
    let columns = 0;
    let i = 0;
    while (i < line.length) {
      if (line[i] === " " || line[i] === "\t") {
        columns += line[i] === " " ? 1 : 4;
        i++;
        continue;
      }
      const end = markerEnd(line, i);
      if (end === -1) break;
      if (++markers + Math.floor(columns / 2) > MAX_MARKDOWN_NESTING) {
        lines[n] = line.slice(0, i) + "\\" + line.slice(i);
        break;
      }
      i = end;
    }
  }
  return lines.join("\n");
}

/**
 * This site's image at `url` (`/images/{id}`, on the site or the API, `?w=` kept) as the web app's `/uploads/{id}`, which
 * fetches it with the visitor's session: for the images of a removed thing shown to someone who may see it (the API
 * answers 404 without a token: docs/decisions/025-withdrawable-images.md). Null for any other URL.
 */
function throughSession(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://site.invalid");
  } catch {
    return null;
  }
  const id = /^\/images\/([1-9][0-9]{0,9})$/.exec(parsed.pathname)?.[1];
  if (id === undefined) return null;
  const width = parsed.searchParams.get("w");
  return ownImageUrl(Number(id), width !== null && /^[0-9]{1,5}$/.test(width) ? Number(width) : undefined);
}

/** How a text is rendered: `imagesThroughSession` for a removed thing shown to someone who may see it (see `throughSession`). */
export interface MarkdownOptions {
  imagesThroughSession?: boolean;
}

/**
 * Markdown as the site renders it everywhere (posts, comments, chapter notes and the editors' previews):
 * GitHub-flavoured, `@username` mentions linked to the user's page, never raw HTML, only safe link protocols. Images show when they come from
 * this site or its image server; others become a link, so readers are not tracked by third parties.
 *
 * It runs on the server only and the pages receive HTML: the markdown parser would otherwise add
 * ~55 KB of gzipped JavaScript to every page that shows a post or a chapter (bench/README.md).
 */
export function renderMarkdown(text: string, publicApiUrl: string, { imagesThroughSession = false }: MarkdownOptions = {}): string {
  const components: Components = {
    a: ({ href, children, node: _node, ...rest }) => {
      const external = !!href && isExternalUrl(href, publicApiUrl);
      return (
        <a href={href || undefined} {...rest} rel={external ? "nofollow ugc noopener noreferrer" : undefined}>
          {children}
        </a>
      );
    },
    img: ({ src, alt, node: _node, ...rest }) => {
      const url = typeof src === "string" ? src : "";
      const local = url !== "" && (isSitePath(url) || (publicApiUrl !== "" && url.startsWith(publicApiUrl + "/")));
      if (!local)
        return url ? (
          <a href={url} rel="nofollow ugc noopener noreferrer">
            {alt || url}
          </a>
        ) : null;
      return <img src={(imagesThroughSession && throughSession(url)) || url} alt={alt ?? ""} loading="lazy" {...rest} />;
    },
  };
  const source = limitNesting(text.length > MARKDOWN_PREVIEW_MAX ? text.slice(0, MARKDOWN_PREVIEW_MAX) : text);
  try {
    return renderToStaticMarkup(
      <ReactMarkdown remarkPlugins={[remarkGfm, remarkMentions]} skipHtml urlTransform={safeUrl} components={components}>
        {source}
      </ReactMarkdown>,
    );
  } catch (err) {
    // A shape the nesting limit missed that still overflows the stack: the text, unformatted.
    if (!(err instanceof RangeError)) throw err;
    return renderToStaticMarkup(<p style={{ whiteSpace: "pre-wrap" }}>{source}</p>);
  }
}

/** Saved texts' HTML kept (most recently used last), and their total length in UTF-16 units at most. */
const RENDERED_ENTRIES = 1000;
const RENDERED_UNITS = 4_000_000;
const rendered = new Map<string, string>();
let renderedUnits = 0;

/**
 * `renderMarkdown` for saved texts (posts, comments, chapter notes), which every view of a page renders again: the HTML
 * depends on the text and the site's addresses only, the same for every viewer, so the recently rendered are kept
 * (bounded by count and size). Editors' previews render uncached: each draft is seen once.
 */
export function renderSavedMarkdown(text: string, publicApiUrl: string, options: MarkdownOptions = {}): string {
  const key = `${publicApiUrl}\n${options.imagesThroughSession ? "session" : ""}\n${text}`;
  const kept = rendered.get(key);
  if (kept !== undefined) {
    rendered.delete(key);
    rendered.set(key, kept);
    return kept;
  }
  const html = renderMarkdown(text, publicApiUrl, options);
  rendered.set(key, html);
  renderedUnits += key.length + html.length;
  for (const [oldKey, oldHtml] of rendered) {
    if (rendered.size <= RENDERED_ENTRIES && renderedUnits <= RENDERED_UNITS) break;
    rendered.delete(oldKey);
    renderedUnits -= oldKey.length + oldHtml.length;
  }
  return html;
}
