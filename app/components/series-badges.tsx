import type { ContentRating, SeriesStatus } from "../../server/rules/series.ts";
import { RATING_LABELS, STATUS_LABELS } from "../lib/series-labels.ts";

/** Status and content rating as two compact badges (a General rating says nothing, so it shows none). */
export function SeriesBadges({ status, contentRating }: { status?: SeriesStatus; contentRating?: ContentRating }) {
  if (!status && !contentRating) return null;
  return (
    <span className="badges">
      {status ? <span className={`badge badge--${status}`}>{STATUS_LABELS[status]}</span> : null}
      {contentRating && contentRating !== "general" ? (
        <span className={`badge badge--${contentRating}`}>
          <span className="visually-hidden">Rated </span>
          {RATING_LABELS[contentRating]}
        </span>
      ) : null}
    </span>
  );
}
