import { sql } from "kysely";
import { linkedIds } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { prepare, prepareAmong, type Executor } from "../db/prepared.ts";
import type { ChapterOrder } from "../rules/chapter.ts";

export type { ChapterOrder };

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
export type NewChapterRow = {
  seriesId: number;
  number: number;
  title: string;
  description: string;
  content: string;
  date: number;
  coverId: number;
  authorId: number;
};
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

// Multi-row inserts of pages in chunks: 3 values a row, well under SQLite's parameter limit.
const PAGE_CHUNK = 300;

/** The list items of these chapters (in no order): the cards of other lists (the following feed). */
export async function chapterCards(on: Executor, ids: number[]): Promise<ChapterRow[]> {
  if (ids.length === 0) return [];
  return (await sql<ChapterRow>`${CHAPTER_SUMMARY} WHERE c."id" IN (${sql.join(ids)})`.execute(on)).rows;
}

/** A series' chapters, a chapter with its pages, and the statements of the publishing and editing units (the service's transactions). */
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
    countNewChapter: prepare<{ seriesId: number }, { id: number }>(
      kysely,
      (p) => sql`UPDATE "Series" SET "chapterCount" = "chapterCount" + 1 WHERE "id" = ${p("seriesId")} RETURNING "id"`,
    ),
    insert: prepare<NewChapterRow, { id: number }>(
      kysely,
      (p) => sql`INSERT INTO "Chapter" ("seriesId", "number", "title", "description", "content", "likes", "date", "coverId", "authorId")
                 VALUES (${p("seriesId")}, ${p("number")}, ${p("title")}, ${p("description")}, ${p("content")}, 0, ${p("date")}, ${p("coverId")},
                         ${p("authorId")})
                 RETURNING "id"`,
    ),
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

  const likedAndRead = prepareAmong<{ viewerId: number }, { id: number; liked: number }>(kysely, (p, among) => {
    const viewer = p("viewerId");
    return sql`SELECT "chapterId" AS "id", 1 AS "liked" FROM "ChapterLike" WHERE "userId" = ${viewer} AND "chapterId" IN ${among}
               UNION ALL
               SELECT "chapterId" AS "id", 0 AS "liked" FROM "ChapterRead" WHERE "userId" = ${viewer} AND "chapterId" IN ${among}`;
  });

  return {
    async page(seriesId: number, order: ChapterOrder, limit: number, offset: number): Promise<{ total: number; rows: ChapterRow[] }> {
      const rows = await q.list[order].all({ seriesId, limit, offset });
      const total = (await q.chapterCount.first({ seriesId }))?.chapterCount ?? 0;
      return { total, rows };
    },

    /** Which of these chapters the viewer liked, in one query. */
    likedBy: (viewerId: number | undefined, ids: number[]) =>
      linkedIds(kysely, { link: "ChapterLike", targetColumn: "chapterId" }, viewerId, ids),

    /**
     * Which of these chapters the viewer liked and which they read, in one statement: two range reads of the
     * (userId, chapterId) primary keys of ChapterLike and ChapterRead.
     */
    async likedAndRead(viewerId: number, ids: number[]): Promise<{ liked: Set<number>; read: Set<number> }> {
      const liked = new Set<number>();
      const read = new Set<number>();
      for (const row of await likedAndRead.all({ viewerId }, ids)) (Number(row.liked) === 1 ? liked : read).add(Number(row.id));
      return { liked, read };
    },

    detail: (seriesId: number, number: number, viewerId: number | undefined) =>
      q.detail.first({ seriesId, number, viewerId: viewerId ?? 0 }),

    pages: (chapterId: number) => q.pages.all({ chapterId }),

    idOf: async (seriesId: number, number: number) => (await q.idOf.first({ seriesId, number }))?.id,

    /**
     * First in the publishing unit: counts the new chapter on its series and locks the series' row, so publishes of one
     * series take turns on their numbers.
     */
    countNewChapter: (trx: Executor, seriesId: number) => q.countNewChapter.run({ seriesId }, trx),

    /** The number after the series' last chapter (1 for the first). */
    nextNumber: async (trx: Executor, seriesId: number) => ((await q.lastNumber.first({ seriesId }, trx))?.n ?? 0) + 1,

    numberTaken: async (trx: Executor, seriesId: number, number: number) => (await q.idOf.first({ seriesId, number }, trx)) !== undefined,

    /** The chapter's row and its pages; answers its id. */
    async insert(trx: Executor, row: NewChapterRow, pages: number[]): Promise<number> {
      const { id } = (await q.insert.first(row, trx))!;
      await writePages(trx, id, pages);
      return id;
    },

    /** First in the editing unit: locks the chapter's row and reads what an edit may keep. */
    lockEditable: async (trx: Executor, chapterId: number) => (await q.lockEditable.first({ id: chapterId }, trx))!,

    writePages,

    firstPage: async (trx: Executor, chapterId: number) => (await q.firstPage.first({ chapterId }, trx))?.imageId ?? null,

    update: (trx: Executor, row: { id: number; title: string; description: string; content: string; coverId: number | null }) =>
      q.update.run(row, trx),
  };
}
