// The words the screens show for a series' status, rating, reading direction and the list's sorts: apart from
// series-meta.ts so that cards, on nearly every page, carry these and not the filters' code.
import type { ContentRating, ReadingDirection, SeriesSort, SeriesStatus } from "../../server/rules/series.ts";

export const STATUS_LABELS: Record<SeriesStatus, string> = { ongoing: "Ongoing", completed: "Completed", hiatus: "On hiatus" };
export const RATING_LABELS: Record<ContentRating, string> = { general: "General", teen: "Teen", mature: "Mature" };
export const DIRECTION_LABELS: Record<ReadingDirection, string> = {
  vertical: "Vertical scroll",
  ltr: "Left to right",
  rtl: "Right to left (manga)",
};
export const SORT_LABELS: Record<SeriesSort, string> = { new: "New", popular: "Popular", updated: "Updated" };
