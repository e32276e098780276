import type BetterSqlite3 from "better-sqlite3";

/** A raw better-sqlite3 statement for the SQLite-only bulk loaders, answering plain numbers (no BigInt). */
export function prepare<Params extends unknown[] | object = unknown[], Row = unknown>(
  sqlite: BetterSqlite3.Database,
  sql: string,
): BetterSqlite3.Statement<Params, Row> {
  const statement = sqlite.prepare<Params, Row>(sql);
  if (statement.reader) statement.safeIntegers(false);
  return statement;
}
