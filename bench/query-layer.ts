// Spike for issue 12: what the hot queries cost through raw better-sqlite3, Kysely and Prisma Client
// (docs/decisions/014-data-layer.md). Runs on a copy of a seeded data folder, so the toggles leave it as it was.
//
//   npx tsx bench/query-layer.ts                      # the cached "small" benchmark set (bench/.data/small-*)
//   npx tsx bench/query-layer.ts --data-dir DIR --iterations 3000 --rounds 5
//   npx tsx bench/query-layer.ts --postgres postgresql://postgres@127.0.0.1:PORT/postgres   # also raw pg vs Kysely
//                                  (that database's User, Hub, Post and PostLike tables are dropped and rebuilt)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql, type CompiledQuery, type SqlBool, type SqliteDatabase, type SqliteStatement } from "kysely";
import { createCountedToggle } from "./query-layer-raw-toggle.ts";
import { openDatabase, type Database } from "../server/db/database.ts";
import type { Prisma } from "../server/db/generated/client.ts";
import { prepare } from "../server/db/sql.ts";
import { DATA_ROOT } from "./common.ts";
import { compiledOnce, kyselyQueries, type KyselyTables, type NameFilter } from "./query-layer-kysely.ts";
import { measurePostgres } from "./query-layer-postgres.ts";
import { assertSameIds, formatRow, microsPerCall, tableHead, type Row, type Run } from "./query-layer-timing.ts";

// ---- (a) today's SQL, copied from server/hubs/hubs.service.ts and server/posts/posts.service.ts ----
const HUB_CARD_COLUMNS = `
  SELECT h.id, h.name, h.description, h.memberCount, h.postCount, h.profileImageId, h.profileBannerId,
         h.authorId, u.username AS authorName, h.createdAt,
         lp.id AS lpId, lp.title AS lpTitle, lp.date AS lpDate`;
const HUB_CARD_JOINS = `
  JOIN User u ON u.id = h.authorId
  LEFT JOIN Post lp ON lp.id = (SELECT p.id FROM Post p WHERE p.hubId = h.id ORDER BY p.date DESC, p.id DESC LIMIT 1)`;
const hubCardPage = (where = "") => `
  ${HUB_CARD_COLUMNS}
  FROM (SELECT id FROM Hub ${where} ORDER BY createdAt DESC, id DESC LIMIT ? OFFSET ?) pg
  CROSS JOIN Hub h ON h.id = pg.id ${HUB_CARD_JOINS}
  ORDER BY h.createdAt DESC, h.id DESC`;
const TRIGRAM = `WHERE id IN (SELECT rowid FROM "HubNameSearch" WHERE "HubNameSearch" MATCH ?)`;
const POST_SUMMARY = `
  SELECT p.id, p.title, p.description, p.date, p.likes, p.authorId, u.username AS authorName, p.hubId, h.name AS hubName
  FROM Post p JOIN User u ON u.id = p.authorId JOIN Hub h ON h.id = p.hubId`;
const POSTS_BY_LIKES = `${POST_SUMMARY} WHERE p.id IN (SELECT id FROM Post WHERE hubId = @hubId ORDER BY likes DESC, id DESC LIMIT @limit OFFSET @skip)
  ORDER BY p.likes DESC, p.id DESC`;
const POSTS_BY_LIKES_AFTER_KEY = `${POST_SUMMARY} WHERE p.id IN (SELECT id FROM (
     SELECT * FROM (SELECT id, likes FROM Post WHERE hubId = @hubId AND likes = @k AND id < @id ORDER BY id DESC LIMIT @limit + @skip)
     UNION ALL
     SELECT * FROM (SELECT id, likes FROM Post WHERE hubId = @hubId AND likes < @k ORDER BY likes DESC, id DESC LIMIT @limit + @skip)
   ) ORDER BY likes DESC, id DESC LIMIT @limit OFFSET @skip)
  ORDER BY p.likes DESC, p.id DESC`;

// ---- the options ----
function parseArgs(argv: string[]) {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const smallSet = fs.existsSync(DATA_ROOT) ? fs.readdirSync(DATA_ROOT).find((name) => name.startsWith("small-")) : undefined;
  const dataDir = value("--data-dir") ?? (smallSet ? path.join(DATA_ROOT, smallSet) : undefined);
  if (!dataDir || !fs.existsSync(path.join(dataDir, "app.db"))) {
    throw new Error(
      "No data folder: pass --data-dir, or seed the small set first (npm run bench -- --smoke does not; see bench/README.md)",
    );
  }
  return {
    dataDir,
    iterations: Number(value("--iterations") ?? 2000),
    rounds: Number(value("--rounds") ?? 5),
    postgresUrl: value("--postgres"),
  };
}

// ---- Kysely on the API's own better-sqlite3 connection ----

