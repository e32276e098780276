// The chapter reader's modes and page addresses, shared by the server and the browser.

/** 'strip': every page in one vertical column (webtoon style, the default). 'pages': one page at a time. */
export type ReadingMode = "strip" | "pages";

export const READING_MODES: { value: ReadingMode; label: string }[] = [
  { value: "strip", label: "Vertical" },
  { value: "pages", label: "Single page" },
];

export const isReadingMode = (v: unknown): v is ReadingMode => v === "strip" || v === "pages";

/** Pages loaded at once in the strip (the first screenfuls); the rest load lazily as the reader scrolls. */
export const EAGER_PAGES = 2;
/** Pages preloaded ahead of the one shown in single-page mode. */
export const PRELOAD_AHEAD = 2;

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

/** The address of page `n` in single-page mode (the rest of the query kept). */
export function pageHref(search: string, n: number): string {
  const params = new URLSearchParams(search);
  if (n <= 1) params.delete("page");
  else params.set("page", String(n));
  const query = params.toString();
  return `${query ? `?${query}` : "?"}#${STAGE_ID}`;
}
