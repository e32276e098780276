import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { useRootData } from "../lib/root-data.ts";

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

/**
 * Markdown as the site renders it everywhere (posts, chapter notes and the editors' previews):
 * GitHub-flavoured, never raw HTML, only safe link protocols. Images show when they come from
 * this site or its image server; others become a link, so readers are not tracked by third parties.
 */
export function Markdown({ children, className = "" }: { children: string; className?: string }) {
  const { publicApiUrl } = useRootData();
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
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={safeUrl} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
