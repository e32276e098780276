import { linkedIdsSync } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { nowMs, prepare, toIso } from "../db/sql.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { assertOwnImages, embeddedImageIds, publishOwnImages, type ImageRef } from "../images/image-refs.ts";
import type { ChapterEditInput, NewChapterInput } from "../rules/chapter.ts";
import type { Paging } from "../rules/paging.ts";
import type { Chapter, ChapterSummary, Page } from "../rules/responses.ts";
import type { SeriesRef } from "../series/series.service.ts";

interface ChapterRow {
  id: number;
  number: number;
  title: string;
  description: string;
  likes: number;
  date: number;
  coverId: number | null;
  authorId: number;
  seriesId: number;
  seriesName: string;
  pageCount: number;
}
interface ChapterDetailRow extends ChapterRow {
  content: string;
  authorName: string;
}

export type ChapterOrder = "latest" | "most-liked";

// List items leave out `content` and the pages; the series name comes from the same query.
const CHAPTER_SUMMARY = `
  SELECT c.id, c.number, c.title, c.description, c.likes, c.date, c.coverId, c.authorId, c.seriesId, s.name AS seriesName,
         (SELECT COUNT(*) FROM ChapterPage cp WHERE cp.chapterId = c.id) AS pageCount
  FROM Chapter c JOIN Series s ON s.id = c.seriesId`;

const ORDER_SQL: Record<ChapterOrder, string> = {
  latest: "number DESC",
  "most-liked": "likes DESC, id DESC",
};

const toSummary = (row: ChapterRow, liked: boolean): ChapterSummary => ({
  id: row.id,
  number: row.number,
  title: row.title,
  description: row.description,
  likes: row.likes,
  date: toIso(row.date),
  coverId: row.coverId,
  authorId: row.authorId,
  seriesId: row.seriesId,
  seriesName: row.seriesName,
  pageCount: row.pageCount,
  likedByMe: liked,
});

