// Reading progress's links and words, shared by the server and the browser (docs/web.md "Reading progress").
import { pageAnchor } from "./reader.ts";
import { chapterPath } from "./urls.ts";

/** Where "Continue" leads: the chapter at the page (`?page=` for the paged reader, the strip's anchor for the strip). */
export function continueHref(seriesName: string, chapterNumber: number, page: number): string {
  const path = chapterPath(seriesName, chapterNumber);
  return page > 1 ? `${path}?page=${page}#${pageAnchor(page)}` : path;
}

/** "Chapter 4, page 7". */
export const progressLabel = (chapterNumber: number, page: number) => `Chapter ${chapterNumber}, page ${page}`;

/** The resource route the reader saves through (app/routes/progress.tsx). */
export const PROGRESS_ROUTE = "/progress";
