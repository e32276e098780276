import { sql, type RawBuilder } from "kysely";
import { linkedIds } from "../db/counted-toggle.ts";
import type { Database } from "../db/database.ts";
import { LITERAL_PAGE_SIZES, prepare, type Executor, type Prepared } from "../db/prepared.ts";
import { createNamedEntityQueries } from "../named-entities/named-entity.queries.ts";
import { matchingIds, nameSearch } from "../named-entities/name-search.ts";
import type { ContentRating, ReadingDirection, SeriesFilters, SeriesSort, SeriesStatus } from "../rules/series.ts";

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
  /** A JSON array of the tags, in the author's order. */
  tags: string;
  status: string;
  contentRating: string;
  readingDirection: string;
  lastChapterAt: number | null;
  lcId: number | null;
  lcNumber: number | null;
  lcTitle: string | null;
  lcDate: number | null;
  lcCoverId: number | null;
}

/**
 * Which mature series a list shows (docs/api.md "Series metadata and browsing"): all of them (`show`, a user who turned showMature on), or none
 * but the viewer's own (`ownerId`; null for guests).
 */
export type MatureScope = { show: true } | { show: false; ownerId: number | null };

/** A series' metadata as written with it (create: every field; edit: the given ones). */
export interface SeriesMetadata {
  tags?: string[];
  status?: SeriesStatus;
  contentRating?: ContentRating;
  readingDirection?: ReadingDirection;
}

export interface SeriesListParams {
  filters: SeriesFilters;
  sort: SeriesSort;
  scope: MatureScope;
  /** A name key to search for ("" for none). */
  name: string;
  limit: number;
  offset: number;
}

// A card's latest chapter is the highest number (the next one to publish follows it); when that one is removed, its
// title and cover are left out and the cover is the latest live chapter's (the same index, walked past the removed
// ones; read only for such cards), or none.
const LIVE_COVER = sql`(SELECT c."coverId" FROM "Chapter" c WHERE c."seriesId" = s."id" AND c."removedReason" IS NULL
  ORDER BY c."number" DESC LIMIT 1)`;
const COLUMNS = sql`s."id", s."name", s."description", s."authorId", u."username" AS "authorName", s."followersCount", s."chapterCount",
      s."profileImageId", s."profileBannerId", s."createdAt", s."removedReason",
      s."tags", s."status", s."contentRating", s."readingDirection", s."lastChapterAt",
      lc."id" AS "lcId", lc."number" AS "lcNumber", CASE WHEN lc."removedReason" IS NULL THEN lc."title" ELSE '' END AS "lcTitle", lc."date" AS "lcDate",
      CASE WHEN lc."removedReason" IS NULL THEN lc."coverId" ELSE ${LIVE_COVER} END AS "lcCoverId"`;
const JOINS = sql`LEFT JOIN "Chapter" lc ON lc."id" = (SELECT c."id" FROM "Chapter" c WHERE c."seriesId" = s."id" ORDER BY c."number" DESC LIMIT 1)`;

/** How long a list's order of its tags (rarest first) is kept, and for how many lists at most. */
const TAG_ORDER_KEPT_MS = 60_000;
const KEPT_TAG_ORDERS = 1_000;

/**
 * The sorts (docs/api.md §3, "Series metadata and browsing") on a table alias and its series id: each ends on id desc; `updated` puts never-updated
 * series last on both engines. SeriesTag carries the same keys as Series (migration series_tag_order).
 */
const ORDER: Record<SeriesSort, (t: string, id: string) => RawBuilder<unknown>> = {
  new: (t, id) => sql`${sql.ref(`${t}.createdAt`)} DESC, ${sql.ref(`${t}.${id}`)} DESC`,
  popular: (t, id) => sql`${sql.ref(`${t}.followersCount`)} DESC, ${sql.ref(`${t}.${id}`)} DESC`,
  updated: (t, id) => sql`${sql.ref(`${t}.lastChapterAt`)} DESC NULLS LAST, ${sql.ref(`${t}.${id}`)} DESC`,
};

