import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, prepareSized, type Executor, type Prepared } from "../db/prepared.ts";
import { useImages } from "../images/own-images.ts";
import { nameFilter, nameSearch, searchPlan, suffixRange, type NameSearch, type SearchPlan, type SuffixRange } from "./name-search.ts";

/** What makes hubs and series differ to their queries: the table, the card and the viewer's link. */
export interface NamedEntityTable {
  table: "Hub" | "Series";
  /** The alias `columns` and `joins` use for the table (its author is `u`). */
  alias: string;
  /** The card's columns. */
  columns: RawBuilder<unknown>;
  /** Joins after the author's: the latest post or chapter. */
  joins: RawBuilder<unknown>;
  /** The count the "top" order sorts by, kept with the link rows. */
  counter: "memberCount" | "followersCount";
  /** The viewer's link (membership, follow): one row per user and entity, with its createdAt. */
  link: { table: "Membership" | "Follow"; column: "hubId" | "seriesId" };
  /** The creator is linked to what they create (a hub's first member), in the same transaction. */
  creatorLinked: boolean;
}

/** The columns every card row has, whatever else it carries. */
export interface NamedEntityRow {
  id: number;
  name: string;
  authorId: number;
}

export type NewNamedEntity = {
  name: string;
  nameKey: string;
  description: string;
  profileImageId: number | null;
  profileBannerId: number | null;
  authorId: number;
  createdAt: number;
};

/** The columns an edit writes: the name always; description and images when given (null clears them). */
export type NamedEntityChanges = {
  name: string;
  nameKey: string;
  description?: string;
  profileImageId?: number | null;
  profileBannerId?: number | null;
};

export type PageParams = { limit: number; offset: number };

/** More of the same write, in its transaction (a series' tags and metadata). */
export type AlsoWrite = (trx: Executor, id: number) => Promise<void>;
/** A search's values: the text's form for its kind (name-search.ts), the suffix range's when it has one. */
type SearchValues = { arg: string } & Partial<Omit<SuffixRange, "arg">>;
type SearchParams = PageParams & SearchValues;
type Count = { n: number };
type Total = { total: number };

export type NamedEntityQueries<Row extends NamedEntityRow> = ReturnType<typeof createNamedEntityQueries<Row>>;

/**
 * The queries hubs and series share: pages of cards newest or top first, the name search and its counts,
 * lookups by name key and id, the viewer's link, and the create and edit units. One SQL text for both
 * engines (identifiers quoted for PostgreSQL) except the name filter; the hot ones are compiled here, once.
 */
