// Feeds, sitemap, robots.txt and share cards (docs/api.md "Sitemap", docs/web.md "Feeds, sitemap and cards") on the built
// web app over the real API with demo-looking data: the Atom feeds carry every element RFC 4287 requires, every URL
// of every sitemap answers 200, and every public page type carries its cards and canonical link.
import { DOMParser, onWarningStopParsing, type Element } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startWebServer, type WebServer } from "../helpers/web-server.ts";
import { createPost, seedCommunity } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PUBLIC_URL = "https://inkwell.example";
const ATOM = "http://www.w3.org/2005/Atom";
const SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9";
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

let site: WebServer;
let seeded: Awaited<ReturnType<typeof seedCommunity>>;
let removedPost: { id: number; title: string };
const TRICKY = `Tom & Jerry <b>"bold"</b> it's </script><script>alert(1)</script>`;

beforeAll(async () => {
  site = await startWebServer({ env: { PUBLIC_URL } });
  seeded = await seedCommunity(site.api);
  const { artist, hubs } = seeded;
  // A second chapter whose description needs escaping everywhere, and a removed post.
  const page = (await site.api.request.get("/series/Moonlit%20Ronin/1")).body.pages[0].imageId as number;
  const chapter = await site.api.request
    .post("/series/Moonlit%20Ronin/chapters")
    .set(artist.auth)
    .send({ title: "Lanterns & Ledgers", description: TRICKY, pages: [page] });
  expect(chapter.status, JSON.stringify(chapter.body)).toBe(201);
  removedPost = await createPost(site.api, artist, hubs.manga.id, {
    title: "A post the moderators removed",
    description: "Secret words",
    content: "Removed content",
  });
  const removal = await site.api.request
    .post("/moderation/remove")
    .set(artist.auth)
    .send({ subject: { type: "post", id: removedPost.id }, reason: "Off topic" });
  expect(removal.status, JSON.stringify(removal.body)).toBe(200);
});
afterAll(() => site?.close());

/** A public URL (PUBLIC_URL) or a path, fetched from the test's web server. */
const get = (url: string) => {
  const u = new URL(url, PUBLIC_URL);
  return fetch(site.url + u.pathname + u.search, { redirect: "manual" });
};

const parseXml = (xml: string) => new DOMParser({ onError: onWarningStopParsing }).parseFromString(xml, "application/xml");

