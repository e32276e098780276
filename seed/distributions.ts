import type { Random } from "./random.ts";

/** Shapes of the large data set: a few big things and a long tail of small ones, cheaply. */

/** Splits `total` over `count` slots with Zipf-like weights (slot 0 largest); exact sum. */
export function zipf(total: number, count: number, exponent: number): Int32Array {
  const out = new Int32Array(count);
  if (count === 0) return out;
  const weights = Array.from({ length: count }, (_, i) => Math.pow(i + 1, -exponent));
  const sum = weights.reduce((a, b) => a + b, 0);
  let given = 0;
  weights.forEach((w, i) => {
    out[i] = Math.floor((total * w) / sum);
    given += out[i];
  });
  for (let i = 0; given < total; i = (i + 1) % count, given++) out[i]!++;
  return out;
}

/** A skewed count with the given mean (Pareto-like tail), capped. */
export function skewedCount(rnd: Random, mean: number, cap: number): number {
  const x = Math.pow(1 - rnd.next(), -1 / 1.5) - 1; // mean 2
  return Math.min(cap, Math.floor((x * mean) / 2 + rnd.next()));
}

/**
 * The users linked to one target: `size` distinct users other than `exclude`, taken in a run
 * from a random start (cheap, and distinct without a set).
 */
export class UserRun {
  private readonly skipAt: number;
  private readonly start: number;
  readonly size: number;
  private readonly users: number;
  constructor(start: number, size: number, users: number, exclude: number) {
    this.start = start;
    this.size = size;
    this.users = users;
    this.skipAt = (exclude - start + users) % users;
  }
  /** Whether `user` (a 0-based index) is in the run. */
  includes(user: number): boolean {
    const offset = (user - this.start + this.users) % this.users;
    if (offset === this.skipAt) return false;
    return (offset > this.skipAt ? offset - 1 : offset) < this.size;
  }
  /** The t-th user of the run (0 <= t < size), as a 0-based user index. */
  at(t: number): number {
    return (this.start + t + (t >= this.skipAt ? 1 : 0)) % this.users;
  }
}
