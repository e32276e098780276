import { isValidTag, normalizeTag } from "../../server/rules/series.ts";
import { seriesFilters, type SeriesFilters } from "./series-meta.ts";

/**
 * The series list's filters from the URL (docs/web.md §12), tags normalized as the API stores them; a tag
 * that can be no tag is dropped, so a hand-edited link still lists something rather than failing.
 */
export function seriesFiltersOf(url: URL): SeriesFilters {
  const filters = seriesFilters(url.searchParams);
  const tags = [...new Set(filters.tags.map(normalizeTag))].filter(isValidTag);
  return { ...filters, tags };
}

/** The one tag of `/tags/{tag}`, normalized, or null when it cannot be a tag (a comma, bad characters, too long). */
export function tagOf(raw: string): string | null {
  if (raw.includes(",") || raw.length > 1000) return null;
  const tag = normalizeTag(raw);
  return isValidTag(tag) ? tag : null;
}
