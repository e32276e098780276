import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { ImageRef } from "../images/image-refs.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { removedOf } from "../moderation/removed.ts";
import { readAmong } from "../progress/progress.queries.ts";
import type { ChapterEditInput, NewChapterInput } from "../rules/chapter.ts";
import type { Paging } from "../rules/paging.ts";
import type { Chapter, ChapterSummary, Page } from "../rules/responses.ts";
import type { SeriesRef } from "../series/series.service.ts";
import { ChapterNumberTaken, createChapterQueries, type ChapterOrder, type ChapterRow } from "./chapters.queries.ts";

export type { ChapterOrder } from "./chapters.queries.ts";

export const toSummary = (row: ChapterRow, liked: boolean, read = false): ChapterSummary => ({
  id: row.id,
  number: row.number,
  title: row.title,
  description: row.description,
  likes: row.likes,
  commentCount: row.commentCount,
  date: toIso(row.date),
  coverId: row.coverId,
  authorId: row.authorId,
  seriesId: row.seriesId,
  seriesName: row.seriesName,
  pageCount: row.pageCount,
  likedByMe: liked,
  readByMe: read,
  removed: removedOf(row, { container: "series", reason: row.seriesRemovedReason }),
});

export function createChapterService(db: Database) {
  const chapters = createChapterQueries(db);

  async function assertAuthor(series: SeriesRef, userId: number, input: { coverId?: number | null; pages?: number[] }) {
    if (series.authorId !== userId) throw forbidden("Only the series' author can publish or edit its chapters");
    const refs: ImageRef[] = [
      { field: "coverId", label: "Cover", id: input.coverId },
      ...(input.pages ?? []).map((id) => ({ field: "pages", label: "Every page", id })),
    ];
    await chapters.assertOwnImages(userId, refs);
  }

  async function get(series: SeriesRef, number: number, viewerId?: number): Promise<Chapter> {
    const row = await chapters.detail(series.id, number, viewerId);
    if (!row) throw notFound("Chapter not found");
    const [pages, read] = await Promise.all([chapters.pages(row.id), readAmong(db.kysely, viewerId, [row.id])]);
    return {
      ...toSummary(row, row.liked === 1, read.has(row.id)),
      content: row.content,
      authorName: row.authorName,
      pages,
      previousNumber: row.previousNumber,
      nextNumber: row.nextNumber,
    };
  }

  /** The chapter's id, or 404. */
  async function resolveId(series: SeriesRef, number: number): Promise<number> {
    const id = await chapters.idOf(series.id, number);
    if (id === undefined) throw notFound("Chapter not found");
    return id;
  }

  return {
    async list(series: SeriesRef, order: ChapterOrder, paging: Paging, viewerId?: number): Promise<Page<ChapterSummary>> {
      const { total, rows } = await chapters.page(series.id, order, paging.perPage, offsetOf(paging));
      const ids = rows.map((r) => r.id);
      const [liked, read] = await Promise.all([chapters.likedBy(viewerId, ids), readAmong(db.kysely, viewerId, ids)]);
      return pageOf(
        rows.map((r) => toSummary(r, liked.has(r.id), read.has(r.id))),
        total,
        paging,
      );
    },

    get,

    resolveId,

    async publish(series: SeriesRef, input: NewChapterInput, userId: number): Promise<Chapter> {
      await assertAuthor(series, userId, input);
      try {
        const chapter = await get(series, await chapters.insert(series, input), userId);
        wakeJobRunners(db);
        return chapter;
      } catch (err) {
        if (err instanceof ChapterNumberTaken) throw conflict(err.message);
        throw err;
      }
    },

    async edit(series: SeriesRef, number: number, input: ChapterEditInput, userId: number): Promise<Chapter> {
      const chapterId = await resolveId(series, number);
      await assertAuthor(series, userId, input);
      await chapters.update(chapterId, input);
      return get(series, number, userId);
    },
  };
}