/**
 * Kysely's SqliteDialect prepares every statement again on every call. `cached` keeps one prepared
 * statement per SQL text instead; both answer plain numbers like server/db/sql.ts (the Prisma
 * adapter turns BigInt mode on for the connection).
 */
function kyselyOn(sqlite: BetterSqlite3.Database, statements: "prepared per call" | "cached") {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const database: SqliteDatabase = {
    close() {}, // the connection belongs to the Database of server/db/database.ts
    prepare(text: string): SqliteStatement {
      let statement = statements === "cached" ? cache.get(text) : undefined;
      if (!statement) {
        statement = prepare(sqlite, text);
        if (statements === "cached") cache.set(text, statement);
      }
      return statement;
    },
  };
  return new Kysely<KyselyTables>({ dialect: new SqliteDialect({ database }) });
}

// ---- Prisma Client (server/db/database.ts) ----
const prismaHubCardSelect = {
  id: true,
  name: true,
  description: true,
  memberCount: true,
  postCount: true,
  profileImageId: true,
  profileBannerId: true,
  authorId: true,
  createdAt: true,
  author: { select: { username: true } },
  posts: { select: { id: true, title: true, date: true }, orderBy: [{ date: "desc" }, { id: "desc" }], take: 1 },
} satisfies Prisma.HubSelect;

const prismaPostSummarySelect = {
  id: true,
  title: true,
  description: true,
  date: true,
  likes: true,
  authorId: true,
  hubId: true,
  author: { select: { username: true } },
  hub: { select: { name: true } },
} satisfies Prisma.PostSelect;

// ---- the run ----
const PATHS = [
  "raw (sync)",
  "raw (awaited)",
  "Kysely compiled once",
  "Kysely built per call",
  "Kysely compiled once, stmt cache",
  "Kysely built per call, stmt cache",
  "Prisma Client",
] as const;
type PathName = (typeof PATHS)[number];

