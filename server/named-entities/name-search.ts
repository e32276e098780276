import { sql, type RawBuilder } from "kysely";
import type { Engine } from "../db/database.ts";

/**
 * Substring search on a name key. On SQLite, three characters or more go through the FTS5 trigram index
 * ("HubNameSearch", "SeriesNameSearch"); shorter text has no trigram and scans the keys with LIKE. On
 * PostgreSQL every search is a LIKE, which the pg_trgm GIN index on "nameKey" serves from three characters.
 */
export interface NameSearch {
  kind: "trigram" | "like";
  /** The FTS5 phrase (trigram) or the LIKE pattern. */
  arg: string;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (ESCAPE '\'). */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function nameSearch(engine: Engine, key: string): NameSearch {
  return engine === "sqlite" && Array.from(key).length >= 3
    ? { kind: "trigram", arg: `"${key.replaceAll('"', '""')}"` } // an FTS5 phrase: the text as a substring
    : { kind: "like", arg: likePattern(key) };
}

export type SearchPlan = NameSearch["kind"] | "walk";

/**
 * SQLite: how a page of trigram matches is read, from how many there are. "trigram" sorts every match by date (about
 * 1.5 µs a match, after the trigram list); "walk" reads the newest-first index of (date, id, name key) and keeps the
 * names containing the text (about 0.2 µs an entry), so it reads about (offset + limit) × rows ÷ matches entries. The
 * walk wins when that is below some 7 × matches entries; 4 × leaves room for error. A page of "lantern", 1,573 of
 * 100,000 hubs: 0.1 ms walking, 1.6 ms sorting; a word in 13 of them: a walk would read every entry (10 ms).
 */
export function searchPlan(kind: NameSearch["kind"], matches: number, rows: number, end: number): SearchPlan {
  return kind === "trigram" && matches > 0 && end * rows <= 4 * matches * matches ? "walk" : kind;
}

/** What follows `FROM <table>` to select the rows whose name matches `arg` (a placeholder: the name key itself for a walk). */
export function nameFilter(table: "Hub" | "Series", plan: SearchPlan, arg: unknown): RawBuilder<unknown> {
  const index = sql.table(`${table}NameSearch`);
  switch (plan) {
    case "trigram":
      return sql`WHERE "id" IN (SELECT rowid FROM ${index} WHERE ${index} MATCH ${arg})`;
    case "walk":
      // instr, not LIKE: an exact substring, as the trigram phrase is (both on the case-folded key).
      return sql`INDEXED BY ${sql.id(`${table}_createdAt_id_nameKey_idx`)} WHERE instr("nameKey", ${arg}) > 0`;
    case "like":
      return sql`WHERE "nameKey" LIKE ${arg} ESCAPE '\\'`;
  }
}