export function createNamedEntityQueries<Row extends NamedEntityRow>(db: Database, spec: NamedEntityTable) {
  const { kysely } = db;
  const table = sql.table(spec.table);
  const imageUser = spec.table === "Hub" ? "hub" : "series";
  const e = sql.id(spec.alias);
  const counter = sql.ref(spec.counter);
  const link = sql.table(spec.link.table);
  const linkColumn = sql.ref(spec.link.column);

  // A card names its author and its latest post or chapter in the same query (no N+1).
  const cards = (from: RawBuilder<unknown>, rest: RawBuilder<unknown>, extraColumns = sql``) =>
    sql<Row>`SELECT ${spec.columns}${extraColumns} FROM ${from} JOIN "User" u ON u."id" = ${e}."authorId" ${spec.joins} ${rest}`;
  const fromTable = sql`${table} ${e}`;

  // The table's rows, kept by triggers (docs/decisions/016-row-counts.md): one row read, not a COUNT(*) of every row.
  const rowCount = sql`(SELECT "rows" FROM "RowCount" WHERE "tableName" = ${sql.lit(spec.table)})`;
  const totalColumn = sql`, ${rowCount} AS "total"`;

  const ORDER = {
    newest: { inner: sql`"createdAt" DESC, "id" DESC`, outer: sql`${e}."createdAt" DESC, ${e}."id" DESC` },
    top: { inner: sql`${counter} DESC, "id" DESC`, outer: sql`${e}.${counter} DESC, ${e}."id" DESC` },
  };

  /**
   * One page of cards. The inner query pages over the sort's covering index alone, so a deep OFFSET skips
   * index entries, not joined cards (100k hubs, last page: ~2 ms instead of ~200 ms). CROSS JOIN keeps this
   * order on SQLite: with the LIMIT bound as a parameter its planner would otherwise scan every row and probe
   * the page (90 ms at 100k hubs instead of 0.1 ms); PostgreSQL plans it as an inner join.
   */
  const page = (order: keyof typeof ORDER, where: RawBuilder<unknown>, limit: unknown, offset: unknown, extraColumns = sql``) => {
    const ids = sql`(SELECT "id" FROM ${table} ${where} ORDER BY ${ORDER[order].inner} LIMIT ${limit} OFFSET ${offset}) ids`;
    return cards(sql`${ids} CROSS JOIN ${fromTable}`, sql`WHERE ${e}."id" = ids."id" ORDER BY ${ORDER[order].outer}`, extraColumns);
  };

  // SQLite: the FTS5 trigram index counts the matches, then the count picks how the page is read (name-search.ts,
  // docs/decisions/003-fast-lists.md). PostgreSQL: the page and the total in one statement (text shorter than three
  // characters scans the names once for both: a count and a page apart would scan them twice).
  const plans: SearchPlan[] = db.engine === "sqlite" ? ["trigram", "walk", "like"] : [];
  const searchPages: Partial<Record<SearchPlan, Prepared<SearchParams, Row>>> = Object.fromEntries(
    plans.map((plan) => [
      plan,
      prepare<SearchParams, Row>(kysely, (p) => page("newest", nameFilter(spec.table, plan, p), p("limit"), p("offset"))),
    ]),
  );
  const searchIndex = sql.table(`${spec.table}NameSearch`);
  const suffixes = sql.table(`${spec.table}NameSuffix`);
  const searchCount: Record<NameSearch["kind"], Prepared<SearchValues, Count & { rows: number }>> = {
    like: prepare(kysely, (p) => sql`SELECT COUNT(*) AS n, ${rowCount} AS "rows" FROM ${table} ${nameFilter(spec.table, "like", p)}`),
    trigram: prepare(
      kysely,
      (p) => sql`SELECT COUNT(*) AS n, ${rowCount} AS "rows" FROM ${searchIndex} WHERE ${searchIndex} MATCH ${p("arg")}`,
    ),
    suffix: prepare(kysely, (p) => sql`SELECT COUNT(*) AS n, ${rowCount} AS "rows" FROM ${suffixes} WHERE ${suffixRange(p)}`),
  };
  const searchPageAndTotal: Partial<Record<NameSearch["kind"], Prepared<SearchParams, Row & Total>>> = {
    like: prepare(
      kysely,
      (p) =>
        sql`WITH matches AS MATERIALIZED (SELECT "id", "createdAt" FROM ${table} ${nameFilter(spec.table, "like", p)}),
          ids AS (SELECT "id" FROM matches ORDER BY ${ORDER.newest.inner} LIMIT ${p("limit")} OFFSET ${p("offset")})
        ${cards(
          sql`ids CROSS JOIN ${fromTable}`,
          sql`WHERE ${e}."id" = ids."id" ORDER BY ${ORDER.newest.outer}`,
          sql`, (SELECT COUNT(*) FROM matches) AS "total"`,
        )}`,
    ),
    // From three characters: the suffix index alone (one row per name, with its date: no DISTINCT, no table). The values
    // sit behind OFFSET 0 (a fence): PostgreSQL estimates a range's rows from its values, and so planned the statement
    // at every call (its joins cost more to plan than to run); behind the fence every call is estimated alike and one
    // plan is kept. The page size is written in (prepareSized): with LIMIT $n that plan expected hundreds of cards.
    suffix: prepareSized(db, (p, limit, offset) => {
      const range = suffixRange((name) => sql.ref(`q.${name}`));
      return sql`WITH q AS (SELECT CAST(${p("arg")} AS TEXT) AS "arg", CAST(${p("argEnd")} AS TEXT) AS "argEnd",
            CAST(${p("argLength")} AS INTEGER) AS "argLength" OFFSET 0),
          ids AS (SELECT m."id" FROM q CROSS JOIN LATERAL (SELECT "id", "createdAt" FROM ${suffixes} WHERE ${range}
            ORDER BY ${ORDER.newest.inner} LIMIT ${limit} OFFSET ${offset}) m)
        ${cards(
          sql`ids CROSS JOIN ${fromTable}`,
          sql`WHERE ${e}."id" = ids."id" ORDER BY ${ORDER.newest.outer}`,
          sql`, (SELECT COUNT(*) FROM q CROSS JOIN ${suffixes} WHERE ${range}) AS "total"`,
        )}`;
    }),
  };

  /** One page of the names containing `key` (a name key), newest first, and how many there are. */
  async function search(key: string, params: PageParams): Promise<{ rows: Row[]; total: number }> {
    const { kind, values } = nameSearch(db.engine, key);
    if (db.engine === "sqlite") {
      const { n: total, rows: tableRows } = (await searchCount[kind].first(values))!;
      const plan = searchPlan(kind, total, tableRows, params.offset + params.limit);
      return { rows: await searchPages[plan]!.all({ ...values, ...(plan === "walk" && { arg: key }), ...params }), total };
    }
    const rows = await searchPageAndTotal[kind]!.all({ ...values, ...params });
    if (rows.length > 0) return { rows, total: rows[0]!.total };
    // A page past the end has no row to carry the total.
    return { rows, total: params.offset === 0 ? 0 : (await searchCount[kind].first(values))!.n };
  }

  const columns = sql`"name", "nameKey", "description", "profileImageId", "profileBannerId", "authorId", "createdAt", ${counter}`;
  const insertRow = prepare<NewNamedEntity & { count: number }, { id: number }>(
    kysely,
    (p) => sql`INSERT INTO ${table} (${columns})
      VALUES (${p("name")}, ${p("nameKey")}, ${p("description")}, ${p("profileImageId")}, ${p("profileBannerId")}, ${p("authorId")},
              ${p("createdAt")}, ${p("count")})
      RETURNING "id"`,
  );
  const insertLink = prepare<{ userId: number; id: number; createdAt: number }>(
    kysely,
    (p) => sql`INSERT INTO ${link} ("userId", ${linkColumn}, "createdAt") VALUES (${p("userId")}, ${p("id")}, ${p("createdAt")})`,
  );

  return {
    /** A page of the whole list, each row with the list's total (one round trip on PostgreSQL, not two). */
    newest: prepareSized<PageParams, Row & Total>(db, (_p, limit, offset) =>
      page("newest", sql``, limit, offset, totalColumn).$castTo<Row & Total>(),
    ),
    top: prepareSized<PageParams, Row & Total>(db, (_p, limit, offset) =>
      page("top", sql``, limit, offset, totalColumn).$castTo<Row & Total>(),
    ),
    /** The table's rows (for a page past the end, which has no row to carry them). */
    count: prepare<Record<string, never>, Count>(kysely, () => sql<Count>`SELECT ${rowCount} AS n`),
    search,
    byKey: prepare<{ key: string }, Row>(kysely, (p) => cards(fromTable, sql`WHERE ${e}."nameKey" = ${p("key")}`)),
    byId: prepare<{ id: number }, Row>(kysely, (p) => cards(fromTable, sql`WHERE ${e}."id" = ${p("id")}`)),
    idByKey: prepare<{ key: string }, { id: number }>(kysely, (p) => sql`SELECT "id" FROM ${table} WHERE "nameKey" = ${p("key")}`),
    idById: prepare<{ id: number }, { id: number }>(kysely, (p) => sql`SELECT "id" FROM ${table} WHERE "id" = ${p("id")}`),
    authorOf: prepare<{ id: number }, { authorId: number }>(kysely, (p) => sql`SELECT "authorId" FROM ${table} WHERE "id" = ${p("id")}`),
    isLinked: prepare<{ userId: number; id: number }, { one: number }>(
      kysely,
      (p) => sql`SELECT 1 AS one FROM ${link} WHERE "userId" = ${p("userId")} AND ${linkColumn} = ${p("id")}`,
    ),
    /** The user's joined hubs or followed series, most recent first. */
    linkedBy: prepare<{ userId: number }, Row>(kysely, (p) =>
      cards(
        fromTable,
        sql`JOIN ${link} l ON l.${linkColumn} = ${e}."id" AND l."userId" = ${p("userId")} ORDER BY l."createdAt" DESC, ${e}."id" DESC`,
      ),
    ),
    createdBy: prepare<{ userId: number }, Row>(kysely, (p) =>
      cards(fromTable, sql`WHERE ${e}."authorId" = ${p("userId")} ORDER BY ${e}."createdAt" DESC, ${e}."id" DESC`),
    ),
    /** The cards of these rows, in no order (another list's items: the continue-reading list); built per call. */
    byIds: async (ids: number[]): Promise<Row[]> =>
      ids.length === 0 ? [] : (await cards(fromTable, sql`WHERE ${e}."id" IN (${sql.join(ids)})`).execute(kysely)).rows,

    /** The row, the creator's link when there is one, and the publishing of its logo and banner, as one write. */
    /** On the service's transaction. */
    async insert(trx: Executor, row: NewNamedEntity, also?: AlsoWrite): Promise<number> {
      const { id } = (await insertRow.first({ ...row, count: spec.creatorLinked ? 1 : 0 }, trx))!;
      if (also) await also(trx, id);
      if (spec.creatorLinked) await insertLink.run({ userId: row.authorId, id, createdAt: row.createdAt }, trx);
      await useImages(trx, row.authorId, imageUser, id, [row.profileImageId, row.profileBannerId]);
      return id;
    },

    /** The changed columns and the publishing of the new images, as one write (built per call: the columns vary). */
    /** On the service's transaction. */
    async update(trx: Executor, id: number, changes: NamedEntityChanges, editorId: number, also?: AlsoWrite): Promise<void> {
      await trx.updateTable(spec.table).set(changes).where("id", "=", id).execute();
      if (also) await also(trx, id);
      await useImages(trx, editorId, imageUser, id, [changes.profileImageId, changes.profileBannerId]);
    },
  };
}
