import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from "kysely";
import type { DB } from "./schema.ts";

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, "app.db");
}

/** The embedded database: one better-sqlite3 connection in the data folder (docs/decisions/002-one-connection.md). */
export function openSqliteConnection(dataDir: string): BetterSqlite3.Database {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(databaseFile(dataDir));
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // 16 MB of pages in memory instead of SQLite's 2 MB: a signed-in feed page touches ~400 pages of a large database,
  // right at the default's edge, where a little more data made it read its own pages again.
  sqlite.pragma("cache_size = -16000");
  return sqlite;
}

/**
 * Kysely over the one connection. Kysely's SqliteDialect prepares every statement on every call
 * (+40–70 µs); this keeps one prepared statement per SQL text. Its driver runs one query at a time on
 * the connection and holds it for a whole transaction, so a data-layer unit cannot interleave with
 * another request's statements.
 */
const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  *iterate() {},
};

export function sqliteKysely(sqlite: BetterSqlite3.Database): Kysely<DB> {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const database: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare(text: string): SqliteStatement {
      // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL): Kysely's ROLLBACK would then fail
      // and hide the error that matters (a full disk is a 503).
      if (text === "rollback" && !sqlite.inTransaction) return NOTHING_TO_ROLL_BACK;
      let statement = cache.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        // Plain numbers, whatever the connection's default (Prisma's adapter turns on BigInt mode).
        if (statement.reader) statement.safeIntegers(false);
        cache.set(text, statement);
      }
      return statement;
    },
  };
  return new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
}
