// Publishing a chapter to a series with many followers (the crowd series: 100,000 in the large set) against one with
// none (the quiet series), on a throw-away copy of the large set: the series' authors sign in, upload one small PNG,
// then publish chapters one at a time, alternating, and each request's time is kept. The followers' notifications
// are a job the site runs after the request (docs/decisions/017-discussion.md); its progress is read from the
// database for a bounded time afterwards, not waited for.
import sharp from "sharp";
import { CROWD_SERIES_NAME, QUIET_SERIES_NAME } from "../seed/scale-counts.ts";
import { sleep, type LoadResult } from "./common.ts";
import { withDatabase } from "./mixed.ts";
import { apiToken } from "./scenarios.ts";

const enc = encodeURIComponent;

export interface PublishTarget {
  kind: "crowd" | "quiet";
  series: string;
  followers: number;
  author: string;
  token: string;
  /** The author's uploaded page image, reused by every chapter published. */
  imageId: number;
}

export interface PublishTimes {
  kind: PublishTarget["kind"];
  /** Milliseconds per measured request (warm-up excluded). */
  times: number[];
  statusCodes: Record<string, number>;
  failures: { status: number; body: string }[];
  /** Ids of the chapters published (warm-up included). */
  chapterIds: number[];
}

export interface JobProgress {
  /** Chapter notifications the crowd series' chapters should make (followers × chapters published). */
  expected: number;
  made: number;
  /** Jobs left in the Job table when the watch ended. */
  jobsLeft: number;
  /** Seconds from the first crowd publish until the watch ended (done: until the last job was gone). */
  seconds: number;
  done: boolean;
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/** A 64 × 64 PNG drawn here: the smallest honest page. */
const pagePng = () =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 120, g: 160, b: 220 } } })
    .png()
    .toBuffer();

/** Signs in each series' author (every seeded user has the bench password) and uploads one page image for them. */
export async function preparePublish(apiUrl: string, password: string): Promise<PublishTarget[]> {
  const png = await pagePng();
  const byAuthor = new Map<string, { token: string; imageId: number }>();
  const targets: PublishTarget[] = [];
  for (const [kind, name] of [
    ["crowd", CROWD_SERIES_NAME],
    ["quiet", QUIET_SERIES_NAME],
  ] as const) {
    const series = await json<{ authorName: string; followersCount: number }>(
      await fetch(`${apiUrl}/series/${enc(name)}`, { signal: AbortSignal.timeout(30_000) }),
      `GET /series/${name}`,
    );
    let author = byAuthor.get(series.authorName);
    if (!author) {
      const token = await apiToken(apiUrl, { username: series.authorName, password });
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "bench-page.png");
      const image = await json<{ id: number }>(
        await fetch(`${apiUrl}/images`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: form,
          signal: AbortSignal.timeout(30_000),
        }),
        `POST /images as ${series.authorName}`,
      );
      author = { token, imageId: image.id };
      byAuthor.set(series.authorName, author);
    }
    targets.push({ kind, series: name, followers: series.followersCount, author: series.authorName, ...author });
  }
  return targets;
}

/**
 * `warmup` rounds, then `rounds` measured ones: each round publishes one chapter to every target, the order turned
 * round every other round, `pauseMs` apart. Sequential, one connection: the time of each request as the client sees it.
 */
export async function publishChapters(
  apiUrl: string,
  targets: PublishTarget[],
  options: { rounds: number; warmup: number; pauseMs: number; onFirstCrowd?: () => void },
): Promise<PublishTimes[]> {
  const results = new Map<PublishTarget, PublishTimes>(
    targets.map((t) => [t, { kind: t.kind, times: [], statusCodes: {}, failures: [], chapterIds: [] }]),
  );
  let serial = 0;
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const r = results.get(target)!;
      const n = ++serial;
      const body = JSON.stringify({
        title: `Bench chapter ${n}`,
        description: "Published by the benchmark.",
        content: "",
        pages: [target.imageId],
      });
      const started = performance.now();
      const res = await fetch(`${apiUrl}/series/${enc(target.series)}/chapters`, {
        method: "POST",
        headers: { authorization: `Bearer ${target.token}`, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status === 201) r.chapterIds.push((JSON.parse(text) as { id: number }).id);
      if (target.kind === "crowd" && r.chapterIds.length === 1 && res.status === 201) options.onFirstCrowd?.();
      if (round >= options.warmup) {
        r.times.push(ms);
        r.statusCodes[res.status] = (r.statusCodes[res.status] ?? 0) + 1;
        if (res.status !== 201 && r.failures.length < 5) r.failures.push({ status: res.status, body: text.slice(0, 300) });
      }
      await sleep(options.pauseMs);
    }
  }
  return targets.map((t) => results.get(t)!);
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
export const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
export const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

/** Sequential requests as a load result: req/s is 1 / the mean time (one at a time), percentiles of the times. */
export function asLoadResult(t: PublishTimes): LoadResult {
  const sorted = [...t.times].sort((a, b) => a - b);
  const errors = t.times.length - (t.statusCodes["201"] ?? 0);
  const seconds = t.times.reduce((a, b) => a + b, 0) / 1000;
  return {
    rps: seconds > 0 ? t.times.length / seconds : 0,
    p50: median(t.times),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    requests: t.times.length,
    errors,
    socketErrors: 0,
    timeouts: 0,
    non2xx: errors,
    statusCodes: t.statusCodes,
    bytesPerSecond: 0,
    bytesPerResponse: 0,
    seconds,
    failures: t.failures,
  };
}

/**
 * Watches the crowd chapters' notifications being made (the site still running), up to `budgetMs`: done when the Job
 * table is empty. Reads the copy's database directly (SQLite in WAL mode allows a reader beside the site).
 */
export async function watchJobs(
  dataDir: string,
  databaseUrl: string | undefined,
  chapterIds: number[],
  expected: number,
  startedAt: number,
  budgetMs: number,
): Promise<JobProgress> {
  return withDatabase(dataDir, databaseUrl, async (db) => {
    const deadline = performance.now() + budgetMs;
    for (;;) {
      const made = chapterIds.length
        ? Number(
            (
              await db.kysely
                .selectFrom("Notification")
                .select((eb) => eb.fn.countAll<number>().as("n"))
                .where("chapterId", "in", chapterIds)
                .executeTakeFirstOrThrow()
            ).n,
          )
        : 0;
      const jobsLeft = Number(
        (
          await db.kysely
            .selectFrom("Job")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const done = jobsLeft === 0;
      if (done || performance.now() >= deadline) return { expected, made, jobsLeft, seconds: (performance.now() - startedAt) / 1000, done };
      await sleep(250);
    }
  });
}
