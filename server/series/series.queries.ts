import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { createNamedEntityQueries } from "../named-entities/named-entity.queries.ts";

export interface SeriesRow {
  id: number;
  name: string;
  description: string;
  authorId: number;
  authorName: string;
  followersCount: number;
  chapterCount: number;
  profileImageId: number | null;
  profileBannerId: number | null;
  createdAt: number;
  /** Set while removed by moderators (docs/decisions/018-governance.md). */
  removedReason: string | null;
  lcId: number | null;
  lcNumber: number | null;
  lcTitle: string | null;
  lcDate: number | null;
  lcCoverId: number | null;
}

/** A series' card names its latest chapter and counts its chapters. */
export function createSeriesQueries(db: Database) {
  return createNamedEntityQueries<SeriesRow>(db, {
    table: "Series",
    alias: "s",
    columns: sql`s."id", s."name", s."description", s."authorId", u."username" AS "authorName", s."followersCount", s."chapterCount",
      s."profileImageId", s."profileBannerId", s."createdAt", s."removedReason",
      lc."id" AS "lcId", lc."number" AS "lcNumber", CASE WHEN lc."removedReason" IS NULL THEN lc."title" ELSE '' END AS "lcTitle", lc."date" AS "lcDate", lc."coverId" AS "lcCoverId"`,
    joins: sql`LEFT JOIN "Chapter" lc ON lc."id" = (SELECT c."id" FROM "Chapter" c WHERE c."seriesId" = s."id" ORDER BY c."number" DESC LIMIT 1)`,
    counter: "followersCount",
    link: { table: "Follow", column: "seriesId" },
    creatorLinked: false,
  });
}
