import type { MetaDescriptor } from "@remix-run/node";
import type { RootData } from "./root-data.ts";

/** The site's name in cards and titles. */
export const SITE_NAME = "Inkwell";
export const SITE_DESCRIPTION = "Read comics and manga, follow series and join hubs of artists and readers on Inkwell.";
/** The card image of pages without a picture of their own (public/, 1200×630). */
export const DEFAULT_CARD_IMAGE = "/og-default.png";

/** What a page's share card says. */
export interface Card {
  /** The document's <title>. */
  title: string;
  /** og:title; the title without the site's name when absent. */
  cardTitle?: string;
  description?: string | null;
  /** og:type: `website` unless given (`article` for chapters and posts, `profile` for users). */
  type?: "website" | "article" | "profile" | "book";
  /** The canonical path (already encoded, e.g. seriesPath(name)): the page's address without its query. */
  path: string;
  /** A paged list's page: kept in the canonical URL past the first page (the only query kept). */
  page?: number;
  /**
   * The page's picture, first one present wins: an image id (`wide`: a banner, shown as a large card) or none,
   * when the site's default picture is used.
   */
  images?: ({ id: number | null | undefined; wide: boolean } | null | undefined)[];
  /** schema.org data, written as <script type="application/ld+json"> (Remix escapes `<`, so `</script>` cannot end it). */
  jsonLd?: Record<string, unknown>;
}

export interface MatchLike {
  id: string;
  data?: unknown;
}

/**
 * The root's origins in the shape `socialMeta` reads them, for a loader (`context.config`): routes build their tags in
 * their loaders (app/lib/loader-meta.ts), so this module never reaches the browser.
 */
export const originsOf = (config: { publicUrl: string; imagePublicUrl: string }): readonly MatchLike[] => [
  { id: "root", data: { publicUrl: config.publicUrl, imagePublicUrl: config.imagePublicUrl } },
];

/** The root loader's data among a meta function's matches (Remix v2 `meta` gets no parent tags, only their data). */
export function rootDataOf(matches: readonly MatchLike[]): RootData | undefined {
  return matches.find((m) => m.id === "root")?.data as RootData | undefined;
}

const ABSOLUTE = /^https?:\/\//i;

/** `path` (or an absolute URL) on the site's public origin. */
export function absoluteUrl(origin: string, path: string): string {
  return ABSOLUTE.test(path) ? path : `${origin}${path.startsWith("/") ? "" : "/"}${path}`;
}

/** The canonical URL: the origin and path, and `?page=N` only for a paged list past its first page. */
export function canonicalUrl(origin: string, path: string, page?: number): string {
  const base = absoluteUrl(origin, path);
  return page !== undefined && Number.isInteger(page) && page > 1 ? `${base}?page=${page}` : base;
}

/** An image's public URL at a width suited to a card (the API sends the original when it is narrower). */
export const cardImageUrl = (imagePublicUrl: string, id: number, wide: boolean) => `${imagePublicUrl}/images/${id}?w=${wide ? 1280 : 640}`;

/** Descriptions are shown as one or two lines by the sites that read cards. */
const CARD_DESCRIPTION_MAX = 300;
export function shortDescription(text: string | null | undefined): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length <= CARD_DESCRIPTION_MAX ? flat : `${flat.slice(0, CARD_DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/**
 * Every tag a public page's <head> needs to be shared and indexed: the title, the description, the canonical link,
 * OpenGraph and Twitter card tags with an absolute image URL, and schema.org data when given. Each public route's
 * `meta` calls this with its loader's data and `matches` (for the root's origins).
 */
export function socialMeta(matches: readonly MatchLike[], card: Card): MetaDescriptor[] {
  const root = rootDataOf(matches);
  const origin = root?.publicUrl ?? "";
  const imageOrigin = root?.imagePublicUrl ?? "";
  const url = canonicalUrl(origin, card.path, card.page);
  const picked = (card.images ?? []).find((image) => image?.id);
  const image = picked?.id ? cardImageUrl(imageOrigin, picked.id, picked.wide) : absoluteUrl(origin, DEFAULT_CARD_IMAGE);
  // The default picture is wide (1200×630) too.
  const wide = picked ? picked.wide : true;
  const description = shortDescription(card.description) || SITE_DESCRIPTION;
  const cardTitle = card.cardTitle ?? card.title;
  const tags: MetaDescriptor[] = [
    { title: card.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: card.type ?? "website" },
    { property: "og:title", content: cardTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: wide ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: cardTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (card.jsonLd) tags.push({ "script:ld+json": card.jsonLd });
  return tags;
}

interface SeriesLike {
  id: number;
  name: string;
  description: string;
  authorName: string;
  createdAt: string;
  profileImageId: number | null;
  profileBannerId: number | null;
}

interface ChapterLike {
  number: number;
  title: string;
  description: string;
  date: string;
  coverId: number | null;
  authorName: string;
  seriesName: string;
}

const personLd = (origin: string, username: string, path: string) => ({
  "@type": "Person",
  name: username,
  url: absoluteUrl(origin, path),
});

/** schema.org `ComicSeries` of a series page. `paths`: the series' and its author's (app/lib/urls.ts). */
export function comicSeriesLd(
  matches: readonly MatchLike[],
  series: SeriesLike,
  paths: { series: string; author: string },
): Record<string, unknown> {
  const root = rootDataOf(matches);
  const origin = root?.publicUrl ?? "";
  const imageId = series.profileBannerId ?? series.profileImageId;
  return {
    "@context": "https://schema.org",
    "@type": "ComicSeries",
    name: series.name,
    ...(series.description ? { description: shortDescription(series.description) } : {}),
    url: absoluteUrl(origin, paths.series),
    author: personLd(origin, series.authorName, paths.author),
    startDate: series.createdAt,
    ...(imageId ? { image: cardImageUrl(root?.imagePublicUrl ?? "", imageId, series.profileBannerId !== null) } : {}),
  };
}

/** schema.org `ComicIssue` of a chapter page: part of its series, with its number, date and author. */
export function comicIssueLd(
  matches: readonly MatchLike[],
  chapter: ChapterLike,
  paths: { chapter: string; series: string; author: string },
): Record<string, unknown> {
  const root = rootDataOf(matches);
  const origin = root?.publicUrl ?? "";
  return {
    "@context": "https://schema.org",
    "@type": "ComicIssue",
    name: chapter.title,
    issueNumber: chapter.number,
    ...(chapter.description ? { description: shortDescription(chapter.description) } : {}),
    url: absoluteUrl(origin, paths.chapter),
    datePublished: chapter.date,
    author: personLd(origin, chapter.authorName, paths.author),
    isPartOf: { "@type": "ComicSeries", name: chapter.seriesName, url: absoluteUrl(origin, paths.series) },
    ...(chapter.coverId ? { image: cardImageUrl(root?.imagePublicUrl ?? "", chapter.coverId, false) } : {}),
  };
}

/** The `<link rel="alternate">` of a page's Atom feed, as a meta descriptor (a route's `links` cannot read its data). */
export const feedLinkTag = (path: string, title: string): MetaDescriptor => ({
  tagName: "link",
  rel: "alternate",
  type: "application/atom+xml",
  title,
  href: `${path}/feed.atom`,
});
