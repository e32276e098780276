// A seed's output for tests/seed: one fresh data folder per test file, seeded once, read by every test.
import fs from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import type { CounterMismatches } from "../../seed/counters.ts";
import { freshDataDir } from "./test-data-dir.ts";

export interface SeededFolder<Result> {
  dataDir: string;
  db: Database;
  /** What the seed answered. */
  result: Result;
}

/**
 * Before the file's tests, a fresh migrated data folder filled by `seed` and handed to `ready`;
 * after them, the database closed and the folder removed.
 */
export function setUpSeededFolder<Result>(
  seed: (db: Database, dataDir: string) => Promise<Result>,
  ready: (folder: SeededFolder<Result>) => void,
  timeoutMs: number,
): void {
  let dataDir: string | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    dataDir = freshDataDir();
    db = await openDatabase(dataDir);
    ready({ dataDir, db, result: await seed(db, dataDir) });
  }, timeoutMs);
  afterAll(async () => {
    await db?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

/**
 * Ad-hoc queries in SQLite's SQL on the seeded file of `db()` (the seeds' folders are SQLite), through a
 * read-only connection of their own, with plain numbers (no BigInt).
 */
export function plainQueries(db: () => Database) {
  const all = <T>(sql: string, ...params: unknown[]) => {
    const { file } = db();
    if (!file) throw new Error("The seeds' tests read a SQLite file");
    const reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    try {
      return reader.prepare(sql).all(...params) as T[];
    } finally {
      reader.close();
    }
  };
  const one = <T>(sql: string, ...params: unknown[]) => all<T>(sql, ...params)[0]!;
  const count = (sql: string, ...params: unknown[]) => one<{ n: number }>(sql, ...params).n;
  return { all, one, count };
}

/** What counterMismatches answers when every counter equals the rows behind it. */
export const NO_COUNTER_MISMATCHES: CounterMismatches = {
  hubMembers: 0,
  hubPosts: 0,
  postLikes: 0,
  seriesFollowers: 0,
  seriesChapters: 0,
  chapterLikes: 0,
  commentLikes: 0,
  commentReplies: 0,
  postComments: 0,
  chapterComments: 0,
  postThreads: 0,
  chapterThreads: 0,
  rowCounts: 0,
  unreadNotifications: 0,
  userBlocks: 0,
  seriesLastChapter: 0,
};
