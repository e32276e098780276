import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { postgresKysely, postgresPool } from "./postgres.ts";
import type { DB } from "./schema.ts";
import { databaseFile, openSqliteConnection, sqliteKysely } from "./sqlite.ts";

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
  /** The SQLite connection, for what only SQLite does (the benchmark's bulk loader); undefined on PostgreSQL. */
  sqlite?: BetterSqlite3.Database;
  /** The SQLite file; undefined on PostgreSQL. */
  file?: string;
  /** The PostgreSQL URL (a listening connection of its own: server/db/commits-elsewhere.ts); undefined on SQLite. */
  url?: string;
  close(): Promise<void>;
}

export async function openDatabase(dataDir: string, databaseUrl?: string): Promise<Database> {
  if (databaseUrl) {
    const pool = postgresPool(databaseUrl);
    (await pool.connect()).release(); // fail at start, not at the first request
    const kysely = postgresKysely(pool);
    return { engine: "postgres", kysely, url: databaseUrl, close: () => kysely.destroy() };
  }
  const sqlite = openSqliteConnection(dataDir);
  const kysely = sqliteKysely(sqlite);
  return {
    engine: "sqlite",
    kysely,
    sqlite,
    file: databaseFile(dataDir),
    async close() {
      if (sqlite.open) await kysely.destroy();
    },
  };
}

/** The SQLite connection of a database that must be SQLite (the bulk loaders of the benchmark sets). */
export function sqliteOf(db: Database, what: string): BetterSqlite3.Database {
  if (!db.sqlite) throw new Error(`${what} runs on SQLite only (DATABASE_URL is set).`);
  return db.sqlite;
}