const childrenOf = (el: Element, name: string, ns = ATOM): Element[] =>
  Array.from(el.childNodes).filter(
    (n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name,
  );

const one = (el: Element, name: string, ns = ATOM): Element => {
  const found = childrenOf(el, name, ns);
  expect(found, `exactly one <${name}> in <${el.localName}>`).toHaveLength(1);
  return found[0]!;
};

const isAbsoluteIri = (text: string) => /^[a-z][a-z0-9+.-]*:/i.test(text) && URL.canParse(text);
const expectDate = (text: string) => {
  expect(text).toMatch(RFC3339);
  expect(Number.isNaN(Date.parse(text))).toBe(false);
};

interface ParsedEntry {
  id: string;
  title: string;
  updated: string;
  link: string;
  summary: string | null;
  author: string;
}

/**
 * Checks what RFC 4287 requires of a feed and its entries, answering the entries: atom:feed with one id (an absolute
 * IRI), title and updated (RFC 3339), a link rel=self, an author unless every entry has one; each entry with one id,
 * title and updated, and a link rel=alternate (it has no content). Every link is absolute here.
 */
function checkAtom(xml: string): { title: string; selfLink: string; pageLink: string; entries: ParsedEntry[] } {
  const feed = parseXml(xml).documentElement!;
  expect(feed.namespaceURI).toBe(ATOM);
  expect(feed.localName).toBe("feed");
  expect(isAbsoluteIri(one(feed, "id").textContent!)).toBe(true);
  const title = one(feed, "title").textContent!;
  expect(title.length).toBeGreaterThan(0);
  expectDate(one(feed, "updated").textContent!);
  const links = childrenOf(feed, "link");
  const self = links.filter((l) => l.getAttribute("rel") === "self");
  expect(self).toHaveLength(1);
  const alternates = links.filter((l) => l.getAttribute("rel") === "alternate" && l.getAttribute("type") === "text/html");
  expect(alternates).toHaveLength(1);
  for (const link of links) expect(isAbsoluteIri(link.getAttribute("href")!)).toBe(true);
  const feedAuthors = childrenOf(feed, "author");
  const entries = childrenOf(feed, "entry").map((entry): ParsedEntry => {
    const id = one(entry, "id").textContent!;
    expect(isAbsoluteIri(id)).toBe(true);
    const updated = one(entry, "updated").textContent!;
    expectDate(updated);
    for (const published of childrenOf(entry, "published")) expectDate(published.textContent!);
    const alternate = childrenOf(entry, "link").filter((l) => (l.getAttribute("rel") ?? "alternate") === "alternate");
    expect(alternate.length).toBeGreaterThanOrEqual(1);
    expect(isAbsoluteIri(alternate[0]!.getAttribute("href")!)).toBe(true);
    const authors = childrenOf(entry, "author");
    if (feedAuthors.length === 0) expect(authors.length).toBeGreaterThanOrEqual(1);
    for (const author of [...authors, ...feedAuthors]) expect(one(author, "name").textContent!.length).toBeGreaterThan(0);
    const summary = childrenOf(entry, "summary")[0];
    return {
      id,
      title: one(entry, "title").textContent!,
      updated,
      link: alternate[0]!.getAttribute("href")!,
      summary: summary ? summary.textContent : null,
      author: one(authors[0] ?? feedAuthors[0]!, "name").textContent!,
    };
  });
  // Feeds without entries still name their author (RFC 4287 4.1.1).
  if (entries.length === 0) expect(feedAuthors.length).toBeGreaterThanOrEqual(1);
  return { title, selfLink: self[0]!.getAttribute("href")!, pageLink: alternates[0]!.getAttribute("href")!, entries };
}

async function atomOf(path: string) {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
  return checkAtom(await res.text());
}

describe("Atom feeds", () => {
  it("a series' feed is Atom 1.0: its chapters newest first as 'Chapter N: title', linking to the chapter, with the artist", async () => {
    const feed = await atomOf("/series/Moonlit%20Ronin/feed.atom");
    expect(feed.title).toBe("Moonlit Ronin · Inkwell");
    expect(feed.selfLink).toBe(`${PUBLIC_URL}/series/Moonlit%20Ronin/feed.atom`);
    expect(feed.pageLink).toBe(`${PUBLIC_URL}/series/Moonlit%20Ronin`);
    expect(feed.entries.map((e) => e.title)).toEqual(["Chapter 2: Lanterns & Ledgers", "Chapter 1: The Night Market"]);
    expect(feed.entries[0]).toMatchObject({
      link: `${PUBLIC_URL}/series/Moonlit%20Ronin/2`,
      summary: TRICKY,
      author: seeded.artist.username,
    });
    // Ids stay when the series is renamed: they name the chapter, not its address.
    expect(new Set(feed.entries.map((e) => e.id)).size).toBe(2);
    for (const entry of feed.entries) expect(entry.id).toMatch(/^tag:inkwell\.example,2026:chapter:\d+$/);
  });

  it("a hub's feed lists its posts with their authors and leaves out the removed one and its text", async () => {
    const res = await get(`/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/feed.atom`);
    const xml = await res.text();
    const feed = checkAtom(xml);
    expect(feed.entries.map((e) => e.title)).toEqual(["What are you reading this week?", "Monthly art contest: side characters"]);
    expect(feed.entries[1]).toMatchObject({
      link: `${PUBLIC_URL}/hubs/Manga%20Lovers/${seeded.post.id}`,
      summary: "Draw your favourite side character and share it here.",
      author: seeded.artist.username,
    });
    expect(xml).not.toContain("Secret words");
    expect(xml).not.toContain(removedPost.title);
  });

  it("a hub with '&' in its name, and one without posts, still give valid feeds", async () => {
    const inkers = await atomOf(`/hubs/${encodeURIComponent(seeded.hubs.inkers.name)}/feed.atom`);
    expect(inkers.title).toBe("Ink & Brush · Inkwell");
    expect(inkers.entries).toHaveLength(1);
    const empty = await atomOf(`/hubs/${encodeURIComponent(seeded.hubs.webcomics.name)}/feed.atom`);
    expect(empty.entries).toEqual([]);
  });

  it("answers 404 for an unknown series or hub", async () => {
    expect((await get("/series/No%20Such%20Series/feed.atom")).status).toBe(404);
    expect((await get("/hubs/No%20Such%20Hub/feed.atom")).status).toBe(404);
  });
});

const locsOf = (xml: string, container: "sitemapindex" | "urlset") => {
  const root = parseXml(xml).documentElement!;
  expect(root.namespaceURI).toBe(SITEMAP);
  expect(root.localName).toBe(container);
  const items = childrenOf(root, container === "sitemapindex" ? "sitemap" : "url", SITEMAP);
  return items.map((item) => {
    const lastmod = childrenOf(item, "lastmod", SITEMAP)[0];
    if (lastmod) expectDate(lastmod.textContent!);
    return one(item, "loc", SITEMAP).textContent!;
  });
};

describe("sitemap", () => {
  it("is an index of sitemaps whose every URL answers 200: the site's pages, series, chapters, hubs, posts and users", async () => {
    const index = await get("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const sitemaps = locsOf(await index.text(), "sitemapindex");
    expect(sitemaps).toEqual(
      ["pages", "series", "chapters", "hubs", "posts", "users"].map((kind) => `${PUBLIC_URL}/sitemaps/${kind}-1.xml`),
    );
    const urls: string[] = [];
    for (const sitemap of sitemaps) {
      const res = await get(sitemap);
      expect(res.status, sitemap).toBe(200);
      const locs = locsOf(await res.text(), "urlset");
      expect(locs.length).toBeGreaterThan(0);
      expect(locs.length).toBeLessThanOrEqual(50_000);
      urls.push(...locs);
    }
    for (const url of urls) {
      expect(url.startsWith(`${PUBLIC_URL}/`), url).toBe(true);
      expect((await get(url)).status, url).toBe(200);
    }
    const paths = urls.map((u) => new URL(u).pathname);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/",
        "/series",
        "/hubs",
        "/series/Moonlit%20Ronin",
        "/series/Moonlit%20Ronin/2",
        "/hubs/Ink%20%26%20Brush",
        `/hubs/Manga%20Lovers/${seeded.post.id}`,
        `/user/${seeded.reader.username}`,
      ]),
    );
    expect(paths).not.toContain(`/hubs/Manga%20Lovers/${removedPost.id}`);
  });

  it("answers 404 for a sitemap that does not exist or lists nothing", async () => {
    for (const path of ["/sitemaps/posts-2.xml", "/sitemaps/comments-1.xml", "/sitemaps/posts-0.xml", "/sitemaps/pages-2.xml"]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });
});

