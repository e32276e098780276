import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, prepareSized, type Executor } from "../db/prepared.ts";

export interface ProgressRow {
  seriesId: number;
  chapterNumber: number;
  page: number;
  updatedAt: number;
}
export interface ContinueRow extends ProgressRow {
  unreadChapters: number;
}
export interface ChapterTarget {
  id: number;
  number: number;
  pageCount: number;
}

/** True for a foreign-key failure on either engine: the chapter or series went while the save ran. */
export function isForeignKeyViolation(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code } = err as { code?: unknown };
  return typeof code === "string" && (code === "23503" || code.startsWith("SQLITE_CONSTRAINT_FOREIGNKEY"));
}

/** Which of these chapters the viewer has read, in one query over the primary key (userId, chapterId). */
export async function readAmong(on: Executor, viewerId: number | undefined, chapterIds: number[]): Promise<Set<number>> {
  if (viewerId === undefined || chapterIds.length === 0) return new Set();
  const { rows } = await sql<{ chapterId: number }>`SELECT "chapterId" FROM "ChapterRead"
    WHERE "userId" = ${viewerId} AND "chapterId" IN (${sql.join([...new Set(chapterIds)])})`.execute(on);
  return new Set(rows.map((r) => Number(r.chapterId)));
}

/** The user's positions, most recent first, with `columns` added and `limit` after the order. */
const mostRecentFirst = <Row>(userId: unknown, columns: RawBuilder<unknown>, limit: RawBuilder<unknown>) =>
  sql<Row>`SELECT p."seriesId", c."number" AS "chapterNumber", p."page", p."updatedAt"${columns}
      FROM "ReadingProgress" p JOIN "Chapter" c ON c."id" = p."chapterId"
      WHERE p."userId" = ${userId}
      ORDER BY p."updatedAt" DESC, p."seriesId" DESC ${limit}`;

/**
 * Reading progress (docs/api.md "Reading progress"): one ReadingProgress row per user and series (the
 * latest write wins) and the ChapterRead rows, written in one unit.
 */
export function createProgressQueries(db: Database) {
  const { kysely } = db;
  const q = {
    seriesExists: prepare<{ id: number }, { id: number }>(kysely, (p) => sql`SELECT "id" FROM "Series" WHERE "id" = ${p("id")}`),
    chapter: prepare<{ seriesId: number; number: number }, ChapterTarget>(
      kysely,
      (p) => sql`SELECT c."id", c."number", (SELECT COUNT(*) FROM "ChapterPage" cp WHERE cp."chapterId" = c."id") AS "pageCount"
                 FROM "Chapter" c WHERE c."seriesId" = ${p("seriesId")} AND c."number" = ${p("number")}`,
    ),
    current: prepare<{ userId: number; seriesId: number }, ProgressRow & { chapterId: number }>(
      kysely,
      (p) => sql`SELECT p."seriesId", p."chapterId", c."number" AS "chapterNumber", p."page", p."updatedAt"
                 FROM "ReadingProgress" p JOIN "Chapter" c ON c."id" = p."chapterId"
                 WHERE p."userId" = ${p("userId")} AND p."seriesId" = ${p("seriesId")}`,
    ),
    // The latest write wins: a save of an older chapter after a newer one moves the position back.
    upsert: prepare<{ userId: number; seriesId: number; chapterId: number; page: number; now: number }>(
      kysely,
      (p) => sql`INSERT INTO "ReadingProgress" ("userId", "seriesId", "chapterId", "page", "updatedAt")
                 VALUES (${p("userId")}, ${p("seriesId")}, ${p("chapterId")}, ${p("page")}, ${p("now")})
                 ON CONFLICT ("userId", "seriesId") DO UPDATE
                   SET "chapterId" = excluded."chapterId", "page" = excluded."page", "updatedAt" = excluded."updatedAt"`,
    ),
    markRead: prepare<{ userId: number; chapterId: number; now: number }>(
      kysely,
      (p) => sql`INSERT INTO "ChapterRead" ("userId", "chapterId", "readAt") VALUES (${p("userId")}, ${p("chapterId")}, ${p("now")})
                 ON CONFLICT DO NOTHING`,
    ),
    // Most recent first over the (userId, updatedAt DESC, seriesId DESC) index; the unread count reads the
    // (seriesId, number) unique index from the chapter in progress on.
    page: prepareSized<{ userId: number; limit: number; offset: number }, ContinueRow>(db, (p, limit) =>
      mostRecentFirst<ContinueRow>(
        p("userId"),
        sql`, (SELECT COUNT(*) FROM "Chapter" n
               WHERE n."seriesId" = p."seriesId" AND n."number" > c."number" AND n."removedReason" IS NULL) AS "unreadChapters"`,
        sql`LIMIT ${limit} OFFSET ${p("offset")}`,
      ),
    ),
    // The list's first row: one step down the same index.
    latest: prepare<{ userId: number }, ProgressRow>(kysely, (p) => mostRecentFirst<ProgressRow>(p("userId"), sql``, sql`LIMIT 1`)),
    count: prepare<{ userId: number }, { n: number }>(
      kysely,
      (p) => sql`SELECT COUNT(*) AS "n" FROM "ReadingProgress" WHERE "userId" = ${p("userId")}`,
    ),
  };

  return {
    seriesExists: async (id: number) => (await q.seriesExists.first({ id })) !== undefined,

    chapter: (seriesId: number, number: number) => q.chapter.first({ seriesId, number }),

    current: (userId: number, seriesId: number) => q.current.first({ userId, seriesId }),

    /**
     * Saves the position and the chapters it reads, on the service's transaction: the chapter when `page` is its last,
     * and the chapter the reader was in before when this one is later (they moved on). `keepFurther`: a chapter-level
     * save (opening the chapter) keeps a position further into the same chapter. Answers the position stored.
     */
    async save(
      trx: Executor,
      userId: number,
      seriesId: number,
      chapter: ChapterTarget,
      page: number,
      now: number,
      keepFurther: boolean,
    ): Promise<ProgressRow> {
      const before = await q.current.first({ userId, seriesId }, trx);
      const stored =
        keepFurther && before && Number(before.chapterId) === chapter.id && Number(before.page) > page ? Number(before.page) : page;
      await q.upsert.run({ userId, seriesId, chapterId: chapter.id, page: stored, now }, trx);
      if (stored >= Number(chapter.pageCount)) await q.markRead.run({ userId, chapterId: chapter.id, now }, trx);
      if (before && Number(before.chapterNumber) < chapter.number)
        await q.markRead.run({ userId, chapterId: Number(before.chapterId), now }, trx);
      return { seriesId, chapterNumber: chapter.number, page: stored, updatedAt: now };
    },

    page: (userId: number, limit: number, offset: number) => q.page.all({ userId, limit, offset }),

    /** The position saved last (the first row of `page`), for the viewer's state. */
    latest: (userId: number) => q.latest.first({ userId }),

    count: async (userId: number) => Number((await q.count.first({ userId }))?.n ?? 0),
  };
}
