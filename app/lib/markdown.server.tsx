import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { safeUrl } from "./markdown-links.ts";

/** The longest text the preview renders (the longest field is 10,000 characters). */
export const MARKDOWN_PREVIEW_MAX = 20_000;

/**
 * Markdown as the site renders it everywhere (posts, chapter notes and the editors' previews):
 * GitHub-flavoured, never raw HTML, only safe link protocols. Images show when they come from
 * this site or its image server; others become a link, so readers are not tracked by third parties.
 *
 * It runs on the server only and the pages receive HTML: the markdown parser would otherwise add
 * ~55 KB of gzipped JavaScript to every page that shows a post or a chapter (bench/README.md).
 */
export function renderMarkdown(text: string, publicApiUrl: string): string {
  const components: Components = {
    a: ({ href, children, node: _node, ...rest }) => {
      const external = !!href && /^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith(publicApiUrl);
      return (
        <a href={href || undefined} {...rest} rel={external ? "nofollow ugc noopener noreferrer" : undefined}>
          {children}
        </a>
      );
    },
    img: ({ src, alt, node: _node, ...rest }) => {
      const url = typeof src === "string" ? src : "";
      const local = url !== "" && (url.startsWith("/") || (publicApiUrl !== "" && url.startsWith(publicApiUrl + "/")));
      if (!local) return url ? <a href={url} rel="nofollow ugc noopener noreferrer">{alt || url}</a> : null;
      return <img src={url} alt={alt ?? ""} loading="lazy" {...rest} />;
    },
  };
  return renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={safeUrl} components={components}>
      {text}
    </ReactMarkdown>,
  );
}
