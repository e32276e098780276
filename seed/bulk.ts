import type BetterSqlite3 from "better-sqlite3";

/**
 * Bulk loading for the large data set: prepared statements in large transactions, committed
 * every `chunk` rows so the write-ahead log stays a manageable size, with durability relaxed
 * while loading (a crash mid-seed means seeding again into a fresh folder anyway).
 */
export class BulkWriter {
  private pending = 0;
  private open = false;
  rows = 0;

  private readonly sqlite: BetterSqlite3.Database;
  private readonly chunk;
  constructor(sqlite: BetterSqlite3.Database, chunk = 100_000) {
    this.sqlite = sqlite;
    this.chunk = chunk;
  }

  start(): void {
    this.sqlite.pragma("synchronous = OFF");
    this.sqlite.pragma("cache_size = -262144"); // 256 MB of page cache while loading
    this.sqlite.pragma("temp_store = MEMORY");
    this.sqlite.exec("BEGIN");
    this.open = true;
  }

  /** Counts one written row; commits and begins again every `chunk` rows. */
  row(count = 1): void {
    this.rows += count;
    this.pending += count;
    if (this.pending >= this.chunk) {
      this.sqlite.exec("COMMIT");
      this.sqlite.exec("BEGIN");
      this.pending = 0;
    }
  }

  finish(): void {
    if (this.open) this.sqlite.exec("COMMIT");
    this.open = false;
    this.restore();
    // No ANALYZE: the benchmark should see the query plans the app gets in normal use.
    this.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  }

  abort(): void {
    if (this.open && this.sqlite.inTransaction) this.sqlite.exec("ROLLBACK");
    this.open = false;
    this.restore();
  }

  private restore() {
    this.sqlite.pragma("synchronous = NORMAL");
    this.sqlite.pragma("cache_size = -2000");
  }
}
