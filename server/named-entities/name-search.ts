import { sql, type RawBuilder } from "kysely";
import type { Engine } from "../db/database.ts";

/**
 * Substring search on a name key, from three characters: on SQLite through the FTS5 trigram index ("HubNameSearch",
 * "SeriesNameSearch"), on PostgreSQL through the B-tree of the name keys' suffixes ("HubNameSuffix", "SeriesNameSuffix":
 * the names whose suffixes start with the text). Shorter text scans the keys with LIKE on both.
 */
export interface NameSearch {
  kind: "trigram" | "suffix" | "like";
  /** The query's values: the FTS5 phrase (trigram), the LIKE pattern, or the suffixes' range and the text's length. */
  values: { arg: string } | SuffixRange;
}

/** The suffixes that start with a text: from it (`arg`) to the next string (`argEnd`); `argLength` its characters. */
export interface SuffixRange {
  arg: string;
  argEnd: string;
  argLength: number;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (ESCAPE '\'). */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The first string after every string that starts with `text`, in code point order ("C" collation): the last character
 * that can grow, grown by one (skipping the surrogates, which are no characters). Null when every character is U+10FFFF.
 */
export function prefixEnd(text: string): string | null {
  const chars = Array.from(text);
  while (chars.length > 0) {
    const next = chars.pop()!.codePointAt(0)! + 1;
    if (next <= 0x10ffff) return chars.join("") + String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
  }
  return null;
}

export function nameSearch(engine: Engine, key: string): NameSearch {
  const length = Array.from(key).length;
  if (length >= 3 && engine === "sqlite") return { kind: "trigram", values: { arg: `"${key.replaceAll('"', '""')}"` } }; // an FTS5 phrase
  const argEnd = length >= 3 ? prefixEnd(key) : null;
  if (argEnd !== null) return { kind: "suffix", values: { arg: key, argEnd, argLength: length } };
  return { kind: "like", values: { arg: likePattern(key) } };
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

/** Where a query puts a search's values (prepare's placeholders). */
export type SearchSlots = (name: "arg" | "argEnd" | "argLength") => unknown;

/** The suffix rows in the range, one per name (prisma/postgres/migrations/20261128100000_name_suffixes). */
export const suffixRange = (p: SearchSlots) =>
  sql`"suffix" >= ${p("arg")} AND "suffix" < ${p("argEnd")} AND "repeatLength" < ${p("argLength")}`;

/** The ids of the rows whose name key contains the text, read from the search's index: a subquery for `IN (...)`. */
export function matchingIds(table: "Hub" | "Series", kind: "trigram" | "suffix", p: SearchSlots): RawBuilder<unknown> {
  if (kind === "suffix") return sql`SELECT "id" FROM ${sql.table(`${table}NameSuffix`)} WHERE ${suffixRange(p)}`;
  const index = sql.table(`${table}NameSearch`);
  return sql`SELECT rowid FROM ${index} WHERE ${index} MATCH ${p("arg")}`;
}

/** What follows `FROM <table>` to select the rows whose name matches (for a walk, `arg` is the name key itself). */
export function nameFilter(table: "Hub" | "Series", plan: SearchPlan, p: SearchSlots): RawBuilder<unknown> {
  switch (plan) {
    case "trigram":
    case "suffix":
      return sql`WHERE "id" IN (${matchingIds(table, plan, p)})`;
    case "walk":
      // instr, not LIKE: an exact substring, as the trigram phrase is (both on the case-folded key).
      return sql`INDEXED BY ${sql.id(`${table}_createdAt_id_nameKey_idx`)} WHERE instr("nameKey", ${p("arg")}) > 0`;
    case "like":
      return sql`WHERE "nameKey" LIKE ${p("arg")} ESCAPE '\\'`;
  }
}
