import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { nowMs } from "../db/dates.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { embeddedImageIds, type ImageRef } from "../images/image-refs.ts";
import { assertOwnImages, useImages } from "../images/own-images.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { enqueueJob } from "../jobs/jobs.queries.ts";
import { createRedaction, type Redaction } from "../moderation/redaction.service.ts";
import { noVerifiedEmailCheck, refuseRemoved, type VerifiedEmailCheck } from "../moderation/write-guards.service.ts";
import { removedOf } from "../moderation/removed.ts";
import { readAmong } from "../progress/progress.queries.ts";
import { mayWriteChapters, type Actor } from "../rules/permissions.ts";
import type { ChapterEditInput, NewChapterInput } from "../rules/chapter.ts";
import type { Paging } from "../rules/paging.ts";
import type { Chapter, ChapterSummary, Page } from "../rules/api-responses.ts";
import { createSeriesService, type SeriesRef } from "../series/series.service.ts";
import type { FlagsOf } from "../viewer/shared-answers.ts";
import { createChapterQueries, type ChapterOrder, type ChapterRow } from "./chapters.queries.ts";

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

type SeriesRefs = Pick<ReturnType<typeof createSeriesService>, "resolveRef">;

/**
 * Chapters live under their series' name or id (`seriesService` finds it: 404 otherwise); answers leave removed
 * content out (`redaction`). Both are made here when not given.
 */
export function createChapterService(
  db: Database,
  seriesService: SeriesRefs = createSeriesService(db),
  redaction: Redaction = createRedaction(db),
  /** REQUIRE_VERIFIED_EMAIL's check of new chapters (off unless given). */
  verifiedEmail: VerifiedEmailCheck = noVerifiedEmailCheck,
) {
  const chapters = createChapterQueries(db);
  // A chapter's endpoints answer a missing series as a missing chapter; its list and publishing as a missing series.
  const chapterSeries = (seriesName: string) => seriesService.resolveRef(seriesName, "Chapter not found");

  async function assertAuthor(series: SeriesRef, userId: number, input: { coverId?: number | null; pages?: number[] }) {
    if (!mayWriteChapters({ id: userId }, series)) throw forbidden("Only the series' author can publish or edit its chapters");
    const refs: ImageRef[] = [
      { field: "coverId", label: "Cover", id: input.coverId },
      ...(input.pages ?? []).map((id) => ({ field: "pages", label: "Every page", id })),
    ];
    await assertOwnImages(db.kysely, userId, refs);
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
    /** GET /series/{name}/chapters...: a page of the series' chapters as the viewer is answered it. */
    async list(seriesName: string, order: ChapterOrder, paging: Paging, viewer: Actor | null): Promise<Page<ChapterSummary>> {
      const series = await seriesService.resolveRef(seriesName);
      const viewerId = viewer?.id;
      const { total, rows } = await chapters.page(series.id, order, paging.perPage, offsetOf(paging));
      const ids = rows.map((r) => r.id);
      const [liked, read] = await Promise.all([chapters.likedBy(viewerId, ids), readAmong(db.kysely, viewerId, ids)]);
      const page = pageOf(
        rows.map((r) => toSummary(r, liked.has(r.id), read.has(r.id))),
        total,
        paging,
      );
      return redaction.chapterPage(page, viewer);
    },

    /** GET /series/{name}/{chapterNumber}: the chapter as the viewer is answered it. */
    get: async (seriesName: string, number: number, viewer: Actor | null) =>
      redaction.chapter(await get(await chapterSeries(seriesName), number, viewer?.id), viewer),

    /**
     * The viewer's `likedByMe` and `readByMe` of these chapters, for an answer shared by everyone
     * (server/viewer/shared-answers.ts): one read of both keys.
     */
    async ownFlags(ids: number[], viewerId: number): Promise<FlagsOf> {
      const { liked, read } = await chapters.likedAndRead(viewerId, ids);
      return (id) => ({ likedByMe: liked.has(id), readByMe: read.has(id) });
    },

    resolveId,

    /** The chapter's id by its series' name or id and its number, or 404 (its likes). */
    resolveIdByName: async (seriesName: string, number: number) => resolveId(await chapterSeries(seriesName), number),

    async publish(seriesName: string, input: NewChapterInput, userId: number): Promise<Chapter> {
      await verifiedEmail(db.kysely, userId);
      const series = await seriesService.resolveRef(seriesName);
      await assertAuthor(series, userId, input);
      const taken = (number: number) => conflict(`Chapter ${number} already exists`);
      let number: number;
      try {
        // The chapter (numbered after the last one unless a number is given), its pages, the series' chapterCount and
        // the publishing of its images: one unit. A taken number rolls it back (409).
        number = await db.kysely.transaction().execute(async (trx) => {
          await chapters.countNewChapter(trx, series.id);
          // A removed series takes no new chapters (its followers would be told of them); editing stays possible.
          await refuseRemoved(trx, "series", series.id);
          const number = input.number ?? (await chapters.nextNumber(trx, series.id));
          if (await chapters.numberTaken(trx, series.id, number)) throw taken(number);
          const date = nowMs();
          const id = await chapters.insert(
            trx,
            {
              seriesId: series.id,
              number,
              title: input.title,
              description: input.description,
              content: input.content,
              date,
              // Without a chosen cover, the first page is the cover.
              coverId: input.coverId ?? input.pages[0]!,
              authorId: series.authorId,
            },
            input.pages,
          );
          await useImages(trx, series.authorId, "chapter", id, [input.coverId, ...input.pages, ...embeddedImageIds(input.content)]);
          // The followers are told after the answer, by the job runner (docs/decisions/017-discussion.md).
          await enqueueJob(trx, "chapter-notifications", id, date);
          return number;
        });
      } catch (err) {
        // Another writer took the number between our check and insert (it cannot, with the series locked; kept as the last word).
        if (isUniqueViolation(err) && input.number !== undefined) throw taken(input.number);
        throw err;
      }
      const chapter = await get(series, number, userId);
      wakeJobRunners(db);
      return chapter;
    },

    /**
     * The edit, its pages when given and the publishing of its images: one unit. Absent fields keep their value; a
     * null cover falls back to the (possibly new) first page.
     */
    async edit(seriesName: string, number: number, input: ChapterEditInput, userId: number): Promise<Chapter> {
      const series = await chapterSeries(seriesName);
      const chapterId = await resolveId(series, number);
      await assertAuthor(series, userId, input);
      await db.kysely.transaction().execute(async (trx) => {
        const current = await chapters.lockEditable(trx, chapterId);
        if (input.pages) await chapters.writePages(trx, chapterId, input.pages);
        const coverId = input.coverId === undefined ? current.coverId : (input.coverId ?? (await chapters.firstPage(trx, chapterId)));
        await chapters.update(trx, {
          id: chapterId,
          title: input.title,
          description: input.description ?? current.description,
          content: input.content ?? current.content,
          coverId,
        });
        await useImages(trx, current.authorId, "chapter", chapterId, [
          coverId,
          ...(input.pages ?? []),
          ...embeddedImageIds(input.content ?? ""),
        ]);
      });
      return get(series, number, userId);
    },
  };
}
