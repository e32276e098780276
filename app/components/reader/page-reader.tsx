import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { pageHref, PRELOAD_AHEAD, STAGE_ID } from "../../lib/reader.ts";
import { ArrowLeftIcon, ArrowRightIcon } from "../icons.tsx";
import { PageImage, PreloadPages, type ReaderPage } from "./page-image.tsx";
import { isTypingOrModified } from "./strip-reader.tsx";

/** Height kept below the page for its controls, so page and controls fit one screen. */
const CONTROLS = "76px";

/** The width a page is shown at: the whole width, unless the screen's height limits it. */
const fitWidth = (page: ReaderPage) => `min(100%, calc((100svh - ${CONTROLS}) * ${(page.width / page.height).toFixed(4)}))`;
// `sizes` says the same with a media condition (browsers do not all take min() there): on a screen
// narrower than the page's shape the width limits it, else the height.
const sizesFor = (page: ReaderPage) =>
  `(max-aspect-ratio: ${page.width}/${page.height}) 100vw, calc((100vh - ${CONTROLS}) * ${(page.width / page.height).toFixed(4)})`;

/**
 * One page at a time, fitted to the screen. Tap (or click) the left part for the previous page,
 * the right part for the next; the arrow keys and a swipe do the same. These are links to
 * `?page=N`, so they work without JavaScript; with it they change the page without a reload.
 * The next pages are preloaded. Past the last page comes the next chapter.
 */
export function PageReader({
  pages,
  page,
  search,
  nextChapterHref,
  endHref,
}: {
  pages: ReaderPage[];
  page: number;
  search: string;
  nextChapterHref: string | null;
  endHref: string;
}) {
  const navigate = useNavigate();
  const total = pages.length;
  const current = pages[page - 1]!;
  const prevHref = page > 1 ? pageHref(search, page - 1) : null;
  const last = page >= total;
  const nextHref = !last ? pageHref(search, page + 1) : (nextChapterHref ?? endHref);
  const go = useRef<(direction: 1 | -1) => void>(() => {});
  go.current = (direction) => {
    const to = direction === 1 ? nextHref : prevHref;
    if (!to) return;
    // Turning pages within the chapter replaces the history entry: Back leaves the chapter.
    navigate(to, { replace: !(last && direction === 1), preventScrollReset: true });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingOrModified(e)) return;
      if (e.key === "ArrowRight") go.current(1);
      else if (e.key === "ArrowLeft") go.current(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // A horizontal swipe turns the page (one finger only: two are a pinch-zoom).
  const touch = useRef<{ x: number; y: number } | null>(null);
  const onTouchStart = (e: React.TouchEvent) => {
    touch.current = e.touches.length === 1 ? { x: e.touches[0]!.clientX, y: e.touches[0]!.clientY } : null;
  };
  const onTouchEnd = (e: React.TouchEvent) => {
    const start = touch.current;
    touch.current = null;
    const end = e.changedTouches[0];
    if (!start || !end || (window.visualViewport?.scale && window.visualViewport.scale > 1.05)) return;
    const dx = end.clientX - start.x;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(end.clientY - start.y)) go.current(dx < 0 ? 1 : -1);
  };

  return (
    <section className="stage" id={STAGE_ID} aria-label="Single page reader">
      <div className="stage__frame" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        <PageImage
          key={`${current.imageId}-${page}`}
          page={current}
          number={page}
          total={total}
          sizes={sizesFor(current)}
          eager
          priority
          className="stage__page"
          style={{ width: fitWidth(current), aspectRatio: `${current.width} / ${current.height}` }}
        />
        {/* Tap zones: the same targets as the buttons below, so hidden from assistive technology. */}
        {prevHref ? (
          <Link to={prevHref} replace preventScrollReset className="tap-zone tap-zone--prev" tabIndex={-1} aria-hidden="true">
            <ArrowLeftIcon size={28} />
          </Link>
        ) : null}
        <Link to={nextHref} replace={!last} preventScrollReset className="tap-zone tap-zone--next" tabIndex={-1} aria-hidden="true">
          <ArrowRightIcon size={28} />
        </Link>
      </div>
      <nav className="stage__controls" aria-label="Pages">
        {prevHref ? (
          <Link to={prevHref} replace preventScrollReset className="button button--dark" rel="prev">
            <ArrowLeftIcon /> <span className="stage__label">Previous page</span>
          </Link>
        ) : (
          <span className="button button--dark is-disabled" aria-disabled="true">
            <ArrowLeftIcon /> <span className="stage__label">Previous page</span>
          </span>
        )}
        <span className="stage__status" aria-live="polite">
          Page {page} of {total}
        </span>
        {!last ? (
          <Link to={nextHref} replace preventScrollReset className="button button--dark" rel="next">
            <span className="stage__label">Next page</span> <ArrowRightIcon />
          </Link>
        ) : nextChapterHref ? (
          <Link to={nextChapterHref} className="button button--primary" prefetch="render">
            <span>Next Chapter</span> <ArrowRightIcon />
          </Link>
        ) : (
          <span className="button button--dark is-disabled" aria-disabled="true">
            <span className="stage__label">Next page</span> <ArrowRightIcon />
          </span>
        )}
      </nav>
      <PreloadPages pages={pages.slice(page, page + PRELOAD_AHEAD)} sizes={sizesFor} />
    </section>
  );
}
