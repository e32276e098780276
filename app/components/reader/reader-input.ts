// The reader's keys, swipes and page tracking, with the readers in the chunk that loads after
// hydration (lazy-readers.tsx), so the chapter page's own JavaScript stays small; until it arrives
// the reader is its server-rendered links, which work as they do without JavaScript.
import { pageAnchor } from "../../lib/reader.ts";

/** True when a key press belongs to a text field or carries a modifier (then it is not a page turn). */
export function isTypingOrModified(e: KeyboardEvent): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return true;
  const target = e.target as HTMLElement | null;
  return !!target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/**
 * The step an arrow key means: 1 forward, -1 back, 0 none. Right to left, the next page is to the
 * left, so ArrowLeft goes forward; left to right (and in the strip) ArrowRight does.
 */
export function keyStep(key: string, direction: "ltr" | "rtl"): 1 | -1 | 0 {
  if (key !== "ArrowLeft" && key !== "ArrowRight") return 0;
  return (key === "ArrowRight") === (direction === "ltr") ? 1 : -1;
}

/** The step a horizontal swipe of `dx` pixels means: the page follows the finger, so in rtl a swipe to the right goes forward. */
export function swipeStep(dx: number, direction: "ltr" | "rtl"): 1 | -1 {
  return dx < 0 === (direction === "ltr") ? 1 : -1;
}

/**
 * Paged reading: the arrow keys and a one-finger horizontal swipe follow the page links the screen
 * shows (`[data-step]`: the visible set, single page or spread, decides), so they go exactly where a
 * tap would. Answers the clean-up.
 */
export function attachPaged(stage: HTMLElement, direction: "ltr" | "rtl"): () => void {
  const follow = (step: 1 | -1) => {
    const link = [...stage.querySelectorAll<HTMLAnchorElement>(`a[data-step="${step === 1 ? "next" : "prev"}"]`)].find(
      (a) => a.getClientRects().length > 0,
    );
    link?.click();
    return !!link;
  };
  const onKey = (e: KeyboardEvent) => {
    const step = isTypingOrModified(e) ? 0 : keyStep(e.key, direction);
    if (step && follow(step)) e.preventDefault();
  };
  let start: { x: number; y: number } | null = null;
  const onTouchStart = (e: TouchEvent) => {
    start = e.touches.length === 1 ? { x: e.touches[0]!.clientX, y: e.touches[0]!.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const end = e.changedTouches[0];
    const from = start;
    start = null;
    // One finger only (two are a pinch-zoom), and not while zoomed in.
    if (!from || !end || (window.visualViewport?.scale ?? 1) > 1.05) return;
    const dx = end.clientX - from.x;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(end.clientY - from.y)) follow(swipeStep(dx, direction));
  };
  window.addEventListener("keydown", onKey);
  stage.addEventListener("touchstart", onTouchStart, { passive: true });
  stage.addEventListener("touchend", onTouchEnd);
  return () => {
    window.removeEventListener("keydown", onKey);
    stage.removeEventListener("touchstart", onTouchStart);
    stage.removeEventListener("touchend", onTouchEnd);
  };
}

/**
 * The strip: reports the page crossing a line 40 % down the viewport, and the arrow keys jump to
 * the next or previous page's top (past the last page, to `endId`). The pages keep their space
 * before they load (width and height), so the page reported is the one really in view, and the
 * end is only reached by scrolling past every page.
 */
export function attachStrip(strip: HTMLElement, total: number, endId: string, startAt: number, onPage: (n: number) => void): () => void {
  let current = startAt;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        current = Number((entry.target as HTMLElement).dataset.page);
        onPage(current);
      }
    },
    { rootMargin: "-40% 0px -60% 0px" },
  );
  strip.querySelectorAll<HTMLElement>("[data-page]").forEach((el) => observer.observe(el));
  const onKey = (e: KeyboardEvent) => {
    const step = isTypingOrModified(e) ? 0 : keyStep(e.key, "ltr");
    if (!step) return;
    const target = current + step;
    const el = document.getElementById(target > total ? endId : pageAnchor(Math.max(1, target)));
    if (!el || target < 1) return;
    e.preventDefault();
    el.scrollIntoView({ block: "start" });
    // The observer reports the new page a little later; a quick second press must already count from it.
    if (target <= total) current = target;
  };
  window.addEventListener("keydown", onKey);
  return () => {
    observer.disconnect();
    window.removeEventListener("keydown", onKey);
  };
}

/**
 * True when the document was reloaded (or came back from history) at this very address: the
 * browser and the router restore the scroll position then, and `?page=` must not override it.
 */
export function restoringPosition(): boolean {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return !!nav && nav.type !== "navigate" && nav.name === window.location.href;
}
