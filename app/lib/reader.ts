// The chapter reader's modes, settings and page addresses, shared by the server and the browser.

/**
 * 'strip': every page in one vertical column (webtoon style). 'ltr' / 'rtl': one page (or a two-page
 * spread) at a time, turning left to right or right to left (manga).
 */
export type ReadingMode = "strip" | "ltr" | "rtl";
/** One page at a time, or two side by side on a wide screen. */
export type PageLayout = "single" | "spread";
/** How a page fits the stage: the stage's width, the screen's height (the whole page in view), or its own size. */
export type PageFit = "width" | "height" | "original";

/** What the reader chose (or the defaults): the mode is per series, the rest for every series. */
export interface ReaderSettings {
  mode: ReadingMode;
  layout: PageLayout;
  fit: PageFit;
  /** Spreads paired the other way (page 2 alone after the cover). Per series. */
  shift: boolean;
}

export const READING_MODES: { value: ReadingMode; label: string }[] = [
  { value: "strip", label: "Vertical" },
  { value: "ltr", label: "Left to right" },
  { value: "rtl", label: "Right to left" },
];
export const PAGE_LAYOUTS: { value: PageLayout; label: string }[] = [
  { value: "single", label: "Single page" },
  { value: "spread", label: "Two pages" },
];
export const PAGE_FITS: { value: PageFit; label: string }[] = [
  { value: "width", label: "Fit width" },
  { value: "height", label: "Fit height" },
  { value: "original", label: "Original size" },
];

const oneOf =
  <T extends string>(list: { value: T }[]) =>
  (v: unknown): v is T =>
    list.some((o) => o.value === v);
export const isReadingMode = oneOf(READING_MODES);
export const isPageLayout = oneOf(PAGE_LAYOUTS);
export const isPageFit = oneOf(PAGE_FITS);

/** The mode a series opens in until the reader picks one: its `readingDirection` (vertical unless set). */
export const modeForDirection = (direction: string | null | undefined): ReadingMode =>
  direction === "ltr" || direction === "rtl" ? direction : "strip";

/** Pages loaded at once in the strip (the first screenfuls); the rest load lazily as the reader scrolls. */
export const EAGER_PAGES = 2;
/** The id of page `n` (1-based) in the strip, for links like `#page-3`. */
export const pageAnchor = (n: number) => `page-${n}`;
/** The id of the single-page stage; page links end in it so the page is in view after loading. */
export const STAGE_ID = "reader";

/** The 1-based page from `?page=`, within 1..count. */
export function pageFromSearch(search: string | URLSearchParams, count: number): number {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const raw = params.get("page");
  const n = raw && /^[0-9]{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(1, n), Math.max(1, count));
}
