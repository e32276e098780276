import type { CompiledQuery, Compilable, Kysely, RawBuilder, Transaction } from "kysely";
import type { DB } from "./schema.ts";

/** Where a prepared query runs: the database, or the transaction of a data-layer unit. */
export type Executor = Kysely<DB> | Transaction<DB>;

/** Stands for a named value while the query is built; replaced by the call's value at each run. */
class Slot {
  constructor(readonly name: string) {}
}

/** Gives a query's placeholders their names while it is built: `where("id", "=", p("id"))`. */
export type Placeholder<Params> = <K extends keyof Params & string>(name: K) => Params[K];

export interface Prepared<Params, Row> {
  all(params: Params, on?: Executor): Promise<Row[]>;
  first(params: Params, on?: Executor): Promise<Row | undefined>;
  /** Runs a write; answers how many rows it changed. */
  run(params: Params, on?: Executor): Promise<number>;
  /** The SQL text, for tests and EXPLAIN. */
  readonly sql: string;
}

/**
 * A query built and compiled once, run many times with its values filled in. Building and compiling a
 * Kysely query costs 75–155 µs, more than running most of ours (docs/decisions/014-data-layer.md), so the
 * hot queries are built when their module is made. Each value is a named placeholder; the helper keeps which
 * parameter position takes which name. Queries whose shape changes per call (IN lists) are built per call.
 */
export function prepare<Params extends Record<string, unknown> = Record<string, never>, Row = never>(
  db: Kysely<DB>,
  build: (p: Placeholder<Params>) => Compilable<Row> | RawBuilder<Row>,
): Prepared<Params, Row> {
  // A builder's compile() takes nothing; a raw `sql` template's takes the database whose dialect it compiles for.
  const built = build(((name: string) => new Slot(name)) as Placeholder<Params>) as { compile(db: Kysely<DB>): CompiledQuery<Row> };
  const compiled = built.compile(db);
  const slots = compiled.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
  const withValues = (params: Params): CompiledQuery<Row> => ({
    ...compiled,
    parameters: compiled.parameters.map((value, i) => {
      const name = slots[i];
      if (name === undefined) return value;
      const filled = params[name];
      if (filled === undefined) throw new Error(`No value for :${name} in ${compiled.sql}`);
      return filled;
    }),
  });
  return {
    sql: compiled.sql,
    all: async (params, on = db) => (await on.executeQuery(withValues(params))).rows,
    first: async (params, on = db) => (await on.executeQuery(withValues(params))).rows[0],
    run: async (params, on = db) => Number((await on.executeQuery(withValues(params))).numAffectedRows ?? 0),
  };
}
