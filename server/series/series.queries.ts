import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { LITERAL_PAGE_SIZES, prepare, type Executor, type Prepared } from "../db/prepared.ts";
import { createNamedEntityQueries } from "../named-entities/named-entity.queries.ts";
import { nameSearch } from "../named-entities/name-search.ts";
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
 * Which mature series a list shows (CONTRACT.md 14): all of them (`show`, a user who turned showMature on), or none
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

const COLUMNS = sql`s."id", s."name", s."description", s."authorId", u."username" AS "authorName", s."followersCount", s."chapterCount",
      s."profileImageId", s."profileBannerId", s."createdAt", s."removedReason",
      s."tags", s."status", s."contentRating", s."readingDirection", s."lastChapterAt",
      lc."id" AS "lcId", lc."number" AS "lcNumber", CASE WHEN lc."removedReason" IS NULL THEN lc."title" ELSE '' END AS "lcTitle", lc."date" AS "lcDate", lc."coverId" AS "lcCoverId"`;
const JOINS = sql`LEFT JOIN "Chapter" lc ON lc."id" = (SELECT c."id" FROM "Chapter" c WHERE c."seriesId" = s."id" ORDER BY c."number" DESC LIMIT 1)`;

/** The sorts (CONTRACT.md 3, 14): each ends on id desc; `updated` puts never-updated series last on both engines. */
const ORDER: Record<SeriesSort, { inner: RawBuilder<unknown>; outer: RawBuilder<unknown> }> = {
  new: { inner: sql`s2."createdAt" DESC, s2."id" DESC`, outer: sql`s."createdAt" DESC, s."id" DESC` },
  popular: { inner: sql`s2."followersCount" DESC, s2."id" DESC`, outer: sql`s."followersCount" DESC, s."id" DESC` },
  updated: { inner: sql`s2."lastChapterAt" DESC NULLS LAST, s2."id" DESC`, outer: sql`s."lastChapterAt" DESC NULLS LAST, s."id" DESC` },
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
    { page: (limit: number) => Prepared<ListValues, SeriesRow>; count: Prepared<ListValues, { n: number }> }
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
    const build = (p: (name: string) => unknown) => {
      const conds: RawBuilder<unknown>[] = filters.tags.map(
        (_t, i) => sql`s2."id" IN (SELECT t."seriesId" FROM "SeriesTag" t WHERE t."tag" = ${p(`t${i}`)})`,
      );
      if (filters.status) conds.push(sql`s2."status" = ${p("status")}`);
      if (filters.rating) conds.push(sql`s2."contentRating" = ${p("rating")}`);
      if (ownScope) conds.push(sql`(s2."contentRating" <> 'mature' OR s2."authorId" = ${p("ownerId")})`);
      else if (!scope.show) conds.push(sql`s2."contentRating" <> 'mature'`);
      if (search === "trigram")
        conds.push(sql`s2."id" IN (SELECT rowid FROM "SeriesNameSearch" WHERE "SeriesNameSearch" MATCH ${p("arg")})`);
      if (search === "like") conds.push(sql`s2."nameKey" LIKE ${p("arg")} ESCAPE '\\'`);
      return conds.length === 0 ? sql`` : sql`WHERE ${sql.join(conds, sql` AND `)}`;
    };
    const order = ORDER[params.sort];
    // The inner query pages over ids alone (as named-entity.queries.ts does), then the page's cards are joined. On
    // PostgreSQL the usual page sizes are written into the text, as prepareSized does (server/db/prepared.ts).
    const pageQuery = (limit: number | null) =>
      prepare<ListValues, SeriesRow>(
        kysely,
        (p) => sql<SeriesRow>`SELECT ${COLUMNS}
          FROM (SELECT s2."id" FROM "Series" s2 ${build(p)} ORDER BY ${order.inner}
                LIMIT ${limit === null ? p("limit") : sql.lit(limit)} OFFSET ${p("offset")}) ids
          CROSS JOIN "Series" s JOIN "User" u ON u."id" = s."authorId" ${JOINS}
          WHERE s."id" = ids."id" ORDER BY ${order.outer}`,
      );
    const pages = new Map<number | null, Prepared<ListValues, SeriesRow>>();
    shape = {
      page: (limit) => {
        const literal = db.engine === "postgres" && LITERAL_PAGE_SIZES.has(limit) ? limit : null;
        let prepared = pages.get(literal);
        if (!prepared) pages.set(literal, (prepared = pageQuery(literal)));
        return prepared;
      },
      count: prepare<ListValues, { n: number }>(kysely, (p) => {
        const where = build(p);
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
        return sql`SELECT COUNT(*) AS n FROM "Series" s2 ${where}`;
      }),
    };
    shapes.set(key, shape);
    return shape;
  }

  function valuesOf(params: SeriesListParams): ListValues {
    const values: ListValues = { limit: params.limit, offset: params.offset };
    params.filters.tags.forEach((tag, i) => (values[`t${i}`] = tag));
    if (params.filters.status) values.status = params.filters.status;
    if (params.filters.rating) values.rating = params.filters.rating;
    if (!params.scope.show && params.scope.ownerId !== null) values.ownerId = params.scope.ownerId;
    if (params.name !== "") values.arg = nameSearch(db.engine, params.name).arg;
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
      const shape = shapeOf(params);
      const values = valuesOf(params);
      const rows = await shape.page(params.limit).all(values);
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

    /** Whether the user wrote a mature series (their lists then show it to them, CONTRACT.md 14). */
    ownsMature: async (userId: number) => (await ownsMature.first({ userId })) !== undefined,

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
