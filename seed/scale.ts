import bcrypt from "bcryptjs";
import { sqliteOf, type Database } from "../server/db/database.ts";
import { BulkWriter } from "./bulk.ts";
import { DEMO_PASSWORD, DEMO_USERNAME } from "./content/users.ts";
import { isDatabaseEmpty } from "./demo.ts";
import { imageFilesFor } from "./image-store.ts";
import type { RowCounts } from "./row-counts.ts";
import { commentCounts, DEMO_NOTIFICATIONS, validateCounts, type ScaleCounts } from "./scale-counts.ts";
import { scaleContext, type ScaleContext } from "./scale-context.ts";
import { deferIndexes, DiscussionWriter, planComments, type CommentPlan } from "./scale-discussion.ts";
import { BIG_HUB_NAME, planHubs, writeHubs, writeMembershipsAndPosts, type HubPlan, type WrittenPosts } from "./scale-hubs.ts";
import { writeGovernance, type WrittenGovernance } from "./scale-governance.ts";
import { renderPool } from "./scale-images.ts";
import { planSeries, writeSeries, type WrittenSeries } from "./scale-series.ts";
import { writeArtistImages, writeReaders, writeUsers } from "./scale-users.ts";

export const SCALE_ON_POSTGRES =
  "The large benchmark set is written into SQLite only (raw better-sqlite3, for speed): unset DATABASE_URL and seed a data folder";

export { BENCHMARK_COUNTS, CROWD_SERIES_NAME, parseScaleCounts, QUIET_SERIES_NAME, type ScaleCounts } from "./scale-counts.ts";
export { BIG_HUB_NAME } from "./scale-hubs.ts";

export interface ScaleOptions {
  now?: number;
  bcryptCost?: number;
  /** Everybody's password (default `demo1234`; production picks another: seed/demo-password.ts). */
  password?: string;
  concurrency?: number;
  log?: (message: string) => void;
}

export interface ScaleResult {
  seconds: number;
  /** Time spent writing rows (the rest is drawing the image pool and hashing the password). */
  writeSeconds: number;
  rows: RowCounts;
  bigHub: { id: number; name: string; posts: number };
  /** The big hub's newest post, with its top-level comments (undefined: no comments on it). */
  bigPost?: { id: number; topLevelComments: number };
  /** The series every user follows (and its followers), and the one nobody follows. */
  crowdSeries?: { id: number; name: string; followers: number };
  quietSeries?: { id: number; name: string };
  /** What the bench user follows and is told. */
  demo: { follows: number; hubs: number; notifications: number };
  /** Issue 14's rows: the bench's admin, moderator and blocker, reports, mod logs, bans, blocks, image uses. */
  governance?: WrittenGovernance;
  login: { username: string; password: string };
}

/**
 * Fills an EMPTY database with the large benchmark set: bulk inserts with prepared statements in
 * large transactions, every counter equal to its rows, one password hash for everybody
 * (`demo` / `demo1234` and every other user), and a small pool of drawn images reused through
 * per-artist rows. A failure part-way leaves a partial set: seed again into a new folder.
 *
 * SQLite only, for speed: millions of rows through raw better-sqlite3 statements on `db.sqlite`, the
 * connection that stays for SQLite (issue 12). PostgreSQL is to get the set by copying a seeded SQLite file.
 */
export async function seedScale(db: Database, dataDir: string, counts: ScaleCounts, options: ScaleOptions = {}): Promise<ScaleResult> {
  validateCounts(counts);
  if (db.engine !== "sqlite") throw new Error(SCALE_ON_POSTGRES);
  if (!(await isDatabaseEmpty(db.kysely))) throw new Error("seedScale needs an empty database");
  const log = options.log ?? (() => {});
  const started = performance.now();
  const sqlite = sqliteOf(db, "The large benchmark set");

  log("Drawing the image pool...");
  const pool = await renderPool(options.concurrency ?? 2);
  const password = options.password ?? DEMO_PASSWORD;
  const passwordHash = await bcrypt.hash(password, options.bcryptCost ?? 10);
  const files = imageFilesFor(dataDir);

  const bulk = new BulkWriter(sqlite);
  const ctx = scaleContext(sqlite, bulk, counts, { now: options.now ?? Date.now(), log });
  let written: Pick<ScaleResult, "bigPost" | "crowdSeries" | "quietSeries" | "demo" | "governance">;
  const writeStarted = performance.now();
  bulk.start();
  try {
    // The order of the phases is the order of the random draws: the set is the same for the same counts and `now`.
    writeUsers(ctx, passwordHash);
    writeReaders(ctx, passwordHash);
    writeArtistImages(ctx, files, pool);
    const hubs = planHubs(ctx);
    writeHubs(ctx, hubs);
    const plan = planCommentCounts(ctx, hubs);
    const posts = writeMembershipsAndPosts(ctx, hubs, (ordinal) =>
      plan.bigPost?.ordinal === ordinal ? plan.bigPost.topLevel + plan.bigPost.replies : plan.perPost[ordinal]!,
    );
    const seriesPlan = planSeries(ctx);
    const series = writeSeries(ctx, seriesPlan, (ordinal) => plan.perChapter[ordinal]!);
    const discussion = writeDiscussion(ctx, plan, posts, series);
    const governance = writeGovernance(ctx, passwordHash, discussion.bigPost?.id);
    written = {
      bigPost: discussion.bigPost,
      crowdSeries: series.crowdSeries,
      quietSeries: series.quietSeries,
      demo: { follows: seriesPlan.demoFollows.reduce((a, b) => a + b, 0), hubs: posts.demoHubs, notifications: discussion.notifications },
      governance,
    };
    bulk.finish();
  } catch (err) {
    bulk.abort();
    throw err;
  }
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  log(`  ${bulk.rows} rows written in ${writeSeconds.toFixed(1)} s (${Math.round(bulk.rows / writeSeconds)} rows/s)`);
  const { bigPost, crowdSeries, demo, governance } = written;
  if (bigPost) log(`  Big post: ${bigPost.id} in "${BIG_HUB_NAME}" with ${bigPost.topLevelComments} top-level comments`);
  if (crowdSeries) log(`  Crowd series: "${crowdSeries.name}" with ${crowdSeries.followers} followers`);
  log(
    `  "${DEMO_USERNAME}" follows ${demo.follows} series, is a member of ${demo.hubs} hubs and has ${demo.notifications} chapter notifications`,
  );
  if (governance)
    log(
      `  Governance: ${governance.reports} reports (${governance.openReports} open), ${governance.modLog} mod log entries (${governance.bigHubModLog} in "${BIG_HUB_NAME}"), ${governance.bans} bans, ${governance.blocks} blocks, ${governance.imageUses} image uses`,
    );
  return {
    seconds: (performance.now() - started) / 1000,
    writeSeconds,
    rows: ctx.rows,
    bigHub: {
      id: ctx.first.hub,
      name: BIG_HUB_NAME,
      posts: counts.hubs > 0 ? counts.bigHubPosts + (counts.hubs === 1 ? counts.posts - counts.bigHubPosts : 0) : 0,
    },
    ...written,
    login: { username: DEMO_USERNAME, password },
  };
}

