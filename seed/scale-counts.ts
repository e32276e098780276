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
  /** Follow rows in total (default: 25 per series on average), besides the crowd series' and the bench user's. */
  follows?: number;
  /** Comment rows in total, replies included, on posts and chapters (default: one per post). */
  comments?: number;
  /** Top-level comments on the big hub's newest post (default: a tenth of the comments, at most 10,000). */
  bigPostComments?: number;
  /** CommentLike rows in total (default: one per two comments on average, skewed). */
  commentLikes?: number;
  /** Plain readers: users who only follow the crowd series (default 0), so that it can have more followers than `users`. */
  readers?: number;
}

/** The series every user and reader follows (the publish measurement's 100,000 followers), and one nobody follows. */
export const CROWD_SERIES_NAME = "Paper Moon Saga";
export const QUIET_SERIES_NAME = "Letters Nobody Reads";
/** The bench user (`demo`) follows this many series (or every other one, in a set with fewer). */
export const DEMO_FOLLOWS = 500;
/** The bench user is a member of the big hub (its creator) and of this many other hubs with posts. */
export const DEMO_HUBS = 20;
/** The bench user's notifications: the newest chapters of the series it follows, as many in every set (when it has them). */
export const DEMO_NOTIFICATIONS = 3_000;

export const BENCHMARK_COUNTS = {
  users: 10_000,
  hubs: 100_000,
  posts: 1_000_000,
  bigHubPosts: 200_000,
  series: 2_000,
  chapters: 50_000,
  comments: 1_000_000,
  bigPostComments: 10_000,
  /** With the 10,000 users: a crowd series of 100,000 followers. */
  readers: 90_001,
} as const;
const COUNT_NAMES = [
  "users",
  "hubs",
  "posts",
  "bigHubPosts",
  "series",
  "chapters",
  "postLikes",
  "chapterLikes",
  "follows",
  "comments",
  "bigPostComments",
  "commentLikes",
  "readers",
] as const;

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
  const comments = c.comments ?? c.posts;
  if (comments > 0 && c.posts + c.chapters === 0) throw new Error("comments need posts or chapters");
  if ((c.bigPostComments ?? 0) > 0 && c.bigHubPosts === 0) throw new Error("bigPostComments need a post in the big hub (bigHubPosts)");
  if ((c.bigPostComments ?? 0) > comments) throw new Error(`bigPostComments (${c.bigPostComments}) cannot exceed comments (${comments})`);
}

/** The comment counts a set gets: those given, or the defaults above. */
export function commentCounts(c: ScaleCounts): { comments: number; bigPost: number; likes: number } {
  const comments = c.comments ?? c.posts;
  const bigPost = c.bigPostComments ?? (c.bigHubPosts > 0 ? Math.min(10_000, Math.floor(comments / 10)) : 0);
  return { comments, bigPost, likes: c.commentLikes ?? Math.round(comments / 2) };
}
