// Reading progress in the web app (docs/web.md "Reading progress"): the API calls, the chapter loader's chapter-level
// save (works without JavaScript) and the paged reader's resume redirect.
import { redirect } from "@remix-run/node";
import type { ContinueReading, ProgressState } from "../../server/rules/progress.ts";
import type { Page } from "../../server/rules/api-responses.ts";
import type { ContinueReadingItem } from "../components/continue-reading.tsx";
import { ApiError, type Api } from "./api.server.ts";
import { STAGE_ID, type ReadingMode } from "./reader.ts";
import type { Session } from "./session.server.ts";

export type { ContinueReading, ProgressState };

/** Items in the home page's "Continue reading" list. */
export const HOME_CONTINUE_ITEMS = 4;

/** The calls of /me/progress (the caller's own). */
export const progressApi = (api: Api) => ({
  save: (seriesId: number, body: { chapterNumber: number; page: number; opened?: boolean }) =>
    api.call<ProgressState>(`/me/progress/${seriesId}`, { method: "PUT", body }),
  of: (seriesId: number) => api.call<{ progress: ProgressState | null }>(`/me/progress/${seriesId}`),
  list: (page: number, perPage: number) => api.call<Page<ContinueReading>>("/me/progress", { query: { page, per_page: perPage } }),
});

/** A browser's prefetch of a link (Remix's prefetch="intent"/"viewport"): it reads, it does not open the chapter. */
export function isPrefetch(request: Pick<Request, "headers">): boolean {
  const purpose = `${request.headers.get("Sec-Purpose") ?? ""} ${request.headers.get("Purpose") ?? ""} ${request.headers.get("X-Moz") ?? ""}`;
  return purpose.toLowerCase().includes("prefetch");
}

/** `?page=` as a whole number, or null when absent or not one. */
function requestedPage(url: URL): number | null {
  const raw = url.searchParams.get("page");
  return raw !== null && /^[0-9]{1,6}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}

/**
 * Opening a chapter counts as progress at chapter level (without JavaScript too): saves this chapter at `?page=` or
 * page 1, keeping a position further into it (`opened`). Answers this chapter's saved page, or null (a guest, another
 * chapter in progress, a failed call: reading goes on without it). A prefetch only reads. Never rejects (see
 * `loadContinueReading`).
 *
 * `latest` is the viewer's most recently saved position (the viewer's state): when it is already this chapter at or
 * past the page, the save would change nothing but its time, and no other series was read since, so the
 * continue-reading order stays the same without it: no call, no write.
 */
export async function openChapter(
  request: Request,
  api: Api,
  session: Session | null,
  seriesId: Promise<number | null>,
  chapterNumber: number | null,
  latest: Promise<ProgressState | null> = Promise.resolve(null),
): Promise<{ page: number } | null> {
  const calls = progressApi(api);
  const here = (state: ProgressState | null) => (state && state.chapterNumber === chapterNumber ? { page: state.page } : null);
  try {
    const [id, last] = await Promise.all([seriesId, latest]);
    if (!session || chapterNumber === null || id === null) return null;
    const page = requestedPage(new URL(request.url)) ?? 1;
    const stored = last?.seriesId === id ? last : null;
    if (isPrefetch(request)) return here(stored ?? (await calls.of(id)).progress);
    if (stored && stored.chapterNumber === chapterNumber && stored.page >= page) return here(stored);
    try {
      return here(await calls.save(id, { chapterNumber, page, opened: true }));
    } catch (err) {
      // A `?page=` past the chapter's last page: the chapter at its first.
      if (err instanceof ApiError && err.status === 400 && page > 1)
        return here(await calls.save(id, { chapterNumber, page: 1, opened: true }));
      throw err;
    }
  } catch {
    // Any failure, an ended session's redirect too (the page's other reads answer that): reading goes on without it.
    return null;
  }
}

/**
 * A chapter opened in the paged reader without `?page=` starts at the saved page: a redirect to it (works without
 * JavaScript). The strip resumes in the browser instead (use-reading-progress.ts), so links to its anchors still work.
 */
export function resumeRedirect(request: Request, mode: ReadingMode, progress: { page: number } | null): void {
  const url = new URL(request.url);
  if (mode === "strip" || !progress || progress.page <= 1 || url.searchParams.has("page") || isPrefetch(request)) return;
  url.searchParams.set("page", String(progress.page));
  throw redirect(`${url.pathname}?${url.searchParams}#${STAGE_ID}`);
}

/**
 * The home page's "Continue reading" items: null for a guest or when the call failed (the section is left out).
 * Never rejects: it runs beside the page's other calls, and a rejection nobody awaits (the request aborted while
 * another call failed first) would end the process.
 */
export async function loadContinueReading(api: Api, session: Session | null): Promise<ContinueReadingItem[] | null> {
  if (!session) return null;
  try {
    // Only what the list shows: the loader's data is written into the page.
    return (await progressApi(api).list(1, HOME_CONTINUE_ITEMS)).content.map(({ series, chapterNumber, page, unreadChapters }) => ({
      series: { id: series.id, name: series.name, profileImageId: series.profileImageId },
      chapterNumber,
      page,
      unreadChapters,
    }));
  } catch {
    return null;
  }
}

/**
 * The series page's "Continue": where the viewer is in the series, or null (a guest, not started, a failed call). No
 * call when the viewer's latest position (`latest`, from the viewer's state) is in this series: it is that position.
 */
export async function seriesProgress(
  api: Api,
  session: Session | null,
  seriesId: Promise<number | null>,
  latest: Promise<ProgressState | null> = Promise.resolve(null),
): Promise<ProgressState | null> {
  try {
    const [id, last] = await Promise.all([seriesId, latest]);
    if (!session || id === null) return null;
    return last?.seriesId === id ? last : (await progressApi(api).of(id)).progress;
  } catch {
    return null;
  }
}