type ListValues = Record<string, unknown>;

/** A card's tags, from the JSON column. */
export const tagsOf = (row: Pick<SeriesRow, "tags">): string[] => {
  try {
    const tags: unknown = JSON.parse(row.tags);
    return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
};

/** A card names its latest chapter and counts its chapters; the lists filter by tag, status and rating. */
export function createSeriesQueries(db: Database) {
  const { kysely } = db;
  const base = createNamedEntityQueries<SeriesRow>(db, {
    table: "Series",
    alias: "s",
    columns: COLUMNS,
    joins: JOINS,
    counter: "followersCount",
    link: { table: "Follow", column: "seriesId" },
    creatorLinked: false,
  });

  // The shape of a list query depends on which filters are given; each shape is compiled once and kept (a bounded
  // number: 3 sorts × 0-10 tags × status × rating × 3 scopes × 3 name searches).
  const shapes = new Map<
    string,
    { page: (limit: number, offset: number) => Prepared<ListValues, SeriesRow>; count: Prepared<ListValues, { n: number }> }
  >();

  function shapeOf(params: SeriesListParams) {
    const { filters, scope } = params;
    const search = params.name === "" ? null : nameSearch(db.engine, params.name).kind;
    const ownScope = !scope.show && scope.ownerId !== null;
    const key = [
      params.sort,
      filters.tags.length,
      filters.status ? 1 : 0,
      filters.rating ? 1 : 0,
      scope.show ? "all" : ownScope ? "own" : "safe",
      search,
    ].join(",");
    let shape = shapes.get(key);
    if (shape) return shape;
    // With tags, the list is read from the first tag's SeriesTag rows (t0, the rarest: rarestFirst), which carry the
    // series' sort keys, status and rating: an index holds them in order, so a page stops at its end. The other tags
    // are probes of the primary key (seriesId, tag). Without tags, from Series and its sort indexes.
    const byTag = filters.tags.length > 0;
    const [alias, idColumn] = byTag ? ["t0", "seriesId"] : ["s2", "id"];
    const col = (name: string) => sql.ref(`${alias}.${name}`);
    const id = col(idColumn);
    const build = (p: (name: string) => unknown) => {
      const conds: RawBuilder<unknown>[] = [];
      if (byTag) conds.push(sql`t0."tag" = ${p("t0")}`);
      // LIMIT 1 OFFSET 0 keeps PostgreSQL from turning the probe into a join: a generic plan would then hash both
      // tags' rows and sort them all (0.7 ms at 2,000 series) instead of walking t0's index to the page's end.
      for (let i = 1; i < filters.tags.length; i++)
        conds.push(sql`EXISTS (SELECT 1 FROM "SeriesTag" ${sql.id(`t${i}`)} WHERE ${sql.ref(`t${i}.seriesId`)} = ${id}
          AND ${sql.ref(`t${i}.tag`)} = ${p(`t${i}`)} LIMIT 1 OFFSET 0)`);
      if (filters.status) conds.push(sql`${col("status")} = ${p("status")}`);
      if (filters.rating) conds.push(sql`${col("contentRating")} = ${p("rating")}`);
      if (ownScope) {
        const own = byTag
          ? sql`t0."seriesId" IN (SELECT "id" FROM "Series" WHERE "authorId" = ${p("ownerId")})`
          : sql`s2."authorId" = ${p("ownerId")}`;
        conds.push(sql`(${col("contentRating")} <> 'mature' OR ${own})`);
      } else if (!scope.show) conds.push(sql`${col("contentRating")} <> 'mature'`);
      if (search === "trigram" || search === "suffix") conds.push(sql`${id} IN (${matchingIds("Series", search, p)})`);
      if (search === "like") conds.push(sql`${id} IN (SELECT "id" FROM "Series" WHERE "nameKey" LIKE ${p("arg")} ESCAPE '\\')`);
      return conds.length === 0 ? sql`` : sql`WHERE ${sql.join(conds, sql` AND `)}`;
    };
    const from = byTag ? sql`"SeriesTag" t0` : sql`"Series" s2`;
    const order = ORDER[params.sort];
    // The inner query pages over ids alone (as named-entity.queries.ts does), then the page's cards are joined. On
    // PostgreSQL the usual page sizes are written into the text, as prepareSized does (server/db/prepared.ts), and so
    // is the first page's OFFSET 0: with OFFSET $n the generic plan assumes a tenth of the rows skipped, which costs
    // more than a call's own plan once a tag has a few hundred series, and every call was planned anew (0.3–0.5 ms).
    const pageQuery = (limit: number | null, firstPage: boolean) =>
      prepare<ListValues, SeriesRow>(
        kysely,
        (p) => sql<SeriesRow>`SELECT ${COLUMNS}
          FROM (SELECT ${id} AS "id" FROM ${from} ${build(p)} ORDER BY ${order(alias, idColumn)}
                LIMIT ${limit === null ? p("limit") : sql.lit(limit)} OFFSET ${firstPage ? sql.lit(0) : p("offset")}) ids
          CROSS JOIN "Series" s JOIN "User" u ON u."id" = s."authorId" ${JOINS}
          WHERE s."id" = ids."id" ORDER BY ${order("s", "id")}`,
      );
    const pages = new Map<string, Prepared<ListValues, SeriesRow>>();
    shape = {
      page: (limit, offset) => {
        const postgres = db.engine === "postgres";
        const literal = postgres && LITERAL_PAGE_SIZES.has(limit) ? limit : null;
        const firstPage = postgres && offset === 0;
        const key = `${literal}:${firstPage}`;
        let prepared = pages.get(key);
        if (!prepared) pages.set(key, (prepared = pageQuery(literal, firstPage)));
        return prepared;
      },
      count: prepare<ListValues, { n: number }>(kysely, (p) => {
        if (filters.tags.length === 0 && !filters.status && !filters.rating && search === null) {
          // The whole list: the row count kept by triggers (docs/decisions/016-row-counts.md), less the mature series
          // the viewer does not see (the index on contentRating).
          const rows = sql`(SELECT "rows" FROM "RowCount" WHERE "tableName" = 'Series')`;
          if (scope.show) return sql`SELECT ${rows} AS n`;
          const hidden = ownScope
            ? sql`(SELECT COUNT(*) FROM "Series" WHERE "contentRating" = 'mature' AND "authorId" <> ${p("ownerId")})`
            : sql`(SELECT COUNT(*) FROM "Series" WHERE "contentRating" = 'mature')`;
          return sql`SELECT ${rows} - ${hidden} AS n`;
        }
        if ((filters.tags.length === 1 || filters.tags.length === 2) && search === null) {
          // One or two tags: their counts per rating and status, kept by triggers, plus the viewer's own mature series.
          const pair = filters.tags.length === 2;
          const conds = [
            pair
              ? sql`((c."tag" = ${p("t0")} AND c."otherTag" = ${p("t1")}) OR (c."tag" = ${p("t1")} AND c."otherTag" = ${p("t0")}))`
              : sql`c."tag" = ${p("t0")}`,
          ];
          if (filters.status) conds.push(sql`c."status" = ${p("status")}`);
          if (filters.rating) conds.push(sql`c."contentRating" = ${p("rating")}`);
          if (!scope.show) conds.push(sql`c."contentRating" <> 'mature'`);
          const counts = pair ? sql`"SeriesTagPairCount"` : sql`"SeriesTagCount"`;
          const counted = sql`(SELECT COALESCE(SUM(c."rows"), 0) FROM ${counts} c WHERE ${sql.join(conds, sql` AND `)})`;
          if (!ownScope) return sql`SELECT ${counted} AS n`;
          // CROSS JOIN: SQLite reads the author's few series first (their index), then probes each one's tags.
          const own = [sql`t0."tag" = ${p("t0")}`, sql`t0."contentRating" = 'mature'`];
          if (pair) own.push(sql`EXISTS (SELECT 1 FROM "SeriesTag" t1 WHERE t1."seriesId" = s."id" AND t1."tag" = ${p("t1")})`);
          if (filters.status) own.push(sql`t0."status" = ${p("status")}`);
          if (filters.rating) own.push(sql`t0."contentRating" = ${p("rating")}`);
          return sql`SELECT ${counted} + (SELECT COUNT(*) FROM "Series" s CROSS JOIN "SeriesTag" t0
            WHERE s."authorId" = ${p("ownerId")} AND t0."seriesId" = s."id" AND ${sql.join(own, sql` AND `)}) AS n`;
        }
        return sql`SELECT COUNT(*) AS n FROM ${from} ${build(p)}`;
      }),
    };
    shapes.set(key, shape);
    return shape;
  }

  // How many series carry each of the tags (any rating and status), for the rarest first; one query per number of tags.
  const tagTotals = new Map<number, Prepared<ListValues, { tag: string; n: number }>>();
  // The order only decides how fast a list is read (its page and total are the same either way) and changes slowly,
  // so it is kept for a minute: one query less per request. "No series has this tag" is never kept: one may now.
  const keptOrders = new Map<string, { order: string[]; until: number }>();
  async function rarestFirst(tags: string[]): Promise<string[] | null> {
    const key = tags.join("\n");
    const kept = keptOrders.get(key);
    if (kept && kept.until > Date.now()) return kept.order;
    const order = await countedRarestFirst(tags);
    if (order) {
      if (keptOrders.size >= KEPT_TAG_ORDERS) keptOrders.clear();
      keptOrders.set(key, { order, until: Date.now() + TAG_ORDER_KEPT_MS });
    }
    return order;
  }
  async function countedRarestFirst(tags: string[]): Promise<string[] | null> {
    let query = tagTotals.get(tags.length);
    if (!query)
      tagTotals.set(
        tags.length,
        (query = prepare<ListValues, { tag: string; n: number }>(
          kysely,
          (p) => sql`SELECT "tag", SUM("rows") AS n FROM "SeriesTagCount"
            WHERE "tag" IN (${sql.join(tags.map((_t, i) => p(`t${i}`)))}) GROUP BY "tag"`,
        )),
      );
    const values: ListValues = {};
    tags.forEach((tag, i) => (values[`t${i}`] = tag));
    const totals = new Map((await query.all(values)).map((row) => [row.tag, Number(row.n)]));
    // A tag no series carries: the list is empty.
    if (tags.some((tag) => !totals.get(tag))) return null;
    return [...tags].sort((a, b) => totals.get(a)! - totals.get(b)!);
  }

  function valuesOf(params: SeriesListParams, tags: string[]): ListValues {
    const values: ListValues = { limit: params.limit, offset: params.offset };
    tags.forEach((tag, i) => (values[`t${i}`] = tag));
    if (params.filters.status) values.status = params.filters.status;
    if (params.filters.rating) values.rating = params.filters.rating;
    if (!params.scope.show && params.scope.ownerId !== null) values.ownerId = params.scope.ownerId;
    if (params.name !== "") Object.assign(values, nameSearch(db.engine, params.name).values);
    return values;
  }

  const ownsMature = prepare<{ userId: number }, { one: number }>(
    kysely,
    (p) => sql`SELECT 1 AS one FROM "Series" WHERE "authorId" = ${p("userId")} AND "contentRating" = 'mature' LIMIT 1`,
  );

  const deleteTags = prepare<{ id: number }>(kysely, (p) => sql`DELETE FROM "SeriesTag" WHERE "seriesId" = ${p("id")}`);

  /** The most used tags among the series the scope shows (live ones only), ties by name, and how many tags there are. */
  const tagShapes = new Map<
    string,
    { page: Prepared<ListValues, { name: string; seriesCount: number }>; count: Prepared<ListValues, { n: number }> }
  >();
  function tagQueries(scope: MatureScope) {
    const ownScope = !scope.show && scope.ownerId !== null;
    const key = scope.show ? "all" : ownScope ? "own" : "safe";
    let shape = tagShapes.get(key);
    if (shape) return shape;
    const visible = (p: (name: string) => unknown) =>
      scope.show
        ? sql``
        : ownScope
          ? sql`AND (s."contentRating" <> 'mature' OR s."authorId" = ${p("ownerId")})`
          : sql`AND s."contentRating" <> 'mature'`;
    const counted = (p: (name: string) => unknown) =>
      sql`SELECT t."tag" AS "name", COUNT(*) AS "seriesCount" FROM "SeriesTag" t JOIN "Series" s ON s."id" = t."seriesId"
        WHERE s."removedReason" IS NULL ${visible(p)} GROUP BY t."tag"`;
    shape = {
      page: prepare(
        kysely,
        (p) => sql<{ name: string; seriesCount: number }>`SELECT "name", "seriesCount" FROM (${counted(p)}) tc
          ORDER BY "seriesCount" DESC, "name" ASC LIMIT ${p("limit")} OFFSET ${p("offset")}`,
      ),
      count: prepare(kysely, (p) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM (${counted(p)}) tc`),
    };
    tagShapes.set(key, shape);
    return shape;
  }

  return {
    ...base,

    /** One page of a filtered, sorted list and its exact total. */
    async list(params: SeriesListParams): Promise<{ rows: SeriesRow[]; total: number }> {
      const tags = params.filters.tags.length > 1 ? await rarestFirst(params.filters.tags) : params.filters.tags;
      if (tags === null) return { rows: [], total: 0 };
      const shape = shapeOf(params);
      const values = valuesOf(params, tags);
      const rows = await shape.page(params.limit, params.offset).all(values);
      const total = Number((await shape.count.first(values))!.n);
      return { rows, total };
    },

    /** One page of the tags and how many there are. */
    async tags(scope: MatureScope, limit: number, offset: number) {
      const q = tagQueries(scope);
      const values: ListValues = { limit, offset, ...(!scope.show && scope.ownerId !== null ? { ownerId: scope.ownerId } : {}) };
      const rows = await q.page.all(values);
      const total = Number((await q.count.first(values))!.n);
      return { rows: rows.map((r) => ({ name: r.name, seriesCount: Number(r.seriesCount) })), total };
    },

    /** Whether the user wrote a mature series (their lists then show it to them, docs/api.md "Series metadata and browsing"). */
    ownsMature: async (userId: number) => (await ownsMature.first({ userId })) !== undefined,

    /** Which of these series the viewer follows, in one read of the (userId, seriesId) key. */
    followedBy: (viewerId: number, ids: number[]) => linkedIds(kysely, { link: "Follow", targetColumn: "seriesId" }, viewerId, ids),

    /** Writes the given metadata of the series (tags: the JSON column and the SeriesTag rows), in the caller's transaction. */
    async writeMetadata(trx: Executor, id: number, meta: SeriesMetadata): Promise<void> {
      const changes: Record<string, string> = {};
      if (meta.status !== undefined) changes.status = meta.status;
      if (meta.contentRating !== undefined) changes.contentRating = meta.contentRating;
      if (meta.readingDirection !== undefined) changes.readingDirection = meta.readingDirection;
      if (meta.tags !== undefined) changes.tags = JSON.stringify(meta.tags);
      if (Object.keys(changes).length > 0) await trx.updateTable("Series").set(changes).where("id", "=", id).execute();
      if (meta.tags === undefined) return;
      await deleteTags.run({ id }, trx);
      if (meta.tags.length > 0)
        await trx
          .insertInto("SeriesTag")
          .values(meta.tags.map((tag) => ({ seriesId: id, tag })))
          .execute();
    },
  };
}
