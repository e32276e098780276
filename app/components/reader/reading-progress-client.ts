// The reading-progress machinery of the chapter reader, loaded after hydration by use-reading-progress.ts (it is not
// needed to show the page, so it stays out of the chapter page's first JavaScript).
import { PROGRESS_ROUTE } from "../../lib/progress.ts";
import { pageAnchor, STAGE_ID, type ReadingMode } from "../../lib/reader.ts";

/** At most one save per this many milliseconds while reading; the last position also goes when the page is hidden. */
const SAVE_EVERY_MS = 2500;

/** A reload or a move through history: the browser puts the page back where it was, so no resume scroll. */
function restoringPosition(): boolean {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return !!nav && nav.type !== "navigate" && nav.name === window.location.href;
}

/** Sends the positions of one chapter: throttled, in the background (a low-priority fetch, or a beacon when leaving). */
function createSaver(seriesId: number, chapterNumber: number, saved: number | null) {
  let sent = saved;
  let pending: number | null = null;
  // The loader has just saved the chapter: the first save waits a full interval.
  let lastAt = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const form = (page: number) => {
    const body = new FormData();
    body.set("seriesId", String(seriesId));
    body.set("chapterNumber", String(chapterNumber));
    body.set("page", String(page));
    return body;
  };
  const send = (leaving: boolean) => {
    clearTimeout(timer);
    timer = undefined;
    const page = pending;
    pending = null;
    if (page === null || page === sent) return;
    sent = page;
    lastAt = Date.now();
    if (leaving && navigator.sendBeacon?.(PROGRESS_ROUTE, form(page))) return;
    // Low priority: the page images come first.
    void fetch(PROGRESS_ROUTE, { method: "POST", body: form(page), keepalive: true, priority: "low" }).catch(() => {});
  };
  return {
    see(page: number) {
      pending = page === sent ? null : page;
      if (pending === null || timer !== undefined) return;
      timer = setTimeout(() => send(false), Math.max(0, lastAt + SAVE_EVERY_MS - Date.now()));
    },
    flush: () => send(true),
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** Resumes the strip at the saved page, once its pages have their space (their sizes are in the server's HTML). */
function resumeStrip(savedPage: number): () => void {
  if (window.location.hash || new URLSearchParams(window.location.search).has("page") || restoringPosition()) return () => {};
  const frame = requestAnimationFrame(() => document.getElementById(pageAnchor(savedPage))?.scrollIntoView({ block: "start" }));
  return () => cancelAnimationFrame(frame);
}

/**
 * Follows the strip's page in view (the page across the middle of the screen, or the last page once most of it
 * shows) and tells `see`; answers the function that stops following.
 */
function followStrip(pageCount: number, see: (page: number) => void): () => void {
  const crossing = new Set<number>();
  const numberOf = (el: Element) => Number(el.id.slice("page-".length));
  const middle = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting) crossing.add(numberOf(e.target));
        else crossing.delete(numberOf(e.target));
      }
      if (crossing.size > 0) see(Math.max(...crossing));
    },
    { rootMargin: "-45% 0px -45% 0px" },
  );
  // A short last page may never reach the middle: most of it in view counts.
  const last = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) see(pageCount);
    },
    { threshold: 0.6 },
  );
  let observed: Element[] = [];
  const attach = () => {
    const now = Array.from({ length: pageCount }, (_, i) => document.getElementById(pageAnchor(i + 1))).filter((el) => el !== null);
    if (now.length === observed.length && now.every((el, i) => el === observed[i])) return;
    middle.disconnect();
    last.disconnect();
    crossing.clear();
    observed = now;
    for (const el of now) middle.observe(el);
    const end = document.getElementById(pageAnchor(pageCount));
    if (end) last.observe(end);
  };
  attach();
  // The strip's code arrives after hydration and may render its pages anew: follow the new elements.
  const stage = document.getElementById(STAGE_ID)?.parentElement;
  const mutations = new MutationObserver(attach);
  if (stage) mutations.observe(stage, { childList: true, subtree: true });
  return () => {
    mutations.disconnect();
    middle.disconnect();
    last.disconnect();
  };
}

export interface ProgressSession {
  /** The reader's mode and, in the paged reader, its page (`?page=`) changed. */
  setView(mode: ReadingMode, page: number): void;
  /** Leaving the chapter: a pending save is dropped (the next chapter's loader saved that one as in progress). */
  stop(): void;
}

/**
 * Reading progress for one chapter: saves the page in view in the strip or the paged reader's page, throttled and
 * when the page is hidden or left (`navigator.sendBeacon`), and resumes the strip at the saved page.
 */
export function startProgress(options: {
  seriesId: number;
  chapterNumber: number;
  pageCount: number;
  savedPage: number | null;
  mode: ReadingMode;
  page: number;
}): ProgressSession {
  const { seriesId, chapterNumber, pageCount, savedPage } = options;
  const saver = createSaver(seriesId, chapterNumber, savedPage);
  const onVisibility = () => {
    if (document.visibilityState === "hidden") saver.flush();
  };
  window.addEventListener("pagehide", saver.flush);
  document.addEventListener("visibilitychange", onVisibility);
  const stopResume = options.mode === "strip" && savedPage !== null && savedPage > 1 ? resumeStrip(savedPage) : () => {};
  let following: ReadingMode | null = null;
  let stopFollowing = () => {};
  const setView = (mode: ReadingMode, page: number) => {
    if (mode !== following) {
      stopFollowing();
      stopFollowing = mode === "strip" ? followStrip(pageCount, (n) => saver.see(n)) : () => {};
      following = mode;
    }
    if (mode !== "strip") saver.see(page);
  };
  setView(options.mode, options.page);
  return {
    setView,
    stop() {
      stopResume();
      stopFollowing();
      window.removeEventListener("pagehide", saver.flush);
      document.removeEventListener("visibilitychange", onVisibility);
      saver.stop();
    },
  };
}
