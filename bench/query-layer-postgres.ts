// The PostgreSQL half of bench/query-layer.ts: raw `pg` against Kysely's PostgresDialect on the same pool,
// on a schema written by hand for the spike (a few tables, the indexes the queries need) and filled from SQLite.
import { createHash } from "node:crypto";
import type BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, sql, type CompiledQuery, type PostgresPool, type PostgresPoolClient, type SqlBool } from "kysely";
import pg from "pg";
import { prepare } from "../server/db/sql.ts";
import { compiledOnce, kyselyQueries, type KyselyTables, type NameFilter } from "./query-layer-kysely.ts";
import { assertSameIds, formatRow, microsPerCall, tableHead, type Row, type Run } from "./query-layer-timing.ts";

// Integer milliseconds as BIGINT, like SQLite today; pg answers int8 as a string unless told otherwise.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

const SCHEMA = `
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  DROP TABLE IF EXISTS "PostLike", "Post", "Hub", "User";
  CREATE TABLE "User" (id integer PRIMARY KEY, username text NOT NULL, "profileImageId" integer);
  CREATE TABLE "Hub" (
    id integer PRIMARY KEY, name text NOT NULL, "nameKey" text NOT NULL UNIQUE, description text NOT NULL DEFAULT '',
    "memberCount" integer NOT NULL DEFAULT 0, "postCount" integer NOT NULL DEFAULT 0, "profileImageId" integer,
    "profileBannerId" integer, "authorId" integer NOT NULL REFERENCES "User", "createdAt" bigint NOT NULL);
  CREATE INDEX "Hub_createdAt_id_idx" ON "Hub" ("createdAt" DESC, id DESC);
  CREATE INDEX "Hub_nameKey_trgm_idx" ON "Hub" USING gin ("nameKey" gin_trgm_ops);
  CREATE TABLE "Post" (
    id integer PRIMARY KEY, title text NOT NULL, content text NOT NULL, description text NOT NULL DEFAULT '',
    date bigint NOT NULL, likes integer NOT NULL DEFAULT 0, "authorId" integer NOT NULL REFERENCES "User",
    "hubId" integer NOT NULL REFERENCES "Hub");
  CREATE INDEX "Post_hubId_date_id_idx" ON "Post" ("hubId", date DESC, id DESC);
  CREATE INDEX "Post_hubId_likes_id_idx" ON "Post" ("hubId", likes DESC, id DESC);
  CREATE TABLE "PostLike" ("userId" integer NOT NULL REFERENCES "User", "postId" integer NOT NULL REFERENCES "Post",
    PRIMARY KEY ("userId", "postId"));
  CREATE INDEX "PostLike_postId_idx" ON "PostLike" ("postId");`;

// The same queries as (a) on SQLite, in PostgreSQL's spelling; ids of a page from the sort index, then the rows.
const HUB_CARD_COLUMNS = `
  SELECT h.id, h.name, h.description, h."memberCount", h."postCount", h."profileImageId", h."profileBannerId",
         h."authorId", u.username AS "authorName", h."createdAt", lp.id AS "lpId", lp.title AS "lpTitle", lp.date AS "lpDate"`;
const HUB_CARD_JOINS = `
  JOIN "User" u ON u.id = h."authorId"
  LEFT JOIN "Post" lp ON lp.id = (SELECT p.id FROM "Post" p WHERE p."hubId" = h.id ORDER BY p.date DESC, p.id DESC LIMIT 1)`;
const hubCardPage = (where: string, first: number) => `
  ${HUB_CARD_COLUMNS}
  FROM (SELECT id FROM "Hub" ${where} ORDER BY "createdAt" DESC, id DESC LIMIT $${first} OFFSET $${first + 1}) pg
  JOIN "Hub" h ON h.id = pg.id ${HUB_CARD_JOINS}
  ORDER BY h."createdAt" DESC, h.id DESC`;
