import { sql } from "kysely";
import { linkedIds } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { nowMs } from "../db/dates.ts";
import { embeddedImageIds, type ImageRef } from "../images/image-refs.ts";
import { assertOwnImages, useImages } from "../images/own-images.ts";
import { enqueueJob } from "../jobs/jobs.queries.ts";
import { refuseRemoved } from "../moderation/removed-guard.ts";
import type { ChapterEditInput, NewChapterInput } from "../rules/chapter.ts";

export type ChapterOrder = "latest" | "most-liked";

export interface ChapterRow {
  id: number;
  number: number;
  title: string;
  description: string;
  likes: number;
  commentCount: number;
  date: number;
  coverId: number | null;
  authorId: number;
  seriesId: number;
  seriesName: string;
  pageCount: number;
  /** Set while removed by moderators (docs/decisions/018-governance.md). */
  removedReason: string | null;
  /** Set while its series is removed: the chapter is answered as removed with it (docs/api.md "Removal"). */
  seriesRemovedReason: string | null;
}
export interface ChapterDetailRow extends ChapterRow {
  content: string;
  authorName: string;
  /** 1 when the viewer liked the chapter. */
  liked: number;
  previousNumber: number | null;
  nextNumber: number | null;
}
export interface ChapterPageRow {
  imageId: number;
  width: number;
  height: number;
}

// List items leave out `content` and the pages; the series name comes from the same query.
const CHAPTER_SUMMARY = sql`
  SELECT c."id", c."number", c."title", c."description", c."likes", c."commentCount", c."date", c."coverId", c."authorId", c."seriesId",
         s."name" AS "seriesName", c."removedReason", s."removedReason" AS "seriesRemovedReason",
         (SELECT COUNT(*) FROM "ChapterPage" cp WHERE cp."chapterId" = c."id") AS "pageCount"
  FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId"`;

const ORDER = {
  latest: { inner: sql`"number" DESC`, outer: sql`c."number" DESC` },
  "most-liked": { inner: sql`"likes" DESC, "id" DESC`, outer: sql`c."likes" DESC, c."id" DESC` },
} satisfies Record<ChapterOrder, unknown>;

/** Thrown inside the publishing unit (which rolls back) when the chapter's number is taken. */
export class ChapterNumberTaken extends Error {
  readonly number: number;
  constructor(number: number) {
    super(`Chapter ${number} already exists`);
    this.number = number;
  }
}

// Multi-row inserts of pages in chunks: 3 values a row, well under SQLite's parameter limit.
const PAGE_CHUNK = 300;

/** The list items of these chapters (in no order): the cards of other lists (the following feed). */
export async function chapterCards(on: Executor, ids: number[]): Promise<ChapterRow[]> {
  if (ids.length === 0) return [];
  return (await sql<ChapterRow>`${CHAPTER_SUMMARY} WHERE c."id" IN (${sql.join(ids)})`.execute(on)).rows;
}

