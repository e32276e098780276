import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { createRedaction, type Redaction } from "../moderation/redaction.service.ts";
import type { Paging } from "../rules/paging.ts";
import type { Actor } from "../rules/permissions.ts";
import { createSeriesService } from "../series/series.service.ts";
import { pageRangeMessage, type ContinueReading, type ProgressInput, type ProgressState } from "../rules/progress.ts";
import type { Page, Series } from "../rules/api-responses.ts";
import { createProgressQueries, isForeignKeyViolation, type ProgressRow } from "./progress.queries.ts";

const SERIES_NOT_FOUND = "No series found.";
const CHAPTER_NOT_FOUND = "Chapter not found";

const toState = (row: ProgressRow): ProgressState => ({
  seriesId: Number(row.seriesId),
  chapterNumber: Number(row.chapterNumber),
  page: Number(row.page),
  updatedAt: toIso(Number(row.updatedAt)),
});

/** Reading progress (docs/api.md "Reading progress"). */
/**
 * `cards` reads the series' list items by id in one query (the series service's); `redaction` leaves removed series'
 * content out. Both are made here when not given.
 */
export function createProgressService(
  db: Database,
  cards: (ids: number[]) => Promise<Map<number, Series>> = createSeriesService(db).cardsByIds,
  redaction: Redaction = createRedaction(db),
) {
  const q = createProgressQueries(db);

  return {
    /**
     * Saves where the caller is in the series; the latest write wins (also an older chapter after a newer one).
     * `opened`: the web app's chapter-level save when a chapter is opened, which keeps a position further into it.
     */
    async save(userId: number, seriesId: number, input: ProgressInput & { opened?: boolean }): Promise<ProgressState> {
      if (!(await q.seriesExists(seriesId))) throw notFound(SERIES_NOT_FOUND);
      const chapter = await q.chapter(seriesId, input.chapterNumber);
      if (!chapter) throw notFound(CHAPTER_NOT_FOUND);
      const pageCount = Number(chapter.pageCount);
      if (input.page > pageCount) throw badRequest(pageRangeMessage(pageCount), [{ field: "page", message: pageRangeMessage(pageCount) }]);
      try {
        const target = { ...chapter, pageCount };
        const saved = await db.kysely
          .transaction()
          .execute((trx) => q.save(trx, userId, seriesId, target, input.page, nowMs(), input.opened === true));
        return toState(saved);
      } catch (err) {
        // The chapter or series was deleted between the lookup and the write.
        if (isForeignKeyViolation(err)) throw notFound(CHAPTER_NOT_FOUND);
        throw err;
      }
    },

    /** Where the caller is in one series; null when they have not read it. */
    async get(userId: number, seriesId: number): Promise<{ progress: ProgressState | null }> {
      const [exists, row] = await Promise.all([q.seriesExists(seriesId), q.current(userId, seriesId)]);
      if (!exists) throw notFound(SERIES_NOT_FOUND);
      return { progress: row ? toState(row) : null };
    },

    /**
     * The continue-reading list, most recent first (ties by series id), as the viewer is answered it: mature series are
     * left out for a viewer without showMature, but their own (docs/api.md "Series metadata and browsing"), and removed
     * series' content.
     */
    async list(viewer: Actor & { showMature: boolean }, paging: Paging): Promise<Page<ContinueReading>> {
      const userId = viewer.id;
      const offset = offsetOf(paging);
      const [total, rows] = await Promise.all([q.count(userId), q.page(userId, paging.perPage, offset)]);
      const series = await cards(rows.map((r) => Number(r.seriesId)));
      const items = rows.flatMap((row): ContinueReading[] => {
        const card = series.get(Number(row.seriesId));
        if (!card) return [];
        const { chapterNumber, page, updatedAt } = toState(row);
        return [{ series: card, chapterNumber, page, updatedAt, unreadChapters: Number(row.unreadChapters) }];
      });
      const page = pageOf(items, total, paging);
      const content = page.content.filter(
        (item) => viewer.showMature || item.series.contentRating !== "mature" || item.series.author === viewer.id,
      );
      const shown = await redaction.series(
        content.map((item) => item.series),
        viewer,
      );
      return { ...page, content: content.map((item, i) => ({ ...item, series: shown[i]! })) };
    },
  };
}
