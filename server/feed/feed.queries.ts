import { sql, type RawBuilder } from "kysely";
import type { Database, Engine } from "../db/database.ts";
import { prepare, type Placeholder } from "../db/prepared.ts";
import { notBlockedBy } from "../blocks/blocks.queries.ts";

export interface FeedRow {
  type: "chapter" | "post";
  id: number;
  date: number;
}

type Page = { userId: number; take: number; skip: number; limit: number; offset: number };

/** A source of the feed: the rows of `table` owned (`owner`) by what the user has a row of `link` for. */
interface FeedSource {
  type: FeedRow["type"];
  table: "Chapter" | "Post";
  /** The owner's id, in `table` and in `link` alike; `table` has an index on (owner, date DESC, id DESC). */
  owner: "seriesId" | "hubId";
  /** The user's follows or memberships: one row per (userId, owner). */
  link: "Follow" | "Membership";
  columns: readonly Exclude<keyof FeedRow, "type">[];
}

const SOURCES: readonly FeedSource[] = [
  { type: "chapter", table: "Chapter", owner: "seriesId", link: "Follow", columns: ["id", "date"] },
  { type: "post", table: "Post", owner: "hubId", link: "Membership", columns: ["id", "date"] },
];

/**
 * For a viewer who blocks someone (`hiding`), the posts of blocked authors are not in the feed: the same filter in the
 * newest-row reads and the row reads keeps the cut's reasoning true (docs/decisions/018-governance.md "Blocks").
 */
const hidingFilter = (source: FeedSource, hiding: boolean, p: Placeholder<Page>) =>
  hiding && source.table === "Post" ? sql`AND ${notBlockedBy(p("userId"), sql.ref("n.authorId"))}` : sql``;

/** Each link's owner and the date of its newest row (null: none yet), for every source: one index read per link. */
function sourceTops(p: Placeholder<Page>, hiding = false) {
  return sql.join(
    SOURCES.map(
      (source) =>
        sql`SELECT ${sql.lit(source.type)} AS "type", ${sql.ref(`l.${source.owner}`)} AS "owner",
          (SELECT n."date" FROM ${sql.table(source.table)} n WHERE ${sql.ref(`n.${source.owner}`)} = ${sql.ref(`l.${source.owner}`)} ${hidingFilter(source, hiding, p)}
           ORDER BY n."date" DESC, n."id" DESC LIMIT 1) AS "top"
        FROM ${sql.table(source.link)} l WHERE l."userId" = ${p("userId")}`,
    ),
    sql` UNION ALL `,
  );
}

const CUT = sql`(SELECT "date" FROM "cut")`;

/**
 * A source's newest `take` rows since the cut, for each of the user's links whose newest row is not older than it,
 * read by the owner's index. The engines differ in how they run a per-link LIMIT: SQLite runs a correlated
 * `IN (SELECT ... LIMIT n)` once per link row, with CROSS JOIN to keep the links as the outer loop (the CTE has no
 * statistics: with a plain JOIN it scanned every post and probed the links, 49 ms on the small set and over 10 s on
 * the large one, against 0.5 ms); PostgreSQL plans that IN as a filter over every row of the linked owners (430 ms
 * with a 50,000-post hub), so it gets the same per-link read as a LATERAL join (docs/decisions/017-discussion.md).
 */
function sourceRows(source: FeedSource, engine: Engine, p: Placeholder<Page>, hiding = false) {
  const { table, owner } = source;
  const columns = (alias: string) => sql.join(source.columns.map((c) => sql.ref(`${alias}.${c}`)));
  // l: the link with its newest date, s: the source's rows, n: the newest of them for one link.
  const newest = (selected: RawBuilder<unknown>) =>
    sql`SELECT ${selected} FROM ${sql.table(table)} n WHERE ${sql.ref(`n.${owner}`)} = l."owner" AND n."date" >= ${CUT} ${hidingFilter(source, hiding, p)}
        ORDER BY n."date" DESC, n."id" DESC LIMIT ${p("take")}`;
  const rows =
    engine === "postgres"
      ? sql`CROSS JOIN LATERAL (${newest(columns("n"))}) s`
      : sql`CROSS JOIN ${sql.table(table)} s ON s."id" IN (${newest(sql.ref("n.id"))})`;
  return sql`SELECT ${sql.lit(source.type)} AS "type", ${columns("s")} FROM "tops" l ${rows}
    WHERE l."type" = ${sql.lit(source.type)} AND l."top" >= ${CUT}`;
}

/**
 * The newest `take` rows of all sources, merged newest first (ties: chapters first, then the newest id). Only the
 * links among the `take` with the newest rows can hold any of them: the take-th newest "newest row of a link" (the
 * cut) leaves at least `take` rows at or after it, so every row of the page is at or after it, and comes from a link
 * whose newest row is too. So each link is read once for its newest date, and only the links past the cut for their
 * rows: 500 followed series read ~20 links' rows, not 500. The cost grows with the number of links and the page's
 * depth, not with the tables (docs/decisions/017-discussion.md).
 */
function feedPage(engine: Engine, hiding = false) {
  return (p: Placeholder<Page>) => {
    const sources = sql.join(
      SOURCES.map((source) => sourceRows(source, engine, p, hiding)),
      sql` UNION ALL `,
    );
    return sql<FeedRow>`WITH "tops" AS MATERIALIZED (${sourceTops(p, hiding)}),
      "cut" AS MATERIALIZED (SELECT COALESCE(
        (SELECT "top" FROM "tops" WHERE "top" IS NOT NULL ORDER BY "top" DESC LIMIT 1 OFFSET ${p("skip")}), -1) AS "date")
      SELECT "type", "id", "date" FROM (${sources}) AS "feed"
      ORDER BY "date" DESC, "type", "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}`;
  };
}

/** The following feed of a user: what is new in the series they follow and the hubs they joined. */
export function createFeedQueries({ kysely, engine }: Database) {
  const q = {
    page: prepare<Page, FeedRow>(kysely, feedPage(engine)),
    pageHiding: prepare<Page, FeedRow>(kysely, feedPage(engine, true)),
    // The posts of the joined hubs by users the viewer blocks: one Post(authorId) index read per block.
    hidden: prepare<{ userId: number }, { n: number }>(
      kysely,
      (p) => sql`SELECT COALESCE(SUM((SELECT COUNT(*) FROM "Post" x JOIN "Membership" m ON m."hubId" = x."hubId" AND m."userId" = b."userId"
                   WHERE x."authorId" = b."blockedId")), 0) AS "n"
                 FROM "Block" b WHERE b."userId" = ${p("userId")}`,
    ),
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
    /** The page query's SQL, for the test of its plan. */
    pageSql: q.page.sql,

    /**
     * A page of the feed's first `cap` items, and how many items it holds (at most `cap`). `hiding`: the viewer
     * blocks someone, whose posts are left out; `hidden` counts them (in every joined hub, not only the first `cap`).
     */
    async page(
      userId: number,
      cap: number,
      perPage: number,
      offset: number,
      hiding = false,
    ): Promise<{ total: number; rows: FeedRow[]; hidden?: number }> {
      const hidden = hiding ? Number((await q.hidden.first({ userId }))!.n) : undefined;
      const total = Math.min(cap, Number((await q.total.first({ userId }))?.n ?? 0) - (hidden ?? 0));
      const limit = Math.min(perPage, total - offset);
      if (limit <= 0) return { total, rows: [], hidden };
      const rows = await (hiding ? q.pageHiding : q.page).all({ userId, take: offset + limit, skip: offset + limit - 1, limit, offset });
      return { total, rows, hidden };
    },
  };
}