const POST_SUMMARY = `
  SELECT p.id, p.title, p.description, p.date, p.likes, p."authorId", u.username AS "authorName", p."hubId", h.name AS "hubName"
  FROM "Post" p JOIN "User" u ON u.id = p."authorId" JOIN "Hub" h ON h.id = p."hubId"`;
const RAW = {
  hubCard: `${HUB_CARD_COLUMNS} FROM "Hub" h ${HUB_CARD_JOINS} WHERE h."nameKey" = $1`,
  newest: hubCardPage("", 1),
  search: hubCardPage(`WHERE "nameKey" LIKE $1`, 2),
  byLikes: `${POST_SUMMARY} WHERE p.id IN (SELECT id FROM "Post" WHERE "hubId" = $1 ORDER BY likes DESC, id DESC LIMIT $2 OFFSET $3)
    ORDER BY p.likes DESC, p.id DESC`,
  byLikesAfterKey: `${POST_SUMMARY} WHERE p.id IN (SELECT id FROM (
       (SELECT id, likes FROM "Post" WHERE "hubId" = $1 AND likes = $4 AND id < $5 ORDER BY id DESC LIMIT $2::int + $3::int)
       UNION ALL
       (SELECT id, likes FROM "Post" WHERE "hubId" = $1 AND likes < $4 ORDER BY likes DESC, id DESC LIMIT $2::int + $3::int)
     ) arms ORDER BY likes DESC, id DESC LIMIT $2 OFFSET $3)
    ORDER BY p.likes DESC, p.id DESC`,
};

export const POSTGRES_PATHS = [
  "raw pg, named statement",
  "raw pg, unnamed",
  "Kysely compiled once",
  "Kysely built per call",
  "Kysely compiled once, named stmts",
  "Kysely built per call, named stmts",
] as const;
type PathName = (typeof POSTGRES_PATHS)[number];

/** Copies the rows the queries read from the SQLite copy, in batches of parallel arrays (unnest). */
async function copyRows(pool: pg.Pool, sqlite: BetterSqlite3.Database) {
  const tables: { table: string; columns: string[]; types: string[] }[] = [
    { table: "User", columns: ["id", "username", "profileImageId"], types: ["int", "text", "int"] },
    {
      table: "Hub",
      columns: [
        "id",
        "name",
        "nameKey",
        "description",
        "memberCount",
        "postCount",
        "profileImageId",
        "profileBannerId",
        "authorId",
        "createdAt",
      ],
      types: ["int", "text", "text", "text", "int", "int", "int", "int", "int", "bigint"],
    },
    {
      table: "Post",
      columns: ["id", "title", "content", "description", "date", "likes", "authorId", "hubId"],
      types: ["int", "text", "text", "text", "bigint", "int", "int", "int"],
    },
    { table: "PostLike", columns: ["userId", "postId"], types: ["int", "int"] },
  ];
  for (const { table, columns, types } of tables) {
    const rows = prepare<[], Record<string, unknown>>(sqlite, `SELECT ${columns.join(", ")} FROM ${table}`).all();
    const quoted = columns.map((c) => `"${c}"`).join(", ");
    const unnest = types.map((t, i) => `$${i + 1}::${t}[]`).join(", ");
    for (let start = 0; start < rows.length; start += 5000) {
      const batch = rows.slice(start, start + 5000);
      await pool.query(
        `INSERT INTO "${table}" (${quoted}) SELECT * FROM unnest(${unnest})`,
        columns.map((c) => batch.map((row) => row[c])),
      );
    }
  }
  await pool.query("ANALYZE");
}

/** A pool whose clients send every query as a named statement (parsed and planned once per connection). */
function namedStatementPool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      const query = (text: string, values: readonly unknown[]) =>
        client.query({ name: createHash("sha1").update(text).digest("hex"), text, values: [...values] });
      // pg types `command` as any string; Kysely's interface lists the five it reads.
      return { query: query as unknown as PostgresPoolClient["query"], release: () => client.release() };
    },
    end: () => Promise.resolve(),
  };
}