describe("robots.txt", () => {
  it("allows the public pages, keeps crawlers out of the private ones and names the sitemap index", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await res.text()).split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    for (const path of ["/settings", "/publish", "/uploads", "/notifications", "/login", "/moderation"]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    // Nothing public is disallowed, nor the feed (a guest is sent from it to /login).
    expect(lines.filter((l) => /^Disallow: \/(series|hubs|user|feed)\/?$/.test(l))).toEqual([]);
  });
});

/** The <meta> and <link> tags of a page's head, each as its attributes. */
function headTags(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const decode = (v: string) =>
    v.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  const tags = [...head.matchAll(/<(meta|link)\s([^>]*)>/g)].map(([, name, attrs]) => ({
    name: name!,
    attrs: Object.fromEntries([...attrs!.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, decode(v!)])),
  }));
  const meta = (key: string) => tags.find((t) => t.name === "meta" && (t.attrs.property === key || t.attrs.name === key))?.attrs.content;
  const links = (rel: string) => tags.filter((t) => t.name === "link" && t.attrs.rel === rel).map((t) => t.attrs);
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    ([, json]) => JSON.parse(json!) as Record<string, unknown>,
  );
  return { meta, links, jsonLd };
}

async function cardsOf(path: string) {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const head = headTags(html);
  for (const key of ["og:title", "og:description", "og:type", "og:url", "og:image", "og:site_name", "twitter:card", "description"]) {
    expect(head.meta(key), `${path}: ${key}`).toBeTruthy();
  }
  const canonical = head.links("canonical");
  expect(canonical, path).toHaveLength(1);
  expect(head.meta("og:url")).toBe(canonical[0]!.href);
  expect(head.meta("og:site_name")).toBe("Inkwell");
  expect(isAbsoluteIri(head.meta("og:image")!)).toBe(true);
  expect(["summary", "summary_large_image"]).toContain(head.meta("twitter:card"));
  return { ...head, canonical: canonical[0]!.href!, html };
}

