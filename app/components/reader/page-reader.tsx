import { Link } from "../link.tsx";
import { useEffect, useRef } from "react";
import { STAGE_ID, type ReaderSettings } from "../../lib/reader.ts";
import { pageHref, pairSpreads, PRELOAD_AHEAD, spreadIndex, WIDE_QUERY } from "../../lib/page-spreads.ts";
import { ArrowLeftIcon, ArrowRightIcon } from "../icons.tsx";
import { PageImage, PreloadPages, type ReaderPage } from "./page-image.tsx";
import { attachPaged } from "./reader-input.ts";

/** Height kept below the page for its controls, so page and controls fit one screen (also in reader.css). */
const CONTROLS = "76px";

const ratio = (p: ReaderPage) => p.width / p.height;
const fixed = (n: number) => n.toFixed(4);

/**
 * The `sizes` of a page shown in a group whose widths add up to `spread` (its own ratio when alone):
 * the width its fit gives it, with media conditions where `min()` would do (not every browser takes
 * `min()` in `sizes`).
 */
function sizesIn(page: ReaderPage, spread: number, fit: ReaderSettings["fit"]): string {
  if (fit === "original") return `${page.width}px`;
  const share = `calc(100vw * ${fixed(ratio(page) / spread)})`;
  if (fit === "width") return share;
  return `(max-aspect-ratio: ${Math.round(spread * 1000)}/1000) ${share}, calc((100vh - ${CONTROLS}) * ${fixed(ratio(page))})`;
}

interface Turn {
  href: string;
  /** Turning pages within the chapter replaces the history entry: Back leaves the chapter. */
  replace: boolean;
  /** The next chapter's first page (past the last page), not a page of this one. */
  chapter: boolean;
}

/**
 * One page at a time (or a two-page spread on a wide screen), fitted as the reader chose, turning
 * left to right or right to left. Tap (or click) the part of the page towards the previous page to
 * go back, the rest to go on; the buttons under the page, the arrow keys and a swipe do the same,
 * following the direction. These are links to `?page=N`, so they work without JavaScript; with it
 * they change the page without a reload. This code loads after hydration (lazy-readers.tsx).
 *
 * Spreads: the server does not know the screen, so a spread holds both pages and two sets of links;
 * CSS (WIDE_QUERY) shows the partner page and the spread's links on a wide screen, and on a narrow
 * one only the page at `?page=` with single-page links. Past the last page comes the next chapter.
 */
export function PageReader({
  pages,
  page,
  search,
  nextChapterHref,
  endHref,
  settings,
}: {
  pages: ReaderPage[];
  page: number;
  search: string;
  nextChapterHref: string | null;
  endHref: string;
  settings: ReaderSettings;
}) {
  const { mode, layout, fit, shift } = settings;
  const rtl = mode === "rtl";
  const total = pages.length;
  const stage = useRef<HTMLElement>(null);
  useEffect(() => attachPaged(stage.current!, rtl ? "rtl" : "ltr"), [rtl]);

  const turn = (n: number | null): Turn =>
    n !== null
      ? { href: pageHref(search, n), replace: true, chapter: false }
      : { href: nextChapterHref ?? endHref, replace: false, chapter: !!nextChapterHref };
  const single = { prev: page > 1 ? turn(page - 1) : null, next: turn(page < total ? page + 1 : null) };
  const spreads = layout === "spread" ? pairSpreads(pages, shift) : [[page]];
  const i = layout === "spread" ? spreadIndex(spreads, page) : 0;
  const group = spreads[i]!;
  const spread = layout === "spread" ? { prev: i > 0 ? turn(spreads[i - 1]![0]!) : null, next: turn(spreads[i + 1]?.[0] ?? null) } : null;
  const width = group.reduce((sum, n) => sum + ratio(pages[n - 1]!), 0);
  // The spread's own links only where they differ from single pages'.
  const twoSets = !!spread && (spread.prev?.href !== single.prev?.href || spread.next.href !== single.next.href);
  const sizesOf = (n: number) => {
    const p = pages[n - 1]!;
    const alone = sizesIn(p, ratio(p), fit);
    if (layout !== "spread") return alone;
    const g = spreads[spreadIndex(spreads, n)]!;
    const wide = sizesIn(
      p,
      g.reduce((sum, m) => sum + ratio(pages[m - 1]!), 0),
      fit,
    );
    // `sizes` takes one media condition per entry: the wide screen's entries first, each with WIDE_QUERY.
    return `${wide
      .split(", ")
      .map((entry) => (entry.startsWith("(") ? `${WIDE_QUERY} and ${entry}` : `${WIDE_QUERY} ${entry}`))
      .join(", ")}, ${alone}`;
  };
  const last = group[group.length - 1]!;
  const status = (ns: number[]) => (ns.length > 1 ? `Pages ${ns[0]}–${ns[ns.length - 1]} of ${total}` : `Page ${ns[0]} of ${total}`);

  return (
    <section
      ref={stage}
      className={`stage stage--${mode} stage--fit-${fit}${layout === "spread" ? " stage--spread" : ""}`}
      id={STAGE_ID}
      aria-label={`Page reader, ${rtl ? "right to left" : "left to right"}`}
    >
      <div className="stage__frame" style={{ "--spread": fixed(width) } as React.CSSProperties}>
        {group.map((n) => {
          const p = pages[n - 1]!;
          return (
            <PageImage
              key={`${p.imageId}-${n}`}
              page={p}
              number={n}
              total={total}
              sizes={sizesOf(n)}
              // The partner of a spread shows (and loads) only on a wide screen.
              eager={n === page}
              priority={n === page}
              className={n === page ? "stage__page" : "stage__page stage__page--partner"}
              style={{ "--r": fixed(ratio(p)), "--w": `${p.width}px` } as React.CSSProperties}
            />
          );
        })}
        {twoSets ? (
          <>
            <TapZones turns={single} rtl={rtl} className="only-narrow" />
            <TapZones turns={spread} rtl={rtl} className="only-wide" />
          </>
        ) : (
          <TapZones turns={single} rtl={rtl} />
        )}
      </div>
      {twoSets ? (
        <>
          <Controls turns={single} rtl={rtl} status={status([page])} className="only-narrow" />
          <Controls turns={spread} rtl={rtl} status={status(group)} className="only-wide" />
        </>
      ) : (
        <Controls turns={single} rtl={rtl} status={status(spread ? group : [page])} />
      )}
      <PreloadPages pages={pages.slice(last, last + PRELOAD_AHEAD)} sizes={(p) => sizesOf(pages.indexOf(p) + 1)} />
    </section>
  );
}