/** Comments per post and chapter, known before they are written (their counts are columns of the rows). */
function planCommentCounts(ctx: ScaleContext, { postsPerHub }: HubPlan): CommentPlan {
  const { counts } = ctx;
  const comments = commentCounts(counts);
  const bigPostOrdinal = counts.hubs > 0 && postsPerHub[0]! > 0 ? postsPerHub[0]! - 1 : -1;
  return planComments(
    ctx.commentRnd,
    { comments: comments.comments, bigPost: comments.bigPost, posts: counts.posts, chapters: counts.chapters },
    bigPostOrdinal,
  );
}

/**
 * Comments on posts, then on chapters, with their likes and notifications; the bench user's chapter notifications;
 * every user's unread count. Answers the big post and how many chapter notifications the bench user got.
 */
function writeDiscussion(
  ctx: ScaleContext,
  plan: CommentPlan,
  posts: WrittenPosts,
  series: WrittenSeries,
): { bigPost: ScaleResult["bigPost"]; notifications: number } {
  const { sqlite, counts, rows, first, log } = ctx;
  const comments = commentCounts(counts);
  const discussion = new DiscussionWriter(sqlite, ctx.bulk, rows, {
    rnd: ctx.commentRnd,
    now: ctx.now,
    users: ctx.users,
    userId: ctx.userId,
    unread: new Int32Array(ctx.users + ctx.readers),
    likeMean: comments.likes / Math.max(1, comments.comments),
    quietUser: 0,
    firstCommentId: first.comment,
  });
  const restoreIndexes = deferIndexes(sqlite, ["Comment", "CommentLike", "Notification"]);
  const commentsStarted = performance.now();
  let lastLog = commentsStarted;
  const progress = () => {
    if (performance.now() - lastLog < 5000) return;
    lastLog = performance.now();
    log(`  ${rows.comments} comments (${Math.round(rows.comments / ((lastLog - commentsStarted) / 1000))} comments/s)`);
  };
  let bigPost: ScaleResult["bigPost"];
  for (let i = 0; i < counts.posts; i++) {
    const place = { column: "postId" as const, id: first.post + i, date: posts.dates[i]!, author: posts.authors[i]! };
    if (plan.bigPost?.ordinal === i) {
      discussion.writePlace(place, plan.bigPost.topLevel, plan.bigPost.replies);
      bigPost = { id: place.id, topLevelComments: plan.bigPost.topLevel };
    } else discussion.writeSpread(place, plan.perPost[i]!);
    progress();
  }
  for (let i = 0; i < counts.chapters; i++) {
    discussion.writeSpread(
      { column: "chapterId", id: first.chapter + i, date: series.chapterDates[i]!, author: series.chapterAuthors[i]! },
      plan.perChapter[i]!,
    );
    progress();
  }
  const demoChapters = series.demoChapters.sort((a, b) => a.date - b.date || a.id - b.id);
  const told = demoChapters.slice(Math.max(0, demoChapters.length - DEMO_NOTIFICATIONS));
  for (const c of told) discussion.notify(0, "chapter", c.artist, { chapterId: c.id }, c.date, true);
  discussion.writeUnreadCounts();
  const indexesStarted = performance.now();
  restoreIndexes();
  log(`  comment and notification indexes made in ${((performance.now() - indexesStarted) / 1000).toFixed(1)} s`);
  return { bigPost, notifications: told.length };
}
