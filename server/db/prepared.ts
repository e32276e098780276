import { sql, type CompiledQuery, type Compilable, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Engine } from "./database.ts";
import type { DB } from "./schema.ts";

/** Where a prepared query runs: the database, or the transaction of a data-layer unit. */
export type Executor = Kysely<DB> | Transaction<DB>;

/** Stands for a named value while the query is built; replaced by the call's value at each run. */
class Slot {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
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

/**
 * The page sizes written into the SQL text on PostgreSQL by `prepareSized`: the ones the site and the benchmark ask for.
 * A fixed few, so a client walking through every size cannot make each connection keep hundreds of statements.
 */
export const LITERAL_PAGE_SIZES: ReadonlySet<number> = new Set([1, 5, 10, 20, 25, 50, 60, 100]);

/**
 * `prepare` for a page query whose LIMIT is the page size (`limit`). On PostgreSQL the usual sizes are written into the
 * text (`LIMIT 10`, one named statement per size): with `LIMIT $n` PostgreSQL's generic plan assumes a tenth of the
 * rows below the LIMIT, costs more than each call's own plan, and so every call was planned anew (0.3–0.5 ms,
 * more than the page's joins take to run; docs/decisions/014-data-layer.md). So is the first page's OFFSET 0, when the
 * builder places `offset`: with `OFFSET $n` the generic plan assumes a tenth of the rows skipped (10,000 of 100,000
 * hubs), and the first page, the one most asked for, was planned anew at every call too. Other sizes, and SQLite, use
 * the parameters. `limit` and `offset` are where the builder puts the LIMIT's and the OFFSET's values (the parameters
 * named `limit` and `offset`).
 */
export function prepareSized<Params extends Record<string, unknown> & { limit: number }, Row = never>(
  db: { engine: Engine; kysely: Kysely<DB> },
  build: (p: Placeholder<Params>, limit: unknown, offset: unknown) => Compilable<Row> | RawBuilder<Row>,
): Prepared<Params, Row> {
  const offsetName = "offset" as keyof Params & string;
  const general = prepare<Params, Row>(db.kysely, (p) => build(p, p("limit"), p(offsetName)));
  if (db.engine !== "postgres") return general;
  const bySize = new Map<string, Prepared<Params, Row>>();
  const forCall = (params: Params) => {
    const size = params.limit;
    if (!LITERAL_PAGE_SIZES.has(size)) return general;
    const first = params[offsetName] === 0;
    const key = `${size}:${first}`;
    let sized = bySize.get(key);
    if (!sized)
      bySize.set(key, (sized = prepare<Params, Row>(db.kysely, (p) => build(p, sql.lit(size), first ? sql.lit(0) : p(offsetName)))));
    return sized;
  };
  return {
    sql: general.sql,
    all: (params, on) => forCall(params).all(params, on),
    first: (params, on) => forCall(params).first(params, on),
    run: (params, on) => forCall(params).run(params, on),
  };
}

/** The lengths an id list is padded to by `prepareAmong`: a page's ids take one of a few statements. */
const AMONG_LENGTHS = [1, 2, 5, 10, 20, 50, 100];

/**
 * `prepare` for a query over a list of ids (`IN (...)`), which otherwise is built and compiled at every call: one
 * statement per padded length, the list padded with its last id (the same rows), built on first use. Longer lists
 * are built per call. `build` places the list where `among` is given (a parenthesised list of placeholders).
 */
export function prepareAmong<Params extends Record<string, unknown>, Row>(
  db: Kysely<DB>,
  build: (p: Placeholder<Params>, among: RawBuilder<unknown>) => RawBuilder<Row>,
): { all(params: Params, ids: readonly number[]): Promise<Row[]> } {
  type WithIds = Params & Record<string, unknown>;
  const byLength = new Map<number, Prepared<WithIds, Row>>();
  return {
    all(params, ids) {
      if (ids.length === 0) return Promise.resolve([]);
      const length = AMONG_LENGTHS.find((n) => n >= ids.length);
      if (length === undefined)
        return build(((name: string) => params[name]) as Placeholder<Params>, sql`(${sql.join(ids)})`)
          .execute(db)
          .then((r) => r.rows);
      let statement = byLength.get(length);
      if (!statement) {
        const slots = (p: Placeholder<WithIds>) => sql`(${sql.join(Array.from({ length }, (_, i) => p(`id${i}`)))})`;
        byLength.set(length, (statement = prepare<WithIds, Row>(db, (p) => build(p, slots(p)))));
      }
      const values: Record<string, unknown> = { ...params };
      for (let i = 0; i < length; i++) values[`id${i}`] = ids[Math.min(i, ids.length - 1)];
      return statement.all(values as WithIds);
    },
  };
}
