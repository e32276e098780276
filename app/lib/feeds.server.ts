import { createApi } from "./api.server.ts";
import { atomResponse, tagUri, type AtomEntry } from "./atom.server.ts";
import type { WebContext } from "./context.ts";
import { attempt } from "./load.server.ts";
import { absoluteUrl, cardImageUrl, SITE_NAME } from "./social-meta.ts";
import { chapterPath, hubPath, postPath, seriesPath, userPath } from "./urls.ts";

/** Entries in a feed (docs/web.md "Feeds, sitemap and cards"): the latest 20 chapters or posts, removed ones left out. */
export const FEED_ENTRIES = 20;

/** A feed's failure: 404 for an unknown (or removed) series or hub, 502 when the API failed. */
function failed(status: number, what: string): Response {
  const notFound = status === 404;
  return new Response(notFound ? `No ${what} found.` : `Failed to load the ${what}'s feed.`, {
    status: notFound ? 404 : 502,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" },
  });
}

const newest = (dates: string[], fallback: string) => dates.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a), fallback);

/**
 * The feeds read the API as a guest (no token, whoever asks): a feed is the same for everyone and never holds what
 * only its author or moderators may see.
 */
const guestApi = (request: Request, context: WebContext) => createApi(context, { signal: request.signal });

/** /series/{name}/feed.atom: the series' latest chapters, newest first. */
export async function seriesFeed(request: Request, context: WebContext, name: string): Promise<Response> {
  const api = guestApi(request, context);
  const [series, chapters] = await Promise.all([attempt(api.series(name)), attempt(api.chapters(name, "latest", 1, FEED_ENTRIES))]);
  if (!series.ok) throw failed(series.status, "series");
  if (series.value.removed) throw failed(404, "series");
  if (!chapters.ok) throw failed(chapters.status === 404 ? 502 : chapters.status, "series");
  const { publicUrl: origin, imagePublicUrl } = context.config;
  const s = series.value;
  const author = { name: s.authorName, uri: absoluteUrl(origin, userPath(s.authorName)) };
  const entries: AtomEntry[] = chapters.value.content
    .filter((c) => c.removed === null)
    .map((c) => ({
      id: tagUri(origin, "chapter", c.id),
      title: `Chapter ${c.number}: ${c.title}`,
      url: absoluteUrl(origin, chapterPath(s.name, c.number)),
      updated: c.date,
      published: c.date,
      summary: c.description,
      author,
    }));
  return atomResponse({
    id: tagUri(origin, "series", s.id),
    title: `${s.name} · ${SITE_NAME}`,
    subtitle: s.description,
    selfUrl: absoluteUrl(origin, `${seriesPath(s.name)}/feed.atom`),
    pageUrl: absoluteUrl(origin, seriesPath(s.name)),
    updated: newest(
      entries.map((e) => e.updated),
      s.createdAt,
    ),
    author,
    icon: s.profileImageId ? cardImageUrl(imagePublicUrl, s.profileImageId, false) : undefined,
    entries,
  });
}

/** /hubs/{name}/feed.atom: the hub's latest posts, newest first. */
export async function hubFeed(request: Request, context: WebContext, name: string): Promise<Response> {
  const api = guestApi(request, context);
  const [hub, posts] = await Promise.all([attempt(api.hub(name)), attempt(api.hubPosts(name, "latest", 1, false, FEED_ENTRIES))]);
  if (!hub.ok) throw failed(hub.status, "hub");
  if (hub.value.removed) throw failed(404, "hub");
  if (!posts.ok) throw failed(posts.status === 404 ? 502 : posts.status, "hub");
  const { publicUrl: origin, imagePublicUrl } = context.config;
  const h = hub.value;
  const entries: AtomEntry[] = posts.value.content
    .filter((p) => p.removed === null)
    .map((p) => ({
      id: tagUri(origin, "post", p.id),
      title: p.title,
      url: absoluteUrl(origin, postPath(h.name, p.id)),
      updated: p.date,
      published: p.date,
      summary: p.description,
      author: { name: p.authorName, uri: absoluteUrl(origin, userPath(p.authorName)) },
    }));
  return atomResponse({
    id: tagUri(origin, "hub", h.id),
    title: `${h.name} · ${SITE_NAME}`,
    subtitle: h.description,
    selfUrl: absoluteUrl(origin, `${hubPath(h.name)}/feed.atom`),
    pageUrl: absoluteUrl(origin, hubPath(h.name)),
    updated: newest(
      entries.map((e) => e.updated),
      h.createdAt,
    ),
    // The hub's creator: the feed's author when an entry has none of its own (RFC 4287 4.1.1).
    author: { name: h.authorName, uri: absoluteUrl(origin, userPath(h.authorName)) },
    icon: h.profileImageId ? cardImageUrl(imagePublicUrl, h.profileImageId, false) : undefined,
    entries,
  });
}