type Turns = { prev: Turn | null; next: Turn };

/** Arrows pointing the way a turn goes on the screen: right to left, 'next' points left. */
const arrow = (forward: boolean, rtl: boolean, size?: number) =>
  forward !== rtl ? <ArrowRightIcon size={size} /> : <ArrowLeftIcon size={size} />;

/**
 * Tap zones: 35 % of the page towards the previous page goes back, the rest goes on (right to
 * left, the left part goes on). The same targets as the buttons below, so hidden from assistive
 * technology; the keys and swipes follow them (`data-step`).
 */
function TapZones({ turns, rtl, className = "" }: { turns: Turns; rtl: boolean; className?: string }) {
  return (
    <>
      {turns.prev ? (
        <Link
          to={turns.prev.href}
          replace
          preventScrollReset
          className={`tap-zone tap-zone--prev ${className}`}
          tabIndex={-1}
          aria-hidden="true"
          data-step="prev"
        >
          {arrow(false, rtl, 28)}
        </Link>
      ) : null}
      <Link
        to={turns.next.href}
        replace={turns.next.replace}
        preventScrollReset
        className={`tap-zone tap-zone--next ${className}`}
        tabIndex={-1}
        aria-hidden="true"
        data-step="next"
      >
        {arrow(true, rtl, 28)}
      </Link>
    </>
  );
}

/** Previous page / status / Next page, laid out the way the pages turn (right to left: Next page first). */
function Controls({ turns, rtl, status, className = "" }: { turns: Turns; rtl: boolean; status: string; className?: string }) {
  const { prev, next } = turns;
  // Phones show arrows only for pages (the words stay for screen readers); 'Next Chapter' keeps its words.
  const label = (text: string, forward: boolean, words = "stage__label") =>
    forward !== rtl ? (
      <>
        <span className={words}>{text}</span> {arrow(forward, rtl)}
      </>
    ) : (
      <>
        {arrow(forward, rtl)} <span className={words}>{text}</span>
      </>
    );
  const prevEl = prev ? (
    <Link to={prev.href} replace preventScrollReset className="button button--dark" rel="prev">
      {label("Previous page", false)}
    </Link>
  ) : (
    <span className="button button--dark is-disabled" aria-disabled="true">
      {label("Previous page", false)}
    </span>
  );
  const nextEl = next.chapter ? (
    <Link to={next.href} className="button button--primary" prefetch="render">
      {label("Next Chapter", true, "")}
    </Link>
  ) : next.replace ? (
    <Link to={next.href} replace preventScrollReset className="button button--dark" rel="next">
      {label("Next page", true)}
    </Link>
  ) : (
    <span className="button button--dark is-disabled" aria-disabled="true">
      {label("Next page", true)}
    </span>
  );
  return (
    <nav className={`stage__controls ${className}`} aria-label="Pages">
      {rtl ? nextEl : prevEl}
      <span className="stage__status" aria-live="polite">
        {status}
      </span>
      {rtl ? prevEl : nextEl}
    </nav>
  );
}
