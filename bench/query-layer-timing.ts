// Timing and checks shared by the SQLite and PostgreSQL halves of bench/query-layer.ts.

export type Run = () => unknown;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/** µs per call: the median of `rounds` timed loops of `iterations` calls each, after one untimed loop. */
export async function microsPerCall(run: Run, iterations: number, rounds: number): Promise<number> {
  const loop = async () => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) {
      const result = run();
      // Prisma's queries are lazy thenables, not Promises: they run only when awaited.
      if (isThenable(result)) await result;
    }
    return Number(process.hrtime.bigint() - start) / 1000 / iterations;
  };
  await loop(); // warm-up: statements prepared, code optimised, pages cached
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) times.push(await loop());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The same rows from every path, or the measurement would compare different work. */
export function assertSameIds(query: string, label: string, expected: unknown[], actual: unknown[]) {
  const ids = (rows: unknown[]) => JSON.stringify(rows.map((row) => (row as { id: number }).id));
  if (ids(expected) !== ids(actual)) throw new Error(`${query}: ${label} answered ${ids(actual)}, raw SQL ${ids(expected)}`);
}

/** One query's µs per call on each path (null: the path cannot express it). */
export interface Row {
  query: string;
  paths: Record<string, number | null>;
}

export const tableHead = (paths: readonly string[]) =>
  `| query (µs per query) | ${paths.join(" | ")} |\n|---|${paths.map(() => "---:").join("|")}|`;

export const formatRow = (row: Row, paths: readonly string[]) =>
  `| ${row.query} | ${paths
    .map((name) => {
      const us = row.paths[name];
      return us === null || us === undefined ? "—" : us < 100 ? us.toFixed(1) : us.toFixed(0);
    })
    .join(" | ")} |`;
