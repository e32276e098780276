import { createHash } from "node:crypto";
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import type { DB } from "./schema.ts";

// BIGINT (dates in ms, COUNT(*)) arrives as a string by default; every one of ours fits a double.
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * A pool whose clients send named statements (named by a hash of their text), so PostgreSQL parses and
 * plans each query once per connection instead of on every call (docs/decisions/014-data-layer.md).
 */
function namedStatementPool(pool: pg.Pool): PostgresPool {
  // Names by text, hashed once: hashing on every call was ~1 % of an uncached list read's CPU. The texts are the
  // prepared queries and the few built per call (IN lists of a bounded length); the cap is a guard, not a tuning.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= 10_000) names.clear();
      names.set(text, (name = createHash("sha1").update(text).digest("base64url")));
    }
    return name;
  };
  return {
    async connect() {
      const client = await pool.connect();
      const query = (text: string, values: readonly unknown[]) => client.query({ name: nameOf(text), text, values: [...values] });
      // pg types `command` as any string; Kysely's interface lists the five it reads.
      return { query: query as unknown as PostgresPoolClient["query"], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

export function postgresPool(url: string, max = 10): pg.Pool {
  const parsers = new Map<number, (text: string) => number>([
    [INT8_OID, Number],
    [NUMERIC_OID, Number],
  ]);
  const types = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      parsers.get(oid) ??
      (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({ connectionString: url, max, types });
  // An idle client whose server went away emits 'error'; the pool drops it and the next query reconnects.
  pool.on("error", () => {});
  return pool;
}

export function postgresKysely(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) });
}
