// The paged reader's page addresses and spreads (docs/web.md §14): apart from reader.ts so that they load with the
// paged reader's code (after hydration), not with every chapter page.
import { STAGE_ID } from "./reader.ts";

/** A wide screen, where the spread layout shows two pages: at least 900 px wide and wider than tall. */
export const WIDE_QUERY = "(min-width: 900px) and (min-aspect-ratio: 1/1)";

/** Pages preloaded ahead of the one shown in single-page mode. */
export const PRELOAD_AHEAD = 2;

/** The address of page `n` in single-page mode (the rest of the query kept). */
export function pageHref(search: string, n: number): string {
  const params = new URLSearchParams(search);
  if (n <= 1) params.delete("page");
  else params.set("page", String(n));
  const query = params.toString();
  return `${query ? `?${query}` : "?"}#${STAGE_ID}`;
}

/**
 * Pages paired into spreads, as lists of 1-based page numbers in reading order. The cover (page 1)
 * is alone; so is a page wider than tall (an artist's spread); the others pair up two by two. With
 * `shift`, page 2 is alone too, so the pairs start one page later (3–4, 5–6, …).
 */
export function pairSpreads(pages: { width: number; height: number }[], shift: boolean): number[][] {
  const wide = (n: number) => pages[n - 1]!.width > pages[n - 1]!.height;
  const spreads: number[][] = [];
  let n = 1;
  while (n <= pages.length) {
    const alone = n === 1 || (shift && n === 2) || wide(n) || n === pages.length || wide(n + 1);
    spreads.push(alone ? [n] : [n, n + 1]);
    n += alone ? 1 : 2;
  }
  return spreads;
}

/** The index of the spread holding page `n`. */
export const spreadIndex = (spreads: number[][], n: number) =>
  Math.max(
    0,
    spreads.findIndex((s) => s.includes(n)),
  );
