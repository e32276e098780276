import { Link } from "./link.tsx";
import type { ContentRating, ReadingDirection, SeriesStatus } from "../../server/rules/series.ts";
import type { TagCount } from "../../server/rules/api-responses.ts";
import { DIRECTION_LABELS, RATING_LABELS, STATUS_LABELS } from "../lib/series-labels.ts";
import { tagPath } from "../lib/urls.ts";

/** A series' tags as links to their tag pages; with `counts`, each says how many series carry it. */
export function TagLinks({ tags, counts, label = "Tags" }: { tags: readonly string[]; counts?: readonly TagCount[]; label?: string }) {
  if (tags.length === 0) return null;
  const count = (tag: string) => counts?.find((c) => c.name === tag)?.seriesCount;
  return (
    <ul className="tag-list" aria-label={label}>
      {tags.map((tag) => {
        const n = count(tag);
        return (
          <li key={tag}>
            <Link to={tagPath(tag)} className="tag">
              {tag}
              {n !== undefined ? (
                <span className="tag__count">
                  {" "}
                  <span className="visually-hidden">(</span>
                  {n}
                  <span className="visually-hidden"> series)</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

export { SeriesBadges } from "./series-badges.tsx";

/** The series page's facts: status, rating and reading direction as a small definition list. */
export function SeriesFacts({
  status,
  contentRating,
  readingDirection,
}: {
  status: SeriesStatus;
  contentRating: ContentRating;
  readingDirection: ReadingDirection;
}) {
  return (
    <dl className="series-facts">
      <div>
        <dt>Status</dt>
        <dd>{STATUS_LABELS[status]}</dd>
      </div>
      <div>
        <dt>Rating</dt>
        <dd>{RATING_LABELS[contentRating]}</dd>
      </div>
      <div>
        <dt>Reading direction</dt>
        <dd>{DIRECTION_LABELS[readingDirection]}</dd>
      </div>
    </dl>
  );
}

/**
 * What a mature series shows first to a guest or to a reader who has not turned mature series on
 * (docs/web.md §12): why, a Continue link that remembers the choice for this browser session, and
 * for signed-in readers the setting that skips the notice.
 */
export function MatureNotice({ name, continueTo, signedIn }: { name: string; continueTo: string; signedIn: boolean }) {
  return (
    <div className="container page-message mature-notice">
      <p className="eyebrow">Mature content</p>
      <h1>{name}</h1>
      <p>
        Its creator rated this series <strong>Mature</strong>: it is meant for adults and may show violence, nudity or other content not
        suitable for everyone.
      </p>
      <p className="actions">
        <Link to={continueTo} className="button button--primary" rel="nofollow">
          Continue
        </Link>
        <Link to="/series" className="button button--ghost">
          Back to series
        </Link>
      </p>
      {signedIn ? (
        <p className="muted">
          Turn on <Link to="/settings#mature">Show mature series</Link> in your settings to skip this notice and see mature series in lists.
        </p>
      ) : (
        <p className="muted">Mature series are left out of lists for guests; signed-in readers can turn them on in their settings.</p>
      )}
    </div>
  );
}
