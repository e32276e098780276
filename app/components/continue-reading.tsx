import { Link } from "./link.tsx";
import type { ContinueReading } from "../../server/rules/progress.ts";
import { plural } from "../lib/format.ts";
import { continueHref, progressLabel } from "../lib/progress.ts";
import { seriesPath } from "../lib/urls.ts";
import { BookIcon } from "./icons.tsx";
import { Logo } from "./images.tsx";

/** The series page's "Continue: Chapter 4, page 7", to the exact page. */
export function ContinueLink({ seriesName, progress }: { seriesName: string; progress: { chapterNumber: number; page: number } }) {
  return (
    <Link to={continueHref(seriesName, progress.chapterNumber, progress.page)} className="button button--primary continue-link">
      <BookIcon /> Continue: {progressLabel(progress.chapterNumber, progress.page)}
    </Link>
  );
}

/** What the list shows of a position: home's loader sends only this. */
export type ContinueReadingItem = Pick<ContinueReading, "chapterNumber" | "page" | "unreadChapters"> & {
  series: Pick<ContinueReading["series"], "id" | "name" | "profileImageId">;
};

/** The home page's "Continue reading": the series in progress, most recently read first. */
export function ContinueReadingList({ items }: { items: ContinueReadingItem[] }) {
  return (
    <ul className="continue-list" role="list">
      {items.map((item) => (
        <li key={item.series.id} className="card continue-list__item">
          <Logo name={item.series.name} imageId={item.series.profileImageId} size={40} />
          <div className="continue-list__body">
            <Link to={continueHref(item.series.name, item.chapterNumber, item.page)} className="card__link continue-list__title">
              {item.series.name}
              <span className="visually-hidden">, continue at</span>
            </Link>
            <p className="meta">
              <span className="meta__item">{progressLabel(item.chapterNumber, item.page)}</span>
              <span className="meta__item">{item.unreadChapters > 0 ? plural(item.unreadChapters, "more chapter") : "Latest chapter"}</span>
              <Link to={seriesPath(item.series.name)} className="meta__item">
                Series page<span className="visually-hidden">: {item.series.name}</span>
              </Link>
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
