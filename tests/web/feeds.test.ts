// The pure parts of the feeds, sitemaps and cards (docs/web.md "Feeds, sitemap and cards"): XML text that parses
// whatever a user wrote, Atom built from it, sitemap file names, canonical URLs and the card tags.
import { DOMParser, onWarningStopParsing } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { atomXml, tagUri } from "../../app/lib/atom.server.ts";
import { entryPath, parseSitemapFile } from "../../app/lib/sitemap.server.ts";
import { canonicalUrl, shortDescription, socialMeta } from "../../app/lib/social-meta.ts";
import { xmlText } from "../../app/lib/xml.ts";

const parse = (xml: string) => new DOMParser({ onError: onWarningStopParsing }).parseFromString(xml, "application/xml");

describe("xmlText", () => {
  it("escapes markup and drops what XML 1.0 forbids, keeping tabs, newlines and astral characters", () => {
    expect(xmlText(`a & b <c> "d" 'e'`)).toBe("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;");
    expect(xmlText("bell\u0007 nul\u0000 esc\u001b ok\tline\nnext\r")).toBe("bell nul esc ok\tline\nnext\r");
    expect(xmlText("lone \ud800 surrogate, \ufffe and \uffff")).toBe("lone  surrogate,  and ");
    expect(xmlText("ink 🖋️ ✓")).toBe("ink 🖋️ ✓");
  });

  it("makes an Atom document that parses whatever the titles and summaries hold", () => {
    const nasty = `</title><x>&amp;\u0001\u0008]]> 🖋️ "q" 'a'`;
    const xml = atomXml({
      id: tagUri("https://inkwell.example", "hub", 7),
      title: nasty,
      selfUrl: "https://inkwell.example/hubs/A%20%26%20B/feed.atom",
      pageUrl: "https://inkwell.example/hubs/A%20%26%20B",
      updated: "2026-11-23T10:00:00.000Z",
      author: { name: nasty, uri: "https://inkwell.example/user/x?a=1&b=2" },
      entries: [
        {
          id: "tag:inkwell.example,2026:post:1",
          title: nasty,
          url: "https://inkwell.example/p?a=1&b=2",
          updated: "2026-11-23T10:00:00.000Z",
          summary: nasty,
        },
      ],
    });
    const doc = parse(xml);
    const expected = `</title><x>&amp;]]> 🖋️ "q" 'a'`;
    expect(doc.getElementsByTagName("title")[0]!.textContent).toBe(expected);
    expect(doc.getElementsByTagName("summary")[0]!.textContent).toBe(expected);
    expect(doc.getElementsByTagName("link")[2]!.getAttribute("href")).toBe("https://inkwell.example/p?a=1&b=2");
    expect(doc.getElementsByTagName("id")[0]!.textContent).toBe("tag:inkwell.example,2026:hub:7");
  });
});

describe("sitemap files", () => {
  it("names a kind and a page, and nothing else", () => {
    expect(parseSitemapFile("posts-3.xml")).toEqual({ kind: "posts", page: 3 });
    expect(parseSitemapFile("pages-1.xml")).toEqual({ kind: "pages", page: 1 });
    for (const bad of [
      "posts-0.xml",
      "posts-01.xml",
      "comments-1.xml",
      "posts-1.xml.gz",
      "posts-1234567.xml",
      "posts-.xml",
      "Posts-1.xml",
    ]) {
      expect(parseSitemapFile(bad), bad).toBeNull();
    }
  });

  it("builds each kind's path from its parts, encoded", () => {
    expect(entryPath("series", ["A/B & C"])).toBe("/series/A%2FB%20%26%20C");
    expect(entryPath("chapters", ["Moonlit Ronin", "12"])).toBe("/series/Moonlit%20Ronin/12");
    expect(entryPath("posts", ["Ink & Brush", "5"])).toBe("/hubs/Ink%20%26%20Brush/5");
    expect(entryPath("hubs", ["Ink & Brush"])).toBe("/hubs/Ink%20%26%20Brush");
    expect(entryPath("users", ["mika"])).toBe("/user/mika");
  });
});

describe("cards", () => {
  it("keeps only a page past the first in the canonical URL", () => {
    expect(canonicalUrl("https://inkwell.example", "/series")).toBe("https://inkwell.example/series");
    expect(canonicalUrl("https://inkwell.example", "/series", 1)).toBe("https://inkwell.example/series");
    expect(canonicalUrl("https://inkwell.example", "/series", 3)).toBe("https://inkwell.example/series?page=3");
  });

  it("shortens long descriptions to one paragraph of at most 300 characters", () => {
    expect(shortDescription("  two\n\nlines  ")).toBe("two lines");
    const long = shortDescription("word ".repeat(200));
    expect(long.length).toBeLessThanOrEqual(300);
    expect(long.endsWith("…")).toBe(true);
  });

  it("writes every tag with absolute URLs from the root's origins, the default picture when there is none", () => {
    const matches = [{ id: "root", data: { publicUrl: "https://inkwell.example", imagePublicUrl: "https://cdn.example" } }];
    const tags = socialMeta(matches, { title: "T · Inkwell", cardTitle: "T", description: "", path: "/hubs/T", page: 2 });
    const content = (key: string) =>
      (tags.find((t) => "property" in t && t.property === key) ?? tags.find((t) => "name" in t && t.name === key)) as { content: string };
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://inkwell.example/hubs/T?page=2" });
    expect(content("og:url").content).toBe("https://inkwell.example/hubs/T?page=2");
    expect(content("og:image").content).toBe("https://inkwell.example/og-default.png");
    expect(content("twitter:card").content).toBe("summary_large_image");
    expect(content("og:description").content).toMatch(/^Read comics and manga/);
    const withLogo = socialMeta(matches, {
      title: "T",
      path: "/hubs/T",
      images: [
        { id: null, wide: true },
        { id: 9, wide: false },
      ],
    });
    expect(withLogo).toContainEqual({ property: "og:image", content: "https://cdn.example/images/9?w=640" });
    expect(withLogo).toContainEqual({ name: "twitter:card", content: "summary" });
  });
});
