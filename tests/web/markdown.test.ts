import { describe, expect, it } from "vitest";
import { safeUrl } from "../../app/lib/markdown-links.ts";
import { limitNesting, MAX_MARKDOWN_NESTING, renderMarkdown } from "../../app/lib/markdown.server.tsx";

describe("markdown links", () => {
  it.each([
    "http://example.com/a",
    "https://example.com",
    "irc://irc.libera.chat/inkwell",
    "ircs://irc.example:6697/c",
    "mailto:hi@example.com",
    "xmpp:me@example.com",
    "HTTPS://EXAMPLE.COM",
  ])("keeps %s", (url) => expect(safeUrl(url)).toBe(url));

  it.each(["/hubs/Manga%20Lovers", "../up", "#section", "?page=2", "./a:b"])("keeps the relative %s", (url) =>
    expect(safeUrl(url)).toBe(url),
  );

  it.each([
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox",
    "file:///etc/passwd",
    "ftp://example.com",
  ])("drops %s", (url) => expect(safeUrl(url)).toBe(""));
});

describe("markdown images and links to other sites", () => {
  const API = "http://images.test";
  const render = (md: string) => renderMarkdown(md, API);

  it.each(["//evil.example/x.png", "https://evil.example/x.png"])("shows %s as a link, not an image", (url) => {
    const html = render(`![cat](${url})`);
    expect(html).not.toContain("<img");
    expect(html).toMatch(/<a href="[^"]*evil\.example\/x\.png" rel="nofollow ugc noopener noreferrer">cat<\/a>/);
  });

  it("still shows this site's and the image server's images", () => {
    const html = render(`![a](/media/image/1) ![b](${API}/images/2)`);
    expect(html).toContain('<img src="/media/image/1" alt="a"');
    expect(html).toContain(`<img src="${API}/images/2" alt="b"`);
  });

  it("marks a protocol-relative link as leaving the site, like other remote links", () => {
    expect(render("[x](//evil.example/)")).toBe('<p><a href="//evil.example/" rel="nofollow ugc noopener noreferrer">x</a></p>');
    expect(render("[x](/hubs)")).toBe('<p><a href="/hubs">x</a></p>');
  });
});

describe("markdown nesting", () => {
  it.each([
    ["quotes", "> ".repeat(9_000) + "deep"],
    ["lists", "- ".repeat(9_000) + "deep"],
    ["numbered lists", "1. ".repeat(6_000) + "deep"],
  ])("renders thousands of nested %s (an overflowing stack before) ", (_, md) => {
    const html = renderMarkdown(md, "");
    const opened = (html.match(/<(blockquote|ul|ol)>/g) ?? []).length;
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThanOrEqual(MAX_MARKDOWN_NESTING);
    expect(html).toContain("deep");
  });

  it("leaves ordinary nesting alone", () => {
    expect(limitNesting("> quote\n> > reply\n- a\n  - b\n1. one")).toBe("> quote\n> > reply\n- a\n  - b\n1. one");
  });
});
