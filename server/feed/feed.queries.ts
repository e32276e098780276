import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";

export interface FeedRow {
  type: "chapter" | "post";
  id: number;
  date: number;
}

type Page = { userId: number; take: number; limit: number; offset: number };

/**
 * The newest `take` chapters of each followed series and posts of each joined hub, each source read by its own
 * index, merged newest first (ties: chapters first, then the newest id). The cost grows with the number of sources
 * and the page's depth, not with the tables (docs/decisions/017-discussion.md). The engines differ in how they
 * run a per-source LIMIT: SQLite runs a correlated `IN (SELECT ... LIMIT n)` once per source row; PostgreSQL plans
 * that as a filter over every post of the joined hubs, so it gets the same per-source read as a LATERAL join.
 */
function feedPage(engine: Database["engine"]) {
  return (p: <K extends keyof Page>(name: K) => Page[K]) => {
    const chapters =
      engine === "postgres"
        ? sql`SELECT 'chapter' AS "type", c."id", c."date" FROM "Follow" f
              CROSS JOIN LATERAL (SELECT c2."id", c2."date" FROM "Chapter" c2 WHERE c2."seriesId" = f."seriesId"
                                  ORDER BY c2."date" DESC, c2."id" DESC LIMIT ${p("take")}) c
              WHERE f."userId" = ${p("userId")}`
        : sql`SELECT 'chapter' AS "type", c."id", c."date" FROM "Follow" f
              JOIN "Chapter" c ON c."id" IN (SELECT c2."id" FROM "Chapter" c2 WHERE c2."seriesId" = f."seriesId"
                                             ORDER BY c2."date" DESC, c2."id" DESC LIMIT ${p("take")})
              WHERE f."userId" = ${p("userId")}`;
    const posts =
      engine === "postgres"
        ? sql`SELECT 'post' AS "type", p."id", p."date" FROM "Membership" m
              CROSS JOIN LATERAL (SELECT p2."id", p2."date" FROM "Post" p2 WHERE p2."hubId" = m."hubId"
                                  ORDER BY p2."date" DESC, p2."id" DESC LIMIT ${p("take")}) p
              WHERE m."userId" = ${p("userId")}`
        : sql`SELECT 'post' AS "type", p."id", p."date" FROM "Membership" m
              JOIN "Post" p ON p."id" IN (SELECT p2."id" FROM "Post" p2 WHERE p2."hubId" = m."hubId"
                                          ORDER BY p2."date" DESC, p2."id" DESC LIMIT ${p("take")})
              WHERE m."userId" = ${p("userId")}`;
    return sql<FeedRow>`SELECT "type", "id", "date" FROM (${chapters} UNION ALL ${posts}) AS "feed"
      ORDER BY "date" DESC, "type", "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}`;
  };
}

/** The following feed of a user: what is new in the series they follow and the hubs they joined. */
export function createFeedQueries({ kysely, engine }: Database) {
  const q = {
    page: prepare<Page, FeedRow>(kysely, feedPage(engine)),
    // Every chapter of the followed series and post of the joined hubs, from the kept counts.
    total: prepare<{ userId: number }, { n: number }>(
      kysely,
      (
        p,
      ) => sql`SELECT COALESCE((SELECT SUM(s."chapterCount") FROM "Follow" f JOIN "Series" s ON s."id" = f."seriesId" WHERE f."userId" = ${p("userId")}), 0)
                      + COALESCE((SELECT SUM(h."postCount") FROM "Membership" m JOIN "Hub" h ON h."id" = m."hubId" WHERE m."userId" = ${p("userId")}), 0)
                    AS "n"`,
    ),
  };
  return {
    /** A page of the feed's first `cap` items, and how many items it holds (at most `cap`). */
    async page(userId: number, cap: number, perPage: number, offset: number): Promise<{ total: number; rows: FeedRow[] }> {
      const total = Math.min(cap, Number((await q.total.first({ userId }))?.n ?? 0));
      const limit = Math.min(perPage, total - offset);
      if (limit <= 0) return { total, rows: [] };
      const rows = await q.page.all({ userId, take: offset + limit, limit, offset });
      return { total, rows };
    },
  };
}