export async function measurePostgres(sqlite: BetterSqlite3.Database, url: string, iterations: number, rounds: number) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const started = process.hrtime.bigint();
    await pool.query(SCHEMA);
    await copyRows(pool, sqlite);
    console.log(`PostgreSQL: schema and rows copied in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);

    const kysely = {
      unnamed: new Kysely<KyselyTables>({ dialect: new PostgresDialect({ pool }) }),
      named: new Kysely<KyselyTables>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) }),
    };
    const containing: NameFilter = (pattern) => sql<SqlBool>`"Hub"."nameKey" LIKE ${pattern}`;
    const kq = { unnamed: kyselyQueries(kysely.unnamed, containing), named: kyselyQueries(kysely.named, containing) };

    const one = async <T>(text: string, values: unknown[] = []) => (await pool.query<T & pg.QueryResultRow>(text, values)).rows[0]!;
    const bigHub = await one<{ id: number; nameKey: string; postCount: number }>(
      `SELECT id, "nameKey", "postCount" FROM "Hub" ORDER BY "postCount" DESC LIMIT 1`,
    );
    const hubCount = Number((await one<{ n: string }>(`SELECT COUNT(*) AS n FROM "Hub"`)).n);
    const perPage = 20;
    const postSize = 10;
    const deepHubOffset = Math.floor(hubCount / perPage / 2) * perPage;
    const deepPostOffset = Math.floor(bigHub.postCount / 2 / 100) * 100;
    const deepKey = await one<{ k: number; id: number }>(
      `SELECT likes AS k, id FROM "Post" WHERE "hubId" = $1 ORDER BY likes DESC, id DESC LIMIT 1 OFFSET $2`,
      [bigHub.id, deepPostOffset - 1],
    );
    const skip = 37;
    const pattern = "%lantern%";
    const liker = (await one<{ id: number }>(`SELECT id FROM "User" ORDER BY id LIMIT 1`)).id;
    const likedPost = (await one<{ id: number }>(`SELECT id FROM "Post" WHERE "hubId" = $1 ORDER BY id LIMIT 1`, [bigHub.id])).id;

    let statementNumber = 0;
    /** Raw pg both ways: a named statement (prepared once per connection) and an unnamed one (parsed every call). */
    const rawPaths = (text: string, values: unknown[]) => {
      const name = `bench-${statementNumber++}`;
      return {
        "raw pg, named statement": async () => (await pool.query({ name, text, values })).rows,
        "raw pg, unnamed": async () => (await pool.query(text, values)).rows,
      };
    };
    type Built = { compile(): CompiledQuery; execute(): Promise<unknown[]> };
    const kyselyPaths = (build: (q: ReturnType<typeof kyselyQueries>) => Built) => {
      const once = {
        unnamed: compiledOnce(kysely.unnamed, build(kq.unnamed).compile()),
        named: compiledOnce(kysely.named, build(kq.named).compile()),
      };
      return {
        "Kysely compiled once": async () => (await once.unnamed()).rows,
        "Kysely built per call": () => build(kq.unnamed).execute(),
        "Kysely compiled once, named stmts": async () => (await once.named()).rows,
        "Kysely built per call, named stmts": () => build(kq.named).execute(),
      };
    };

    const queries: { query: string; paths: Record<PathName, () => Promise<unknown[]>> }[] = [
      {
        query: "hub card by name key",
        paths: { ...rawPaths(RAW.hubCard, [bigHub.nameKey]), ...kyselyPaths((q) => q.hubCard().where("h.nameKey", "=", bigHub.nameKey)) },
      },
      ...[
        { label: "page 1", offset: 0 },
        { label: `deep page (offset ${deepHubOffset})`, offset: deepHubOffset },
      ].map(({ label, offset }) => ({
        query: `hubs newest first, ${label}`,
        paths: { ...rawPaths(RAW.newest, [perPage, offset]), ...kyselyPaths((q) => q.hubPage(perPage, offset)) },
      })),
      {
        query: `big hub's posts by likes, page 1 (size ${postSize})`,
        paths: { ...rawPaths(RAW.byLikes, [bigHub.id, postSize, 0]), ...kyselyPaths((q) => q.postsByLikes(bigHub.id, postSize, 0)) },
      },
      {
        query: "big hub's posts by likes, deep page after a remembered key",
        paths: {
          ...rawPaths(RAW.byLikesAfterKey, [bigHub.id, postSize, skip, deepKey.k, deepKey.id]),
          ...kyselyPaths((q) => q.postsByLikesAfterKey(bigHub.id, postSize, skip, deepKey.k, deepKey.id)),
        },
      },
      {
        query: `pg_trgm name search "lantern", page 1`,
        paths: { ...rawPaths(RAW.search, [pattern, perPage, 0]), ...kyselyPaths((q) => q.hubPage(perPage, 0, pattern)) },
      },
    ];

    console.log(`\n${tableHead(POSTGRES_PATHS)}`);
    const results: Row[] = [];
    for (const { query, paths } of queries) {
      const expected = await paths["raw pg, named statement"]();
      const row: Row = { query, paths: {} };
      for (const name of POSTGRES_PATHS) {
        assertSameIds(query, name, expected, await paths[name]());
        row.paths[name] = await microsPerCall(paths[name], iterations, rounds);
      }
      results.push(row);
      console.log(formatRow(row, POSTGRES_PATHS));
    }

    // The counted toggle in READ COMMITTED: a concurrent duplicate insert waits on the primary key and then
    // inserts nothing, and `likes = likes + n` is applied to the latest row, so the count stays equal to its rows.
    let rawOn = true;
    const rawToggle: Run = async () => {
      const on = (rawOn = !rawOn);
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const { rowCount } = on
          ? await client.query({
              name: "like",
              text: `INSERT INTO "PostLike" ("userId", "postId") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
              values: [liker, likedPost],
            })
          : await client.query({
              name: "unlike",
              text: `DELETE FROM "PostLike" WHERE "userId" = $1 AND "postId" = $2`,
              values: [liker, likedPost],
            });
        const changes = rowCount ?? 0;
        const { rows } = await client.query<{ likes: number }>({
          name: "bump",
          text: `UPDATE "Post" SET likes = likes + $1 WHERE id = $2 RETURNING likes`,
          values: [on ? changes : -changes, likedPost],
        });
        await client.query("COMMIT");
        return rows[0]?.likes;
      } catch (err) {
        await client.query("ROLLBACK");
        throw err;
      } finally {
        client.release();
      }
    };
    const kyselyToggle = (variant: keyof typeof kq) => {
      let on = true;
      return () => kq[variant].setLiked(liker, likedPost, (on = !on));
    };
    const toggles: Partial<Record<PathName, Run>> = {
      "raw pg, named statement": rawToggle,
      "Kysely built per call": kyselyToggle("unnamed"),
      "Kysely built per call, named stmts": kyselyToggle("named"),
    };
    const toggleRow: Row = { query: "counted toggle (like / unlike + counter, one transaction)", paths: {} };
    const toggleIterations = Math.max(20, Math.floor(iterations / 10));
    for (const name of POSTGRES_PATHS) {
      const run = toggles[name];
      toggleRow.paths[name] = run ? await microsPerCall(run, toggleIterations, rounds) : null;
    }
    const counted = await one<{ likes: number; rows: string }>(
      `SELECT likes, (SELECT COUNT(*) FROM "PostLike" WHERE "postId" = $1) AS rows FROM "Post" WHERE id = $1`,
      [likedPost],
    );
    if (Number(counted.rows) !== counted.likes) throw new Error(`counted toggle: ${counted.likes} likes counted, ${counted.rows} rows`);
    results.push(toggleRow);
    console.log(formatRow(toggleRow, POSTGRES_PATHS));

    await kysely.named.destroy(); // its pool's end() leaves the shared pool open
    return results;
  } finally {
    await pool.end();
  }
}