async function measureSqlite(db: Database, iterations: number, rounds: number): Promise<Row[]> {
  const { sqlite, prisma } = db;
  const kysely = { plain: kyselyOn(sqlite, "prepared per call"), cached: kyselyOn(sqlite, "cached") };
  const matchTrigram: NameFilter = (phrase) =>
    sql<SqlBool>`"Hub"."id" IN (SELECT rowid FROM "HubNameSearch" WHERE "HubNameSearch" MATCH ${phrase})`;
  const kq = { plain: kyselyQueries(kysely.plain, matchTrigram), cached: kyselyQueries(kysely.cached, matchTrigram) };

  // What the queries ask for: the hub with the most posts, a deep page, a word in many names, a post to like.
  const bigHub = prepare<[], { id: number; nameKey: string; postCount: number }>(
    sqlite,
    "SELECT id, nameKey, postCount FROM Hub ORDER BY postCount DESC LIMIT 1",
  ).get()!;
  const hubCount = prepare<[], { n: number }>(sqlite, "SELECT COUNT(*) AS n FROM Hub").get()!.n;
  const perPage = 20;
  const deepHubOffset = Math.floor(hubCount / perPage / 2) * perPage; // the middle page of all hubs
  const postSize = 10;
  const deepPostOffset = Math.floor(bigHub.postCount / 2 / 100) * 100; // a remembered key's position (post-page-keys.ts)
  const deepKey = prepare<[number, number], { k: number; id: number }>(
    sqlite,
    "SELECT likes AS k, id FROM Post WHERE hubId = ? ORDER BY likes DESC, id DESC LIMIT 1 OFFSET ?",
  ).get(bigHub.id, deepPostOffset - 1)!;
  const skipAfterKey = 37;
  const phrase = '"lantern"';
  const searchMatches = prepare<[string], { n: number }>(
    sqlite,
    `SELECT COUNT(*) AS n FROM "HubNameSearch" WHERE "HubNameSearch" MATCH ?`,
  ).get(phrase)!.n;
  const liker = prepare<[], { id: number }>(sqlite, "SELECT id FROM User ORDER BY id LIMIT 1").get()!.id;
  const likedPost = prepare<[number], { id: number }>(sqlite, "SELECT id FROM Post WHERE hubId = ? ORDER BY id LIMIT 1").get(bigHub.id)!.id;
  console.log(
    `hubs ${hubCount}; big hub "${bigHub.nameKey}" (${bigHub.postCount} posts); deep hub page at offset ${deepHubOffset}; ` +
      `deep post page at offset ${deepPostOffset + skipAfterKey}; "lantern" in ${searchMatches} names`,
  );

  const raw = {
    byKey: prepare<[string], { id: number }>(sqlite, `${HUB_CARD_COLUMNS} FROM Hub h ${HUB_CARD_JOINS} WHERE h.nameKey = ?`),
    newest: prepare<[number, number], { id: number }>(sqlite, hubCardPage()),
    search: prepare<[string, number, number], { id: number }>(sqlite, hubCardPage(TRIGRAM)),
    byLikes: prepare<[{ hubId: number; limit: number; skip: number }], { id: number }>(sqlite, POSTS_BY_LIKES),
    byLikesAfterKey: prepare<[{ hubId: number; limit: number; skip: number; k: number; id: number }], { id: number }>(
      sqlite,
      POSTS_BY_LIKES_AFTER_KEY,
    ),
  };
  const rawToggle = createCountedToggle(sqlite, {
    link: "PostLike",
    targetColumn: "postId",
    target: "Post",
    counter: "likes",
    timestamped: false,
    notFoundMessage: "Post not found",
  });

  type Variant = "plain" | "cached";
  const both = <T>(make: (variant: Variant) => T) => ({ plain: make("plain"), cached: make("cached") });
  const rows = (result: { rows: unknown[] }) => result.rows;

  /** The Kysely paths of one query: built and compiled per call, or compiled once; statements prepared per call or cached. */
  function kyselyPaths(build: (q: ReturnType<typeof kyselyQueries>) => { compile(): CompiledQuery; execute(): Promise<unknown[]> }) {
    const once = both((variant) => compiledOnce(kysely[variant], build(kq[variant]).compile()));
    return {
      "Kysely compiled once": () => once.plain().then(rows),
      "Kysely built per call": () => build(kq.plain).execute(),
      "Kysely compiled once, stmt cache": () => once.cached().then(rows),
      "Kysely built per call, stmt cache": () => build(kq.cached).execute(),
    };
  }

  const queries: { query: string; paths: Partial<Record<PathName, () => unknown>>; check: boolean }[] = [
    {
      query: "hub card by name key",
      check: true,
      paths: {
        "raw (sync)": () => [raw.byKey.get(bigHub.nameKey)],
        "raw (awaited)": () => Promise.resolve([raw.byKey.get(bigHub.nameKey)]),
        ...kyselyPaths((q) => q.hubCard().where("h.nameKey", "=", bigHub.nameKey)),
        "Prisma Client": async () => [await prisma.hub.findUnique({ where: { nameKey: bigHub.nameKey }, select: prismaHubCardSelect })],
      },
    },
    ...[
      { label: "page 1", offset: 0 },
      { label: `deep page (offset ${deepHubOffset})`, offset: deepHubOffset },
    ].map(({ label, offset }) => ({
      query: `hubs newest first, ${label}`,
      check: true,
      paths: {
        "raw (sync)": () => raw.newest.all(perPage, offset),
        "raw (awaited)": () => Promise.resolve(raw.newest.all(perPage, offset)),
        ...kyselyPaths((q) => q.hubPage(perPage, offset)),
        "Prisma Client": () =>
          prisma.hub.findMany({
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
            skip: offset,
            take: perPage,
            select: prismaHubCardSelect,
          }),
      },
    })),
    {
      query: `big hub's posts by likes, page 1 (size ${postSize})`,
      check: true,
      paths: {
        "raw (sync)": () => raw.byLikes.all({ hubId: bigHub.id, limit: postSize, skip: 0 }),
        "raw (awaited)": () => Promise.resolve(raw.byLikes.all({ hubId: bigHub.id, limit: postSize, skip: 0 })),
        ...kyselyPaths((q) => q.postsByLikes(bigHub.id, postSize, 0)),
        "Prisma Client": () =>
          prisma.post.findMany({
            where: { hubId: bigHub.id },
            orderBy: [{ likes: "desc" }, { id: "desc" }],
            take: postSize,
            select: prismaPostSummarySelect,
          }),
      },
    },
    {
      query: `big hub's posts by likes, deep page after a remembered key`,
      check: true,
      paths: {
        "raw (sync)": () => raw.byLikesAfterKey.all({ hubId: bigHub.id, limit: postSize, skip: skipAfterKey, ...deepKey }),
        "raw (awaited)": () =>
          Promise.resolve(raw.byLikesAfterKey.all({ hubId: bigHub.id, limit: postSize, skip: skipAfterKey, ...deepKey })),
        ...kyselyPaths((q) => q.postsByLikesAfterKey(bigHub.id, postSize, skipAfterKey, deepKey.k, deepKey.id)),
        // Prisma's cursor paging: after the key's post, skipping as many as (a) does.
        "Prisma Client": () =>
          prisma.post.findMany({
            where: { hubId: bigHub.id },
            orderBy: [{ likes: "desc" }, { id: "desc" }],
            cursor: { id: deepKey.id },
            skip: 1 + skipAfterKey,
            take: postSize,
            select: prismaPostSummarySelect,
          }),
      },
    },
    {
      query: `FTS5 trigram name search "lantern", page 1`,
      check: true,
      paths: {
        "raw (sync)": () => raw.search.all(phrase, perPage, 0),
        "raw (awaited)": () => Promise.resolve(raw.search.all(phrase, perPage, 0)),
        ...kyselyPaths((q) => q.hubPage(perPage, 0, phrase)),
        // MATCH has no Prisma Client form: the same SQL through $queryRawUnsafe.
        "Prisma Client": () => prisma.$queryRawUnsafe<{ id: number }[]>(hubCardPage(TRIGRAM), phrase, perPage, 0),
      },
    },
  ];

  const results: Row[] = [];
  for (const { query, paths, check } of queries) {
    const expected = (paths["raw (sync)"]!() as unknown[]) ?? [];
    const row: Row = { query, paths: {} };
    for (const name of PATHS) {
      const run = paths[name];
      if (!run) {
        row.paths[name] = null;
        continue;
      }
      if (check) {
        const answer = await run();
        assertSameIds(
          query,
          name,
          expected,
          (answer as unknown[]).map((r) => r ?? { id: null }),
        );
      }
      row.paths[name] = await microsPerCall(run, iterations, rounds);
    }
    results.push(row);
    console.log(formatRow(row, PATHS));
  }

  // The counted toggle: like, then unlike (both change a row), so each call is a real write of two rows.
  const kyselyToggle = (variant: Variant) => {
    let on = true;
    return () => kq[variant].setLiked(liker, likedPost, (on = !on));
  };
  let rawOn = true;
  let prismaOn = true;
  const toggleRow: Row = { query: "counted toggle (like / unlike + counter, one transaction)", paths: {} };
  const toggles: Partial<Record<PathName, Run>> = {
    "raw (sync)": () => rawToggle(liker, likedPost, (rawOn = !rawOn)),
    "raw (awaited)": () => Promise.resolve(rawToggle(liker, likedPost, (rawOn = !rawOn))),
    "Kysely built per call": kyselyToggle("plain"),
    "Kysely built per call, stmt cache": kyselyToggle("cached"),
    "Prisma Client": () => {
      prismaOn = !prismaOn;
      const on = prismaOn;
      return prisma.$transaction(async (tx) => {
        const changes = on
          ? await tx.$executeRaw`INSERT OR IGNORE INTO PostLike (userId, postId) VALUES (${liker}, ${likedPost})`
          : (await tx.postLike.deleteMany({ where: { userId: liker, postId: likedPost } })).count;
        const post = await tx.post.update({ where: { id: likedPost }, data: { likes: { increment: on ? changes : -changes } } });
        return post.likes;
      });
    },
  };
  // Fewer iterations: every toggle commits (WAL, synchronous = FULL), so it waits for the disk.
  const toggleIterations = Math.max(20, Math.floor(iterations / 10));
  for (const name of PATHS) {
    const run = toggles[name];
    toggleRow.paths[name] = run ? await microsPerCall(run, toggleIterations, rounds) : null;
  }
  const rowsLiked = prepare<[number], { n: number }>(sqlite, "SELECT COUNT(*) AS n FROM PostLike WHERE postId = ?").get(likedPost)!.n;
  const counter = prepare<[number], { likes: number }>(sqlite, "SELECT likes FROM Post WHERE id = ?").get(likedPost)!.likes;
  if (rowsLiked !== counter) throw new Error(`counted toggle: ${counter} likes counted, ${rowsLiked} rows`);
  results.push(toggleRow);
  console.log(formatRow(toggleRow, PATHS));

  await Promise.all([kysely.plain.destroy(), kysely.cached.destroy()]);
  return results;
}

async function main() {
  const { dataDir, iterations, rounds, postgresUrl } = parseArgs(process.argv.slice(2));
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-query-layer-"));
  for (const file of ["app.db", "app.db-wal"]) {
    if (fs.existsSync(path.join(dataDir, file))) fs.copyFileSync(path.join(dataDir, file), path.join(copy, file));
  }
  const db = await openDatabase(copy);
  try {
    console.log(`SQLite: a copy of ${dataDir}; ${iterations} iterations x ${rounds} rounds (median), toggles a tenth of that`);
    console.log(
      `load average before: ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}; ${os.cpus().length} cores; node ${process.version}`,
    );
    console.log(`\n${tableHead(PATHS)}`);
    await measureSqlite(db, iterations, rounds);
    if (postgresUrl) {
      console.log(
        `\nload average: ${os
          .loadavg()
          .map((n) => n.toFixed(2))
          .join(" ")}`,
      );
      await measurePostgres(db.sqlite, postgresUrl, iterations, rounds);
    }
    console.log(
      `\nload average after: ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await db.close();
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

await main();
