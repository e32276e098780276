/**
 * Rendered markdown: the HTML comes from `renderMarkdown` (app/lib/markdown.server.tsx) in a
 * loader or action, which never lets raw HTML or unsafe links through.
 */
export function Markdown({ html, className = "" }: { html: string; className?: string }) {
  return <div className={`markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
