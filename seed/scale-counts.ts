/** How big the benchmark data set is, and reading that from the command line. */

export interface ScaleCounts {
  users: number;
  hubs: number;
  posts: number;
  /** Posts in one hub ("Ink & Brushes", the first), for paging deep into a big list. */
  bigHubPosts: number;
  series: number;
  chapters: number;
  /** PostLike rows in total (default: one per post on average, skewed). */
  postLikes?: number;
  /** ChapterLike rows in total (default: four per chapter on average). */
  chapterLikes?: number;
  /** Follow rows in total (default: 25 per series on average). */
  follows?: number;
}

export const BENCHMARK_COUNTS = {
  users: 10_000,
  hubs: 100_000,
  posts: 1_000_000,
  bigHubPosts: 200_000,
  series: 2_000,
  chapters: 50_000,
} as const;
const COUNT_NAMES = ["users", "hubs", "posts", "bigHubPosts", "series", "chapters", "postLikes", "chapterLikes", "follows"] as const;

/** "users=200,posts=3000" (counts not named keep the benchmark's values); "" is the benchmark. */
export function parseScaleCounts(spec: string): ScaleCounts {
  const counts: ScaleCounts = { ...BENCHMARK_COUNTS };
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^(\w+)=([\d_]+)$/.exec(part);
    const name = COUNT_NAMES.find((n) => n.toLowerCase() === match?.[1]?.toLowerCase());
    if (!match || !name) throw new Error(`Bad --scale count "${part}": use name=number with a name among ${COUNT_NAMES.join(", ")}`);
    counts[name] = Number(match[2]!.replace(/_/g, ""));
  }
  validateCounts(counts);
  return counts;
}

export function validateCounts(c: ScaleCounts): void {
  for (const name of COUNT_NAMES) {
    const value = c[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw new Error(`${name} must be a whole number >= 0`);
  }
  if (c.users < 1) throw new Error("users must be at least 1");
  if (c.bigHubPosts > c.posts) throw new Error(`bigHubPosts (${c.bigHubPosts}) cannot exceed posts (${c.posts})`);
  if (c.posts > 0 && c.hubs < 1) throw new Error("posts need at least one hub");
  if (c.chapters > 0 && c.series < 1) throw new Error("chapters need at least one series");
}
