import { useEffect, useRef, useState } from "react";
import { EAGER_PAGES, pageAnchor, STAGE_ID } from "../../lib/reader.ts";
import { PageImage, type ReaderPage } from "./page-image.tsx";

/** The strip is at most 800 CSS pixels wide (webtoon width), the full width on phones. */
export const STRIP_SIZES = "(min-width: 800px) 800px, 100vw";

/** True when a key press belongs to a text field or carries a modifier (then it is not a page turn). */
export function isTypingOrModified(e: KeyboardEvent): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return true;
  const target = e.target as HTMLElement | null;
  return !!target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/**
 * Every page in one vertical column, webtoon style. The first pages load at once, the rest
 * lazily as the reader scrolls (the browser fetches ahead of the viewport). With JavaScript,
 * the left and right arrow keys jump to the previous and next page, `startAt` scrolls to a page
 * on arrival (from `?page=`), and `onPageChange` reports the page in view.
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
  const currentRef = useRef(startAt);
  const total = pages.length;

  useEffect(() => {
    if (startAt > 1) document.getElementById(pageAnchor(startAt))?.scrollIntoView({ block: "start" });
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The page crossing a line 40% down the viewport is the one being read.
  useEffect(() => {
    if (typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const n = Number((entry.target as HTMLElement).dataset.page);
          currentRef.current = n;
          setCurrent(n);
          onPageChange?.(n);
        }
      },
      { rootMargin: "-40% 0px -60% 0px" },
    );
    document.querySelectorAll<HTMLElement>(".strip [data-page]").forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [pages, onPageChange]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingOrModified(e) || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) return;
      const target = e.key === "ArrowRight" ? currentRef.current + 1 : currentRef.current - 1;
      const el = target > total ? document.getElementById(endId) : target >= 1 ? document.getElementById(pageAnchor(target)) : null;
      if (!el) return;
      e.preventDefault();
      el.scrollIntoView({ block: "start" });
      // The observer reports the new page a little later; a quick second press must already count from it.
      if (target <= total) currentRef.current = target;
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [total, endId]);

  return (
    <section className="strip" id={STAGE_ID} aria-label={`${total} ${total === 1 ? "page" : "pages"}, vertical strip`}>
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
