import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Placeholder, type Prepared } from "../db/prepared.ts";
import type { SitemapKind } from "../rules/sitemap.ts";

/** One live thing of a sitemap page: its path's parts and its dates (Unix ms; null where unknown). */
export interface SitemapRow {
  a: string;
  b: string | number | null;
  at: number | null;
  /** A later date that also changes the page (a series' newest chapter, a hub's newest post). */
  latest: number | null;
}

/** `now` is read by the users' query only (suspensions). */
type Range = { after: number; upTo: number; now: number };

interface KindQueries {
  /** The page's columns (SitemapRow). */
  columns: RawBuilder<unknown>;
  /** FROM and WHERE: the live rows of the id range. */
  live: (p: Placeholder<Range>) => RawBuilder<unknown>;
  /** The id the range is on (the first table's primary key). */
  id: RawBuilder<unknown>;
  table: RawBuilder<unknown>;
}

/**
 * Per kind: the live rows of an id range (`after < id <= upTo`), an index range scan on the primary key with a
 * lookup of the parent (series, hub) per row. Live: not removed by moderators, nor inside a removed series or hub;
 * users not suspended (deleted ones have no row).
 */
const KINDS: Record<SitemapKind, KindQueries> = {
  series: {
    columns: sql`s."name" AS "a", NULL AS "b", s."createdAt" AS "at",
      (SELECT MAX(c."date") FROM "Chapter" c WHERE c."seriesId" = s."id") AS "latest"`,
    live: (p) => sql`FROM "Series" s WHERE s."id" > ${p("after")} AND s."id" <= ${p("upTo")} AND s."removedAt" IS NULL`,
    id: sql`s."id"`,
    table: sql`"Series"`,
  },
  chapters: {
    columns: sql`s."name" AS "a", c."number" AS "b", c."date" AS "at", NULL AS "latest"`,
    live: (p) =>
      sql`FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId"
          WHERE c."id" > ${p("after")} AND c."id" <= ${p("upTo")} AND c."removedAt" IS NULL AND s."removedAt" IS NULL`,
    id: sql`c."id"`,
    table: sql`"Chapter"`,
  },
  hubs: {
    columns: sql`h."name" AS "a", NULL AS "b", h."createdAt" AS "at",
      (SELECT MAX(q."date") FROM "Post" q WHERE q."hubId" = h."id") AS "latest"`,
    live: (p) => sql`FROM "Hub" h WHERE h."id" > ${p("after")} AND h."id" <= ${p("upTo")} AND h."removedAt" IS NULL`,
    id: sql`h."id"`,
    table: sql`"Hub"`,
  },
  posts: {
    columns: sql`h."name" AS "a", q."id" AS "b", q."date" AS "at", NULL AS "latest"`,
    live: (p) =>
      sql`FROM "Post" q JOIN "Hub" h ON h."id" = q."hubId"
          WHERE q."id" > ${p("after")} AND q."id" <= ${p("upTo")} AND q."removedAt" IS NULL AND h."removedAt" IS NULL`,
    id: sql`q."id"`,
    table: sql`"Post"`,
  },
  users: {
    columns: sql`u."username" AS "a", NULL AS "b", NULL AS "at", NULL AS "latest"`,
    live: (p) =>
      sql`FROM "User" u
          WHERE u."id" > ${p("after")} AND u."id" <= ${p("upTo")} AND (u."suspendedUntil" IS NULL OR u."suspendedUntil" <= ${p("now")})`,
    id: sql`u."id"`,
    table: sql`"User"`,
  },
};

type Queries = {
  rows: Prepared<Range, SitemapRow>;
  any: Prepared<Range, { x: number }>;
  maxId: Prepared<Record<string, never>, { n: number | null }>;
};

export function createSitemapQueries({ kysely }: Database) {
  const byKind = new Map<SitemapKind, Queries>();
  for (const [kind, q] of Object.entries(KINDS) as [SitemapKind, KindQueries][]) {
    byKind.set(kind, {
      rows: prepare<Range, SitemapRow>(kysely, (p) => sql`SELECT ${q.columns} ${q.live(p)} ORDER BY ${q.id}`),
      // Whether the range has a live row: stops at the first, in no order (nothing to sort).
      any: prepare<Range, { x: number }>(kysely, (p) => sql`SELECT 1 AS "x" ${q.live(p)} LIMIT 1`),
      maxId: prepare<Record<string, never>, { n: number | null }>(kysely, () => sql`SELECT MAX("id") AS "n" FROM ${q.table}`),
    });
  }
  const of = (kind: SitemapKind) => byKind.get(kind)!;

  return {
    rows: (kind: SitemapKind, range: Range) => of(kind).rows.all(range),
    hasRows: async (kind: SitemapKind, range: Range) => (await of(kind).any.first(range)) !== undefined,
    maxId: async (kind: SitemapKind) => Number((await of(kind).maxId.first({}))?.n ?? 0),
    /** A page query's SQL text, for tests and EXPLAIN. */
    sqlOf: (kind: SitemapKind) => of(kind).rows.sql,
  };
}
