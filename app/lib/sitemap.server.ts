import { SITEMAP_KINDS, type SitemapEntry, type SitemapKind } from "../../server/rules/sitemap.ts";
import { createApi } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { attempt } from "./load.server.ts";
import { absoluteUrl } from "./social-meta.ts";
import { chapterPath, hubPath, postPath, seriesPath, userPath } from "./urls.ts";
import { xmlText } from "./xml.ts";

const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** The sitemaps' answer: XML, kept by browsers and proxies for a few minutes. */
const XML_HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=300",
};

/** The site's own screens, listed in the `pages` sitemap (the API knows nothing of them). */
export const STATIC_PAGES = ["/", "/series", "/hubs", "/about", "/contact"] as const;

/** A sitemap file's kinds: the API's, and the site's own pages. */
type FileKind = SitemapKind | "pages";

/** `/sitemaps/{kind}-{page}.xml` */
export const sitemapFilePath = (kind: FileKind, page: number) => `/sitemaps/${kind}-${page}.xml`;

/** The kind and page of a sitemap file's name, or null: an anchored pattern with disjoint parts (no backtracking). */
export function parseSitemapFile(file: string): { kind: FileKind; page: number } | null {
  const match = /^(series|chapters|hubs|posts|users|pages)-([1-9][0-9]{0,5})\.xml$/.exec(file);
  if (!match) return null;
  return { kind: match[1] as FileKind, page: Number(match[2]) };
}

/** The path of an entry of the API's sitemap page. */
export function entryPath(kind: SitemapKind, [a = "", b = ""]: string[]): string {
  switch (kind) {
    case "series":
      return seriesPath(a);
    case "chapters":
      return chapterPath(a, Number(b));
    case "hubs":
      return hubPath(a);
    case "posts":
      return postPath(a, Number(b));
    case "users":
      return userPath(a);
  }
}

const xmlAnswer = (body: string) => new Response(body, { headers: XML_HEADERS });

const failure = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" } });

/** /sitemap.xml: a sitemap index naming the site's pages and every API sitemap page that lists something. */
export async function sitemapIndex(request: Request, context: WebContext): Promise<Response> {
  const index = await attempt(createApi(context, { signal: request.signal }).sitemapIndex());
  if (!index.ok) throw failure(502, "Failed to load the sitemap.");
  const origin = context.config.publicUrl;
  const files = [sitemapFilePath("pages", 1)];
  for (const kind of SITEMAP_KINDS) {
    for (const page of index.value.kinds.find((k) => k.kind === kind)?.pages ?? []) files.push(sitemapFilePath(kind, page));
  }
  return xmlAnswer(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<sitemapindex xmlns="${SITEMAP_NS}">`,
      ...files.map((path) => `<sitemap><loc>${xmlText(absoluteUrl(origin, path))}</loc></sitemap>`),
      "</sitemapindex>",
    ].join("\n"),
  );
}

const urlset = (origin: string, entries: { path: string; lastmod: string | null }[]) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<urlset xmlns="${SITEMAP_NS}">`,
    ...entries.map(
      (e) => `<url><loc>${xmlText(absoluteUrl(origin, e.path))}</loc>${e.lastmod ? `<lastmod>${xmlText(e.lastmod)}</lastmod>` : ""}</url>`,
    ),
    "</urlset>",
  ].join("\n");

/** /sitemaps/{kind}-{page}.xml: one page (at most 50,000 URLs); 404 for an unknown or empty one. */
export async function sitemapFile(request: Request, context: WebContext, file: string): Promise<Response> {
  const parsed = parseSitemapFile(file);
  if (!parsed) throw failure(404, "No such sitemap.");
  const origin = context.config.publicUrl;
  if (parsed.kind === "pages") {
    if (parsed.page !== 1) throw failure(404, "No such sitemap.");
    return xmlAnswer(
      urlset(
        origin,
        STATIC_PAGES.map((path) => ({ path, lastmod: null })),
      ),
    );
  }
  const kind = parsed.kind;
  const page = await attempt(createApi(context, { signal: request.signal }).sitemapPage(kind, parsed.page));
  if (!page.ok) throw failure(page.status === 400 ? 404 : 502, page.status === 400 ? "No such sitemap." : "Failed to load the sitemap.");
  // An empty page is not listed in the index, and a urlset needs one url (sitemap.xsd).
  if (page.value.items.length === 0) throw failure(404, "No such sitemap.");
  return xmlAnswer(
    urlset(
      origin,
      page.value.items.map((item: SitemapEntry) => ({ path: entryPath(kind, item.parts), lastmod: item.lastmod })),
    ),
  );
}

/**
 * Private screens crawlers are kept out of (docs/web.md "Feeds, sitemap and cards"). Not /feed: a crawler (a guest)
 * is sent from it to /login, kept out below, so a rule changes nothing, and Lighthouse's SEO audit of the signed-in
 * feed (issue 16) counts one as the page being blocked from indexing.
 */
export const ROBOTS_DISALLOWED = [
  "/settings",
  "/profile",
  "/publish",
  "/create",
  "/uploads",
  "/notifications",
  "/login",
  "/register",
  "/verify-email",
  "/unsubscribe",
  "/logout",
  "/moderation",
  "/moderate/",
  "/modlog",
  "/report/",
  "/delete/",
  "/markdown-preview",
  "/comments/",
  "/media/",
  "/user/*/block",
  "/user/*/suspend",
  "/hubs/*/bans",
  "/hubs/*/moderators",
] as const;

/** /robots.txt: the public pages allowed, the private ones not, and the sitemap index by its absolute URL. */
export function robotsTxt(context: WebContext): Response {
  const body = [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOWED.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absoluteUrl(context.config.publicUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