/** A series' chapters, a chapter with its pages, and the writes of chapters with their pages and images. */
export function createChapterQueries({ kysely }: Database) {
  const listQuery = (order: ChapterOrder) =>
    prepare<{ seriesId: number; limit: number; offset: number }, ChapterRow>(
      kysely,
      (p) => sql`${CHAPTER_SUMMARY}
        WHERE c."id" IN (SELECT "id" FROM "Chapter" WHERE "seriesId" = ${p("seriesId")} ORDER BY ${ORDER[order].inner} LIMIT ${p("limit")} OFFSET ${p("offset")})
        ORDER BY ${ORDER[order].outer}`,
    );
  const q = {
    list: { latest: listQuery("latest"), "most-liked": listQuery("most-liked") } satisfies Record<ChapterOrder, unknown>,
    chapterCount: prepare<{ seriesId: number }, { chapterCount: number }>(
      kysely,
      (p) => sql`SELECT "chapterCount" FROM "Series" WHERE "id" = ${p("seriesId")}`,
    ),
    detail: prepare<{ seriesId: number; number: number; viewerId: number }, ChapterDetailRow>(
      kysely,
      (p) => sql`SELECT c."id", c."number", c."title", c."description", c."likes", c."commentCount", c."date", c."coverId", c."authorId",
                   c."seriesId",
                   s."name" AS "seriesName", (SELECT COUNT(*) FROM "ChapterPage" cp WHERE cp."chapterId" = c."id") AS "pageCount",
                   c."content", u."username" AS "authorName", c."removedReason", s."removedReason" AS "seriesRemovedReason",
                   CASE WHEN EXISTS (SELECT 1 FROM "ChapterLike" WHERE "userId" = ${p("viewerId")} AND "chapterId" = c."id") THEN 1 ELSE 0 END AS "liked",
                   (SELECT MAX("number") FROM "Chapter" WHERE "seriesId" = c."seriesId" AND "number" < c."number") AS "previousNumber",
                   (SELECT MIN("number") FROM "Chapter" WHERE "seriesId" = c."seriesId" AND "number" > c."number") AS "nextNumber"
                 FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId" JOIN "User" u ON u."id" = c."authorId"
                 WHERE c."seriesId" = ${p("seriesId")} AND c."number" = ${p("number")}`,
    ),
    pages: prepare<{ chapterId: number }, ChapterPageRow>(
      kysely,
      (p) => sql`SELECT cp."imageId", i."width", i."height" FROM "ChapterPage" cp JOIN "Image" i ON i."id" = cp."imageId"
                 WHERE cp."chapterId" = ${p("chapterId")} ORDER BY cp."position"`,
    ),
    idOf: prepare<{ seriesId: number; number: number }, { id: number }>(
      kysely,
      (p) => sql`SELECT "id" FROM "Chapter" WHERE "seriesId" = ${p("seriesId")} AND "number" = ${p("number")}`,
    ),
    lastNumber: prepare<{ seriesId: number }, { n: number | null }>(
      kysely,
      (p) => sql`SELECT MAX("number") AS "n" FROM "Chapter" WHERE "seriesId" = ${p("seriesId")}`,
    ),
    // First in the publishing unit: locks the series' row, so publishes of one series take turns on their numbers.
    countNewChapter: prepare<{ seriesId: number }, { id: number }>(
      kysely,
      (p) => sql`UPDATE "Series" SET "chapterCount" = "chapterCount" + 1 WHERE "id" = ${p("seriesId")} RETURNING "id"`,
    ),
    insert: prepare<
      {
        seriesId: number;
        number: number;
        title: string;
        description: string;
        content: string;
        date: number;
        coverId: number;
        authorId: number;
      },
      { id: number }
    >(
      kysely,
      (p) => sql`INSERT INTO "Chapter" ("seriesId", "number", "title", "description", "content", "likes", "date", "coverId", "authorId")
                 VALUES (${p("seriesId")}, ${p("number")}, ${p("title")}, ${p("description")}, ${p("content")}, 0, ${p("date")}, ${p("coverId")},
                         ${p("authorId")})
                 RETURNING "id"`,
    ),
    // First in the editing unit: locks the chapter's row and reads what an edit may keep.
    lockEditable: prepare<{ id: number }, { description: string; content: string; coverId: number | null; authorId: number }>(
      kysely,
      (p) => sql`UPDATE "Chapter" SET "title" = "title" WHERE "id" = ${p("id")} RETURNING "description", "content", "coverId", "authorId"`,
    ),
    update: prepare<{ id: number; title: string; description: string; content: string; coverId: number | null }>(
      kysely,
      (p) => sql`UPDATE "Chapter" SET "title" = ${p("title")}, "description" = ${p("description")}, "content" = ${p("content")},
                   "coverId" = ${p("coverId")}
                 WHERE "id" = ${p("id")}`,
    ),
    deletePages: prepare<{ chapterId: number }>(kysely, (p) => sql`DELETE FROM "ChapterPage" WHERE "chapterId" = ${p("chapterId")}`),
    firstPage: prepare<{ chapterId: number }, { imageId: number }>(
      kysely,
      (p) => sql`SELECT "imageId" FROM "ChapterPage" WHERE "chapterId" = ${p("chapterId")} ORDER BY "position" LIMIT 1`,
    ),
  };

  async function writePages(trx: Executor, chapterId: number, pages: number[]) {
    await q.deletePages.run({ chapterId }, trx);
    for (let i = 0; i < pages.length; i += PAGE_CHUNK) {
      const rows = pages.slice(i, i + PAGE_CHUNK).map((imageId, at) => ({ chapterId, position: i + at, imageId }));
      await trx.insertInto("ChapterPage").values(rows).execute();
    }
  }

  return {
    async page(seriesId: number, order: ChapterOrder, limit: number, offset: number): Promise<{ total: number; rows: ChapterRow[] }> {
      const rows = await q.list[order].all({ seriesId, limit, offset });
      const total = (await q.chapterCount.first({ seriesId }))?.chapterCount ?? 0;
      return { total, rows };
    },

    /** Which of these chapters the viewer liked, in one query. */
    likedBy: (viewerId: number | undefined, ids: number[]) =>
      linkedIds(kysely, { link: "ChapterLike", targetColumn: "chapterId" }, viewerId, ids),

    detail: (seriesId: number, number: number, viewerId: number | undefined) =>
      q.detail.first({ seriesId, number, viewerId: viewerId ?? 0 }),

    pages: (chapterId: number) => q.pages.all({ chapterId }),

    idOf: async (seriesId: number, number: number) => (await q.idOf.first({ seriesId, number }))?.id,

    assertOwnImages: (userId: number, refs: ImageRef[]) => assertOwnImages(kysely, userId, refs),

    /**
     * The chapter (numbered after the last one unless a number is given), its pages, the series' chapterCount and
     * the publishing of its images: one unit. Answers the chapter's number; throws ChapterNumberTaken.
     */
    async insert(series: { id: number; authorId: number }, input: NewChapterInput): Promise<number> {
      try {
        return await kysely.transaction().execute(async (trx) => {
          await q.countNewChapter.run({ seriesId: series.id }, trx);
          // A removed series takes no new chapters (its followers would be told of them); editing stays possible.
          await refuseRemoved(trx, "series", series.id);
          const number = input.number ?? ((await q.lastNumber.first({ seriesId: series.id }, trx))?.n ?? 0) + 1;
          const date = nowMs();
          if (await q.idOf.first({ seriesId: series.id, number }, trx)) throw new ChapterNumberTaken(number);
          const { id } = (await q.insert.first(
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
            trx,
          ))!;
          await writePages(trx, id, input.pages);
          await useImages(trx, series.authorId, "chapter", id, [input.coverId, ...input.pages, ...embeddedImageIds(input.content)]);
          // The followers are told after the answer, by the job runner (docs/decisions/017-discussion.md).
          await enqueueJob(trx, "chapter-notifications", id, date);
          return number;
        });
      } catch (err) {
        // Another writer took the number between our check and insert (it cannot, with the series locked; kept as the last word).
        if (isUniqueViolation(err) && input.number !== undefined) throw new ChapterNumberTaken(input.number);
        throw err;
      }
    },

    /**
     * The edit, its pages when given and the publishing of its images: one unit. Absent fields keep their value; a
     * null cover falls back to the (possibly new) first page.
     */
    update: (chapterId: number, input: ChapterEditInput): Promise<void> =>
      kysely.transaction().execute(async (trx) => {
        const current = (await q.lockEditable.first({ id: chapterId }, trx))!;
        if (input.pages) await writePages(trx, chapterId, input.pages);
        const coverId =
          input.coverId === undefined ? current.coverId : (input.coverId ?? (await q.firstPage.first({ chapterId }, trx))?.imageId ?? null);
        await q.update.run(
          {
            id: chapterId,
            title: input.title,
            description: input.description ?? current.description,
            content: input.content ?? current.content,
            coverId,
          },
          trx,
        );
        await useImages(trx, current.authorId, "chapter", chapterId, [
          coverId,
          ...(input.pages ?? []),
          ...embeddedImageIds(input.content ?? ""),
        ]);
      }),
  };
}
