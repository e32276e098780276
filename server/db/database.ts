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

export async function openDatabase(dataDir: string, databaseUrl?: string): Promise<Database> {
  if (databaseUrl) {
    const pool = postgresPool(databaseUrl);
    (await pool.connect()).release(); // fail at start, not at the first request
    const kysely = postgresKysely(pool);
    return {
      engine: "postgres",
      kysely,
      prisma: undefined as unknown as PrismaClient,
      sqlite: undefined as unknown as BetterSqlite3.Database,
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
