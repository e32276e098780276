import { useEffect, useRef } from "react";
import type { ReadingMode } from "../../lib/reader.ts";
import type { ProgressSession } from "./reading-progress-client.ts";

export interface ReadingProgressOptions {
  /** Only a signed-in reader saves (a guest's save would do nothing). */
  signedIn: boolean;
  seriesId: number | null;
  chapterNumber: number;
  pageCount: number;
  mode: ReadingMode;
  /** The paged reader's page (`?page=`). */
  page: number;
  /** This chapter's saved page, from the loader (null: none, or another chapter in progress). */
  saved: { page: number } | null;
}

/**
 * Reading progress in the chapter reader (docs/web.md "Reading progress"), called once by the chapter route: saves the
 * page in view in the strip or the paged reader's current page, throttled and when the page is hidden or left, and
 * resumes the strip at the saved page when the chapter is opened without a hash or `?page=` (the paged reader resumes
 * by the loader's redirect). The machinery (reading-progress-client.ts) arrives after hydration, for signed-in readers.
 */
export function useReadingProgress({ signedIn, seriesId, chapterNumber, pageCount, mode, page, saved }: ReadingProgressOptions): void {
  const session = useRef<ProgressSession | null>(null);
  const view = useRef({ mode, page });
  view.current = { mode, page };
  const savedPage = saved?.page ?? null;

  // One session per chapter.
  useEffect(() => {
    if (!signedIn || seriesId === null || pageCount === 0) return;
    let live = true;
    void import("./reading-progress-client.ts").then(({ startProgress }) => {
      if (live) session.current = startProgress({ seriesId, chapterNumber, pageCount, savedPage, ...view.current });
    });
    return () => {
      live = false;
      session.current?.stop();
      session.current = null;
    };
    // The saved page counts when the chapter opens only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn, seriesId, chapterNumber, pageCount]);

  useEffect(() => {
    session.current?.setView(mode, page);
  }, [mode, page]);
}
