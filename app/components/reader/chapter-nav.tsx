import { Link } from "../link.tsx";
import { chapterPath, seriesPath } from "../../lib/urls.ts";
import { ArrowLeftIcon, ArrowRightIcon, BookIcon } from "../icons.tsx";

/**
 * Previous Chapter / the series / Next Chapter (docs/web.md §2). At the ends the button is shown
 * disabled, not hidden, so the row keeps its shape.
 */
export function ChapterNav({
  seriesName,
  previousNumber,
  nextNumber,
  label,
}: {
  seriesName: string;
  previousNumber: number | null;
  nextNumber: number | null;
  label: string;
}) {
  return (
    <nav className="chapter-nav" aria-label={label}>
      {previousNumber !== null ? (
        <Link to={chapterPath(seriesName, previousNumber)} className="button button--ghost chapter-nav__prev" rel="prev" prefetch="intent">
          <ArrowLeftIcon /> <span>Previous Chapter</span>
        </Link>
      ) : (
        <span className="button button--ghost chapter-nav__prev is-disabled" aria-disabled="true">
          <ArrowLeftIcon /> <span>Previous Chapter</span>
        </span>
      )}
      <Link to={seriesPath(seriesName)} className="button button--ghost chapter-nav__series" title={seriesName}>
        <BookIcon /> <span className="chapter-nav__series-name">{seriesName}</span>
      </Link>
      {nextNumber !== null ? (
        <Link to={chapterPath(seriesName, nextNumber)} className="button button--primary chapter-nav__next" rel="next" prefetch="intent">
          <span>Next Chapter</span> <ArrowRightIcon />
        </Link>
      ) : (
        <span className="button button--primary chapter-nav__next is-disabled" aria-disabled="true">
          <span>Next Chapter</span> <ArrowRightIcon />
        </span>
      )}
    </nav>
  );
}
