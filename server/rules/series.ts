import { z } from "zod";
import { ENTITY_DESCRIPTION_MAX, ENTITY_NAME_MAX, namedEntityBodies } from "./named-entity.ts";
import { PagingQuery, SearchQuery } from "./paging.ts";

export const SERIES_NAME_MAX = ENTITY_NAME_MAX;
export const SERIES_DESCRIPTION_MAX = ENTITY_DESCRIPTION_MAX;

/** A series' metadata (docs/api.md "Series metadata and browsing"). */
export const SERIES_STATUSES = ["ongoing", "completed", "hiatus"] as const;
export const CONTENT_RATINGS = ["general", "teen", "mature"] as const;
export const READING_DIRECTIONS = ["vertical", "ltr", "rtl"] as const;
export const SERIES_SORTS = ["new", "popular", "updated"] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];
export type ContentRating = (typeof CONTENT_RATINGS)[number];
export type ReadingDirection = (typeof READING_DIRECTIONS)[number];
export type SeriesSort = (typeof SERIES_SORTS)[number];

export const TAGS_MAX = 10;
export const TAG_LENGTH_MAX = 30;
export const TAGS_COUNT_MESSAGE = `A series can have at most ${TAGS_MAX} tags`;
export const TAG_TEXT_MESSAGE = `Each tag must be 1 to ${TAG_LENGTH_MAX} characters of letters, digits, spaces, - and '`;

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\u00a0" || c === "\u3000";
// One code point at a time: nothing here can backtrack.
const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;
const isTagChar = (c: string) => c === " " || c === "-" || c === "'" || LETTER_OR_DIGIT.test(c);

/** One tag as stored: trimmed, inner runs of spaces collapsed to one, lowercased (one pass, no regex over the text). */
export function normalizeTag(raw: string): string {
  let out = "";
  let pendingSpace = false;
  for (const c of raw.normalize("NFC")) {
    if (isSpace(c)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += " ";
    pendingSpace = false;
    out += c;
  }
  return out.toLowerCase();
}

/** Whether a normalized tag is 1 to 30 characters of letters, digits, spaces, - and '. */
export function isValidTag(tag: string): boolean {
  const chars = Array.from(tag);
  return chars.length >= 1 && chars.length <= TAG_LENGTH_MAX && chars.every(isTagChar);
}

/** Normalized, in the order given, repeats dropped. */
export function normalizeTags(raw: readonly string[]): string[] {
  return [...new Set(raw.map(normalizeTag))];
}

// More raw entries than this can never make 10 tags worth reading; a longer one is never a valid tag.
const RAW_TAGS_MAX = 100;
const RAW_TAG_LENGTH_MAX = 1000;

/** The `tags` field: a list of text, normalized, then 0 to 10 valid tags (one field error on `tags`). */
export const Tags = z
  .array(z.string({ error: "Tags must be text" }).max(RAW_TAG_LENGTH_MAX, TAG_TEXT_MESSAGE), { error: "Tags must be a list of text" })
  .max(RAW_TAGS_MAX, TAGS_COUNT_MESSAGE)
  .transform(normalizeTags)
  .superRefine((tags, ctx) => {
    if (tags.length > TAGS_MAX) ctx.addIssue({ code: "custom", message: TAGS_COUNT_MESSAGE });
    else if (!tags.every(isValidTag)) ctx.addIssue({ code: "custom", message: TAG_TEXT_MESSAGE });
  });

const oneOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: `${label} must be one of ${values.join(", ")}` });

export const SeriesStatusField = oneOf(SERIES_STATUSES, "Status");
export const ContentRatingField = oneOf(CONTENT_RATINGS, "Content rating");
export const ReadingDirectionField = oneOf(READING_DIRECTIONS, "Reading direction");

const bodies = namedEntityBodies("Series");

/** Creating: absent metadata takes the defaults (no tags, ongoing, general, vertical). */
export const SeriesBody = bodies.create.extend({
  tags: Tags.default([]),
  status: SeriesStatusField.default("ongoing"),
  contentRating: ContentRatingField.default("general"),
  readingDirection: ReadingDirectionField.default("vertical"),
});
export type SeriesInput = z.infer<typeof SeriesBody>;

/**
 * Editing: the first product's edit form sends only `name` (docs/api.md §5), so an absent description,
 * logo, banner, tags, status, rating or direction is kept; null clears the description and images.
 */
export const SeriesEditBody = bodies.edit.extend({
  tags: Tags.optional(),
  status: SeriesStatusField.optional(),
  contentRating: ContentRatingField.optional(),
  readingDirection: ReadingDirectionField.optional(),
});
export type SeriesEditInput = z.infer<typeof SeriesEditBody>;

/** `tag` may repeat (all must match); each is normalized as a series' tags are. */
const TagFilter = z
  .union([z.string(), z.array(z.string({ error: "tag must be text" }))], { error: "tag must be text" })
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .pipe(z.array(z.string().max(RAW_TAG_LENGTH_MAX, TAG_TEXT_MESSAGE)).max(TAGS_MAX, `At most ${TAGS_MAX} tags can be combined`))
  .transform(normalizeTags)
  .refine((tags) => tags.every(isValidTag), TAG_TEXT_MESSAGE)
  .optional();

const queryEnum = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` }).optional();

/** The filters every series list takes: tags (all must match), status and rating. */
const filterShape = {
  tag: TagFilter,
  status: queryEnum(SERIES_STATUSES, "status"),
  rating: queryEnum(CONTENT_RATINGS, "rating"),
};
const sortShape = { sort: queryEnum(SERIES_SORTS, "sort") };

export const SeriesListQuery = PagingQuery.extend({ ...filterShape, ...sortShape });
export const SeriesTopQuery = PagingQuery.extend(filterShape);
export const SeriesSearchQuery = SearchQuery.extend({ ...filterShape, ...sortShape });
export type SeriesListQuery = z.infer<typeof SeriesListQuery>;
export type SeriesSearchQuery = z.infer<typeof SeriesSearchQuery>;

/** What a list keeps: every filter given (absent ones match everything). */
export interface SeriesFilters {
  tags: string[];
  status?: SeriesStatus;
  rating?: ContentRating;
}

export const filtersOf = (q: { tag?: string[]; status?: SeriesStatus; rating?: ContentRating }): SeriesFilters => ({
  tags: q.tag ?? [],
  ...(q.status ? { status: q.status } : {}),
  ...(q.rating ? { rating: q.rating } : {}),
});