describe("share cards", () => {
  it("every public page type carries OpenGraph and Twitter cards with an image and its canonical URL", async () => {
    const hub = seeded.hubs.manga;
    const pages: [string, string][] = [
      ["/", "/"],
      ["/home", "/"],
      ["/series?q=&page=1", "/series"],
      ["/hubs?page=2&q=x", "/hubs?page=2"],
      ["/about", "/about"],
      ["/series/moonlit%20ronin?sort=likes", "/series/Moonlit%20Ronin"],
      ["/series/Moonlit%20Ronin/2?page=3", "/series/Moonlit%20Ronin/2"],
      [`/hubs/${encodeURIComponent(hub.name)}?page=2`, "/hubs/Manga%20Lovers?page=2"],
      [`/hubs/${encodeURIComponent(hub.name)}/${seeded.post.id}`, `/hubs/Manga%20Lovers/${seeded.post.id}`],
      [`/user/${seeded.artist.username}`, `/user/${seeded.artist.username}`],
    ];
    for (const [path, canonical] of pages) expect((await cardsOf(path)).canonical, path).toBe(`${PUBLIC_URL}${canonical}`);
  });

  it("uses the series' banner as a large card, a logo or avatar as a small one, and the site's picture otherwise", async () => {
    const series = await cardsOf("/series/Moonlit%20Ronin");
    expect(series.meta("og:image")).toMatch(new RegExp(`^${site.config.imagePublicUrl}/images/\\d+\\?w=1280$`));
    expect(series.meta("twitter:card")).toBe("summary_large_image");
    const inkers = await cardsOf(`/hubs/${encodeURIComponent(seeded.hubs.inkers.name)}`);
    expect(inkers.meta("og:image")).toMatch(/\/images\/\d+\?w=640$/);
    expect(inkers.meta("twitter:card")).toBe("summary");
    const reader = await cardsOf(`/user/${seeded.reader.username}`);
    expect(reader.meta("og:image")).toBe(`${PUBLIC_URL}/og-default.png`);
    expect(reader.meta("twitter:card")).toBe("summary_large_image");
    expect((await get("/og-default.png")).status).toBe(200);
  });

  it("links the series and hub pages to their feeds", async () => {
    for (const [path, feed] of [
      ["/series/Moonlit%20Ronin", "/series/Moonlit%20Ronin/feed.atom"],
      [`/hubs/${encodeURIComponent(seeded.hubs.manga.name)}`, "/hubs/Manga%20Lovers/feed.atom"],
    ]) {
      const alternates = (await cardsOf(path!)).links("alternate").filter((l) => l.type === "application/atom+xml");
      expect(alternates).toHaveLength(1);
      expect(alternates[0]!.title).toBeTruthy();
      expect(alternates[0]!.href).toBe(feed);
      expect((await get(feed!)).status).toBe(200);
    }
  });

  it("gives the series page ComicSeries and the chapter page ComicIssue data, with '</script>' unable to end them", async () => {
    const series = await cardsOf("/series/Moonlit%20Ronin");
    expect(series.jsonLd).toEqual([
      expect.objectContaining({
        "@context": "https://schema.org",
        "@type": "ComicSeries",
        name: "Moonlit Ronin",
        url: `${PUBLIC_URL}/series/Moonlit%20Ronin`,
        author: expect.objectContaining({ "@type": "Person", name: seeded.artist.username }),
      }),
    ]);
    const chapter = await cardsOf("/series/Moonlit%20Ronin/2");
    expect(chapter.jsonLd).toEqual([
      expect.objectContaining({
        "@type": "ComicIssue",
        name: "Lanterns & Ledgers",
        issueNumber: 2,
        description: TRICKY,
        datePublished: expect.stringMatching(RFC3339),
        author: expect.objectContaining({ name: seeded.artist.username }),
        isPartOf: { "@type": "ComicSeries", name: "Moonlit Ronin", url: `${PUBLIC_URL}/series/Moonlit%20Ronin` },
      }),
    ]);
    expect(chapter.html).not.toContain("<script>alert(1)</script>");
    expect(chapter.meta("og:description")).toBe(TRICKY);
  });
});
