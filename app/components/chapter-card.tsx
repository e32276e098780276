import { Link } from "./link.tsx";
import type { ChapterSummary } from "../../server/rules/api-responses.ts";
import { formatDate, likesLabel, plural } from "../lib/format.ts";
import { chapterPath } from "../lib/urls.ts";
import { removedText } from "../lib/removal.ts";
import { CheckIcon, HeartIcon } from "./icons.tsx";
import { gradientFor, ImagesThroughSession, useImageUrl } from "./images.tsx";

/** 'Chapter N: title', as docs/web.md §3 writes it on cards and in the reader. */
export const chapterLabel = (chapter: { number: number; title: string }) => `Chapter ${chapter.number}: ${chapter.title}`;

/** A chapter's cover as a small portrait thumbnail, or the series' gradient with the number. */
export function ChapterCover({
  seriesName,
  number,
  coverId,
  width = 96,
  className = "",
}: {
  seriesName: string;
  number: number;
  coverId: number | null;
  width?: number;
  className?: string;
}) {
  const url = useImageUrl();
  const height = Math.round((width * 4) / 3);
  if (!coverId) {
    return (
      <span
        className={`chapter-cover chapter-cover--fallback ${className}`}
        style={{ backgroundImage: gradientFor(seriesName), width, height }}
        aria-hidden="true"
      >
        {number}
      </span>
    );
  }
  return (
    <img
      className={`chapter-cover ${className}`}
      src={url(coverId, width * 2)}
      srcSet={`${url(coverId, width)} 1x, ${url(coverId, width * 2)} 2x`}
      width={width}
      height={height}
      alt=""
      loading="lazy"
      decoding="async"
    />
  );
}

/** A chapter in a series' list: cover, 'Chapter N: title', description, likes and date. */
export function ChapterCard({ chapter }: { chapter: ChapterSummary }) {
  return (
    <article className="card chapter-row">
      {/* A removed chapter's cover, when shown at all, is for those who may see it: through their session (decision 025). */}
      <ImagesThroughSession.Provider value={chapter.removed !== null}>
        <ChapterCover seriesName={chapter.seriesName} number={chapter.number} coverId={chapter.coverId} />
      </ImagesThroughSession.Provider>
      <div className="chapter-row__body">
        <h3 className="card__title">
          <Link to={chapterPath(chapter.seriesName, chapter.number)} className="card__link" prefetch="intent">
            {chapterLabel(chapter)}
          </Link>
        </h3>
        {chapter.removed ? <p className="card__text">{removedText(chapter.removed.reason)}</p> : null}
        {chapter.description ? <p className="card__text clamp-2">{chapter.description}</p> : null}
        <p className="meta">
          <span className="meta__item">
            <HeartIcon size={16} filled={chapter.likedByMe} /> {chapter.likes} {likesLabel(chapter.likes)}
          </span>
          <span className="meta__item">{plural(chapter.commentCount, "comment")}</span>
          <time className="meta__item" dateTime={chapter.date}>
            {formatDate(chapter.date)}
          </time>
          <span className="meta__item">{plural(chapter.pageCount, "page")}</span>
          {chapter.readByMe ? <ReadMark /> : null}
        </p>
      </div>
    </article>
  );
}

/** A chapter list's read marker: a visible word, not a colour only. */
function ReadMark() {
  return (
    <span className="meta__item read-mark">
      <CheckIcon size={16} /> Read
    </span>
  );
}
