import { useEffect, useRef, useState } from "react";
import { EAGER_PAGES, pageAnchor, STAGE_ID } from "../../lib/reader.ts";
import { PageImage, type ReaderPage } from "./page-image.tsx";
import { attachStrip, restoringPosition } from "./reader-input.ts";

/** The strip is at most 800 CSS pixels wide (webtoon width), the full width on phones. */
export const STRIP_SIZES = "(min-width: 800px) 800px, 100vw";

/**
 * Every page in one vertical column, webtoon style. Each page keeps its space before it loads
 * (width, height and aspect-ratio), so nothing moves while pages arrive. The first pages load at
 * once, the rest lazily as the reader scrolls (the browser fetches ahead of the viewport). This
 * code loads after hydration (lazy-readers.tsx); then (reader-input.ts) the left and right arrow keys jump to the previous and next page,
 * `startAt` scrolls to a page on arrival (from `?page=`; not on a reload, which keeps its place),
 * and `onPageChange` reports the page in view.
 */
export function StripReader({
  pages,
  startAt,
  endId,
  onPageChange,
}: {
  pages: ReaderPage[];
  startAt: number;
  endId: string;
  onPageChange?: (n: number) => void;
}) {
  const [current, setCurrent] = useState(startAt);
  const strip = useRef<HTMLElement>(null);
  const arrived = useRef(false);
  const total = pages.length;

  useEffect(() => {
    if (!arrived.current) {
      arrived.current = true;
      if (startAt > 1 && !restoringPosition()) document.getElementById(pageAnchor(startAt))?.scrollIntoView({ block: "start" });
    }
    return attachStrip(strip.current!, total, endId, startAt, (n) => {
      setCurrent(n);
      onPageChange?.(n);
    });
    // `startAt` counts on arrival only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pages, total, endId, onPageChange]);

  return (
    <section ref={strip} className="strip" id={STAGE_ID} aria-label={`${total} ${total === 1 ? "page" : "pages"}, vertical strip`}>
      {pages.map((page, i) => (
        <div key={`${page.imageId}-${i}`} className="strip__page" data-page={i + 1}>
          <PageImage
            id={pageAnchor(i + 1)}
            page={page}
            number={i + 1}
            total={total}
            sizes={STRIP_SIZES}
            eager={i < EAGER_PAGES}
            priority={i === 0}
          />
        </div>
      ))}
      <p className="strip__progress" aria-hidden="true">
        {current} / {total}
      </p>
    </section>
  );
}