export function createChapterService(db: Database) {
  const { sqlite } = db;
  const listQuery = (order: ChapterOrder) =>
    prepare<[number, number, number], ChapterRow>(
      sqlite,
      `${CHAPTER_SUMMARY} WHERE c.id IN (SELECT id FROM Chapter WHERE seriesId = ? ORDER BY ${ORDER_SQL[order]} LIMIT ? OFFSET ?)
       ORDER BY ${ORDER_SQL[order].replace(/(\w+) DESC/g, "c.$1 DESC")}`,
    );
  const q = {
    list: { latest: listQuery("latest"), "most-liked": listQuery("most-liked") } satisfies Record<ChapterOrder, unknown>,
    chapterCount: prepare<[number], { chapterCount: number }>(sqlite, "SELECT chapterCount FROM Series WHERE id = ?"),
    detail: prepare<[number, number], ChapterDetailRow>(
      sqlite,
      `SELECT c.id, c.number, c.title, c.description, c.likes, c.date, c.coverId, c.authorId, c.seriesId, s.name AS seriesName,
              (SELECT COUNT(*) FROM ChapterPage cp WHERE cp.chapterId = c.id) AS pageCount,
              c.content, u.username AS authorName
       FROM Chapter c JOIN Series s ON s.id = c.seriesId JOIN User u ON u.id = c.authorId
       WHERE c.seriesId = ? AND c.number = ?`,
    ),
    pages: prepare<[number], { imageId: number; width: number; height: number }>(
      sqlite,
      `SELECT cp.imageId, i.width, i.height FROM ChapterPage cp JOIN Image i ON i.id = cp.imageId
       WHERE cp.chapterId = ? ORDER BY cp.position`,
    ),
    previous: prepare<[number, number], { n: number | null }>(
      sqlite,
      "SELECT MAX(number) AS n FROM Chapter WHERE seriesId = ? AND number < ?",
    ),
    next: prepare<[number, number], { n: number | null }>(sqlite, "SELECT MIN(number) AS n FROM Chapter WHERE seriesId = ? AND number > ?"),
    lastNumber: prepare<[number], { n: number | null }>(sqlite, "SELECT MAX(number) AS n FROM Chapter WHERE seriesId = ?"),
    idOf: prepare<[number, number], { id: number }>(sqlite, "SELECT id FROM Chapter WHERE seriesId = ? AND number = ?"),
    liked: prepare<[number, number], { one: number }>(sqlite, "SELECT 1 AS one FROM ChapterLike WHERE userId = ? AND chapterId = ?"),
    insert: prepare(
      sqlite,
      `INSERT INTO Chapter (seriesId, number, title, description, content, likes, date, coverId, authorId)
       VALUES (@seriesId, @number, @title, @description, @content, 0, @date, @coverId, @authorId)`,
    ),
    update: prepare(
      sqlite,
      "UPDATE Chapter SET title = @title, description = @description, content = @content, coverId = @coverId WHERE id = @id",
    ),
    insertPage: prepare(sqlite, "INSERT INTO ChapterPage (chapterId, position, imageId) VALUES (?, ?, ?)"),
    deletePages: prepare(sqlite, "DELETE FROM ChapterPage WHERE chapterId = ?"),
    firstPage: prepare<[number], { imageId: number }>(
      sqlite,
      "SELECT imageId FROM ChapterPage WHERE chapterId = ? ORDER BY position LIMIT 1",
    ),
    editable: prepare<[number], { description: string; content: string; coverId: number | null; authorId: number }>(
      sqlite,
      "SELECT description, content, coverId, authorId FROM Chapter WHERE id = ?",
    ),
    bumpChapterCount: prepare(sqlite, "UPDATE Series SET chapterCount = chapterCount + 1 WHERE id = ?"),
  };

  /** Which of these chapters the viewer liked, in one query. */
  const likedSet = (viewerId: number | undefined, ids: number[]) =>
    linkedIdsSync(sqlite, { link: "ChapterLike", targetColumn: "chapterId" }, viewerId, ids);

  function writePages(chapterId: number, pages: number[]) {
    q.deletePages.run(chapterId);
    pages.forEach((imageId, position) => q.insertPage.run(chapterId, position, imageId));
  }

  // Chapter, pages and the series' chapterCount are written together.
  const insertChapter = sqlite.transaction((series: SeriesRef, input: NewChapterInput) => {
    const number = input.number ?? (q.lastNumber.get(series.id)?.n ?? 0) + 1;
    if (q.idOf.get(series.id, number)) throw conflict(`Chapter ${number} already exists`);
    const { lastInsertRowid } = q.insert.run({
      seriesId: series.id,
      number,
      title: input.title,
      description: input.description,
      content: input.content,
      date: nowMs(),
      // Without a chosen cover, the first page is the cover.
      coverId: input.coverId ?? input.pages[0]!,
      authorId: series.authorId,
    });
    writePages(Number(lastInsertRowid), input.pages);
    q.bumpChapterCount.run(series.id);
    publishOwnImages(sqlite, series.authorId, [input.coverId, ...input.pages, ...embeddedImageIds(input.content ?? "")]);
    return number;
  });

  // Absent fields keep their value; a null cover falls back to the (possibly new) first page.
  const updateChapter = sqlite.transaction((chapterId: number, input: ChapterEditInput) => {
    const current = q.editable.get(chapterId)!;
    if (input.pages) writePages(chapterId, input.pages);
    const coverId = input.coverId === undefined ? current.coverId : (input.coverId ?? q.firstPage.get(chapterId)?.imageId ?? null);
    q.update.run({
      id: chapterId,
      title: input.title,
      description: input.description ?? current.description,
      content: input.content ?? current.content,
      coverId,
    });
    publishOwnImages(sqlite, current.authorId, [coverId, ...(input.pages ?? []), ...embeddedImageIds(input.content ?? "")]);
  });

  function assertAuthor(series: SeriesRef, userId: number, input: { coverId?: number | null; pages?: number[] }) {
    if (series.authorId !== userId) throw forbidden("Only the series' author can publish or edit its chapters");
    const refs: ImageRef[] = [
      { field: "coverId", label: "Cover", id: input.coverId },
      ...(input.pages ?? []).map((id) => ({ field: "pages", label: "Every page", id })),
    ];
    assertOwnImages(sqlite, userId, refs);
  }

  function get(series: SeriesRef, number: number, viewerId?: number): Chapter {
    const row = q.detail.get(series.id, number);
    if (!row) throw notFound("Chapter not found");
    return {
      ...toSummary(row, viewerId !== undefined && q.liked.get(viewerId, row.id) !== undefined),
      content: row.content,
      authorName: row.authorName,
      pages: q.pages.all(row.id),
      previousNumber: q.previous.get(series.id, number)?.n ?? null,
      nextNumber: q.next.get(series.id, number)?.n ?? null,
    };
  }

  /** The chapter's id, or 404. */
  function resolveId(series: SeriesRef, number: number): number {
    const row = q.idOf.get(series.id, number);
    if (!row) throw notFound("Chapter not found");
    return row.id;
  }

  return {
    list(series: SeriesRef, order: ChapterOrder, paging: Paging, viewerId?: number): Page<ChapterSummary> {
      const rows = q.list[order].all(series.id, paging.perPage, offsetOf(paging));
      const liked = likedSet(
        viewerId,
        rows.map((r) => r.id),
      );
      return pageOf(
        rows.map((r) => toSummary(r, liked.has(r.id))),
        q.chapterCount.get(series.id)?.chapterCount ?? 0,
        paging,
      );
    },

    get,

    resolveId,

    publish(series: SeriesRef, input: NewChapterInput, userId: number): Chapter {
      assertAuthor(series, userId, input);
      return get(series, insertChapter(series, input), userId);
    },

    edit(series: SeriesRef, number: number, input: ChapterEditInput, userId: number): Chapter {
      const chapterId = resolveId(series, number);
      assertAuthor(series, userId, input);
      updateChapter(chapterId, input);
      return get(series, number, userId);
    },
  };
}
