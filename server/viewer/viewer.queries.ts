import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";

export interface LatestReadingRow {
  seriesId: number;
  chapterNumber: number;
  page: number;
  updatedAt: number;
}

export function createViewerQueries(db: Database) {
  return {
    // The first row of the continue-reading list: one step down the (userId, updatedAt DESC, seriesId DESC) index.
    latestReading: prepare<{ userId: number }, LatestReadingRow>(
      db.kysely,
      (p) => sql`SELECT p."seriesId", c."number" AS "chapterNumber", p."page", p."updatedAt"
                 FROM "ReadingProgress" p JOIN "Chapter" c ON c."id" = p."chapterId"
                 WHERE p."userId" = ${p("userId")}
                 ORDER BY p."updatedAt" DESC, p."seriesId" DESC LIMIT 1`,
    ),
  };
}
