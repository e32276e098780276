// A series' metadata and the series list's filters (docs/api.md "Series metadata and browsing", docs/web.md §12): the words
// the screens show, the form's tag field, and the filters as they live in the URL. Browser and server.

import type { ContentRating, ReadingDirection, SeriesSort, SeriesStatus } from "../../server/rules/series.ts";
import { DIRECTION_LABELS, RATING_LABELS, SORT_LABELS, STATUS_LABELS } from "./series-labels.ts";
import { tagPath } from "./urls.ts";

export type { ContentRating, ReadingDirection, SeriesSort, SeriesStatus };
export type { TagCount } from "../../server/rules/api-responses.ts";

export { DIRECTION_LABELS, RATING_LABELS, SORT_LABELS, STATUS_LABELS };

/** What a new series starts with, as the form preselects it (the API's defaults). */
export const SERIES_META_DEFAULTS = { status: "ongoing", contentRating: "general", readingDirection: "vertical" } as const;

const options = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));
export const STATUS_OPTIONS = options(STATUS_LABELS);
export const RATING_OPTIONS = options(RATING_LABELS);
export const DIRECTION_OPTIONS = options(DIRECTION_LABELS);
export const SORT_OPTIONS = options(SORT_LABELS);

const isKey = <K extends string>(labels: Record<K, string>, v: unknown): v is K =>
  typeof v === "string" && Object.prototype.hasOwnProperty.call(labels, v);

/** Most tags a filter carries (the series' own maximum). */
export const TAG_FILTER_MAX = 10;
/** Longest tag a filter carries (the rules' maximum). */
export const TAG_TEXT_MAX = 30;

/**
 * The tag field's text as tags: split on commas, trimmed, lowercased, empty ones and repeats dropped.
 * No regex: a long input costs one pass. The shared rules then check the count and the lengths.
 */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(",")) {
    const tag = part.trim().toLowerCase();
    if (tag !== "" && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Tags as the form's text. */
export const tagsText = (tags: readonly string[] | undefined | null) => (tags ?? []).join(", ");

/** The series form's text fields, as posted (selects included). */
export const SERIES_META_FIELDS = ["tags", "status", "contentRating", "readingDirection"] as const;

/** The form's metadata strings as the API's body: tags as an array, an empty select left out. */
export function seriesMetaBody(values: Record<(typeof SERIES_META_FIELDS)[number], string>) {
  return {
    tags: parseTags(values.tags),
    status: values.status || undefined,
    contentRating: values.contentRating || undefined,
    readingDirection: values.readingDirection || undefined,
  };
}

/** The series list's filters and order, read from the URL (unknown values are ignored, so any link works). */
export interface SeriesFilters {
  tags: string[];
  status: SeriesStatus | null;
  rating: ContentRating | null;
  sort: SeriesSort;
}

export function seriesFilters(search: URLSearchParams): SeriesFilters {
  const tags: string[] = [];
  for (const raw of search.getAll("tag")) {
    for (const tag of parseTags(raw.slice(0, TAG_FILTER_MAX * (TAG_TEXT_MAX + 2)))) {
      if (tag.length <= TAG_TEXT_MAX && !tags.includes(tag) && tags.length < TAG_FILTER_MAX) tags.push(tag);
    }
  }
  const status = search.get("status");
  const rating = search.get("rating");
  const sort = search.get("sort");
  return {
    tags,
    status: isKey(STATUS_LABELS, status) ? status : null,
    rating: isKey(RATING_LABELS, rating) ? rating : null,
    sort: isKey(SORT_LABELS, sort) ? sort : "new",
  };
}

/** True when any filter narrows the list (the empty message then says so). */
export const filtered = (f: SeriesFilters) => f.tags.length > 0 || f.status !== null || f.rating !== null;

/** The filters as the API's query: `tag` repeated, empty ones left out. */
export function filterQuery(f: SeriesFilters): Record<string, string | string[] | undefined> {
  return { tag: f.tags.length ? f.tags : undefined, status: f.status ?? undefined, rating: f.rating ?? undefined, sort: f.sort };
}

export { tagPath };

/** The current list URL with `tags` (the parsed filter) less `tag`, back to page 1. */
export function withoutTag(search: string, tags: readonly string[], tag: string): string {
  const params = new URLSearchParams(search);
  params.delete("tag");
  params.delete("page");
  // An empty field of the filter form ("Any status") says nothing.
  for (const [key, value] of [...params]) if (value === "") params.delete(key);
  for (const t of tags) if (t !== tag) params.append("tag", t);
  const query = params.toString();
  return query ? `?${query}` : "?";
}
