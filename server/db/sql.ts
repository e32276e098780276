import type BetterSqlite3 from "better-sqlite3";

/** Prepared statements return plain numbers (the Prisma adapter turns on BigInt mode for the connection). */
export function prepare<Params extends unknown[] | object = unknown[], Row = unknown>(
  sqlite: BetterSqlite3.Database,
  sql: string,
): BetterSqlite3.Statement<Params, Row> {
  const statement = sqlite.prepare<Params, Row>(sql);
  if (statement.reader) statement.safeIntegers(false);
  return statement;
}

/** Dates are stored as Unix milliseconds (the adapter's `unixepoch-ms` format). */
export const toIso = (ms: number) => new Date(ms).toISOString();
export const nowMs = () => Date.now();

/** `?, ?, ?` for an IN list of n values. */
export const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");
