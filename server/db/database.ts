import fs from "node:fs";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { PrismaClient } from "./generated/client.ts";
import { postgresKysely, postgresPool } from "./postgres.ts";
import type { DB } from "./schema.ts";
import { databaseFile, sqliteKysely } from "./sqlite.ts";

export { databaseFile } from "./sqlite.ts";

export type Engine = "sqlite" | "postgres";

/**
 * The site's database, on either engine, behind one query API (Kysely): SQLite in the data folder by
 * default, PostgreSQL when DATABASE_URL is set (docs/decisions/014-data-layer.md). Services reach it only
 * through their query modules.
 */
export interface Database {
  engine: Engine;
  kysely: Kysely<DB>;
  /**
   * The SQLite connection. Transitional (issue 12): typed as always there while services and tests move to
   * `kysely`; undefined on PostgreSQL.
   */
  sqlite: BetterSqlite3.Database;
  /** The SQLite file; undefined on PostgreSQL. */
  file?: string;
  /** @deprecated While services move to the data layer (issue 12): Prisma Client on the same SQLite connection. */
  prisma: PrismaClient;
  close(): Promise<void>;
}

/**
 * Transitional (issue 12): on PostgreSQL, services not yet on the data layer get this for `sqlite` and `prisma`, so
 * the app still starts; any use of it fails with a clear message, at the call, not at construction.
 */
const notConverted = () => {
  throw new Error("Not on the data layer yet: this query still uses db.sqlite or db.prisma (issue 12)");
};
const notOnPostgres: unknown = new Proxy(function () {}, {
  get: (_target, name) => (name === "then" ? undefined : notOnPostgres),
  apply: (_target, _this, args: unknown[]) =>
    // prepare(...) and transaction(fn) hand back something to call later; the call itself fails.
    args.length > 0 && (typeof args[0] === "string" || typeof args[0] === "function") ? notConvertedLater : notConverted(),
});
const notConvertedLater: unknown = new Proxy(function () {}, {
  get: (_target, name) => (name === "then" || name === "reader" ? undefined : notConverted),
  apply: notConverted,
});

export async function openDatabase(dataDir: string, databaseUrl?: string): Promise<Database> {
  if (databaseUrl) {
    const pool = postgresPool(databaseUrl);
    (await pool.connect()).release(); // fail at start, not at the first request
    const kysely = postgresKysely(pool);
    return {
      engine: "postgres",
      kysely,
      prisma: notOnPostgres as PrismaClient,
      sqlite: notOnPostgres as BetterSqlite3.Database,
      close: () => kysely.destroy(),
    };
  }
  // Transitional: Prisma's adapter opens the connection and Kysely shares it, until no service uses Prisma.
  const file = databaseFile(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const factory = new PrismaBetterSQLite3({ url: `file:${file}` }, { timestampFormat: "unixepoch-ms" });
  const adapter = await factory.connect();
  const sqlite = (adapter as unknown as { client: BetterSqlite3.Database }).client;
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const prisma = new PrismaClient({
    adapter: { provider: factory.provider, adapterName: factory.adapterName, connect: () => Promise.resolve(adapter) },
  });
  const kysely = sqliteKysely(sqlite);
  return {
    engine: "sqlite",
    kysely,
    sqlite,
    file,
    prisma,
    async close() {
      await prisma.$disconnect();
      if (sqlite.open) sqlite.close();
    },
  };
}
