// Ratios to the baselines of the same run, pass/fail per target, the Markdown table, and the files in
// bench/results/<timestamp>.json and .md.
import fs from "node:fs";
import path from "node:path";
import { formatBytes, RESULTS_DIR, type LoadResult, type LoadSettings, type ScenarioResult } from "./common.ts";
import type { CounterCheck, MixedPlan } from "./mixed.ts";
import type { PageWeight } from "./page-weight.ts";
import type { JobProgress } from "./publish.ts";
import type { DigestsSummary } from "./digests.ts";
import type { GovernancePicks } from "./governance.ts";
import type { Picks, SignedInPicks } from "./scenarios.ts";

/** PostgreSQL: the uncached list reads, each at least this share of Express hello-world's throughput. */
const UNCACHED_LIST_RATIO = 0.15;
/** The API reads that answer a list (not the chapter, not the image bytes). */
const UNCACHED_LISTS = new Set([
  "hubs-newest",
  "hubs-top",
  "hubs-search",
  "hub-latest-p1",
  "hub-latest-deep",
  "hub-likes-p1",
  "hub-likes-deep",
  "series-top",
  "series-tag",
  "series-two-tags",
  "series-tag-rating",
  "series-updated",
  "series-chapters",
  "post-comments-p1",
  "post-comments-deep",
]);
/** Publishing to the crowd series at most this many times as long as to the quiet one (medians). */
const PUBLISH_RATIO = 1.2;

/** Requests during a digest run (docs/api.md "Digests"): p99 at most this many times the p99 without one, plus the slack. */
export const DIGEST_P99_RATIO = 1.5;
/** autocannon's resolution is 1 ms: a 1 ms p99 becoming 2 ms is no change worth a miss. */
export const DIGEST_P99_SLACK_MS = 2;

/** Issue 16: guests' pages (the page cache) at least this many times the minimal Remix page's throughput. */
export const GUEST_PAGE_RATIO = 2;
/** Signed-in pages and the API reads: at least this share of their baseline's throughput. */
const RPS_RATIO = 0.5;

/** At most this much gzipped JavaScript on any page (100 KB, 1 KB = 1,000 bytes). */
export const JS_BUDGET_GZIP = 100_000;

export interface TargetResult {
  id: string;
  group: "api" | "uncached" | "web" | "web-signed-in" | "web-first-view" | "growth" | "mixed" | "publish" | "digests" | "page-weight";
  description: string;
  /** What was measured, in words (e.g. "0.62 × Express"). */
  measured: string;
  pass: boolean;
  ratio?: number;
  note?: string;
}

export interface MixedSummary {
  users: number;
  plan: Pick<MixedPlan, "weights" | "bigHub"> & { posts: number; hubs: number };
  counters?: CounterCheck;
  postsBefore?: number;
  /** 201s of POST /hub-posts (warm-up and measured run). */
  postsCreated?: number;
  /** POST /hub-posts built (an upper bound: the run can end with some in flight). */
  postsSent?: number;
  error?: string;
}

/** Chapters published one at a time on a copy of the large set, to the crowd series and to the quiet one, alternating. */
export interface PublishSummary {
  rounds: number;
  warmup: number;
  series: Record<string, { name: string; followers: number; author: string }>;
  crowd: { meanMs: number; medianMs: number };
  quiet: { meanMs: number; medianMs: number };
  /** The crowd chapters' notifications, made by the job runner after the requests, as far as they got while watched. */
  jobs?: JobProgress;
}

/** How the first views' sessions were made (first-views.ts). */
export interface FirstViewSummary {
  /** Distinct seeded accounts, and how many of each kind. */
  users: number;
  kinds: Record<string, number>;
  /** Measured sessions (each opens each page once: at most this many requests a row) and the warm-up's own. */
  sessions: number;
  warmupSessions: number;
  /** Every sign-in through the login form, `concurrency` at a time. */
  signIns: number;
  signInSeconds: number;
  concurrency: number;
  /** Accounts that could not sign in (left out). */
  failed: string[];
}

export interface BenchReport {
  mode: "full" | "smoke";
  /** `--only first-views` / `--only api-reads`: the baselines and the first views, or the cached API reads, only. */
  only?: "first-views" | "api-reads" | "digests";
  /** sqlite: the data folder; postgres: PostgreSQL + Redis + S3, the data sets copied in (bench/postgres.ts). */
  engine: "sqlite" | "postgres";
  /** PostgreSQL only: each data set's copy (npm run copy-site's code). */
  copies?: Record<string, { seconds: number; rows: number; images: number }>;
  startedAt: string;
  finishedAt: string;
  seconds: number;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; loadavgStart: number[]; loadavgEnd: number[] };
  commit?: string;
  settings: LoadSettings;
  datasets: Record<string, { counts: Record<string, number>; dir: string; built: boolean; seedSeconds: number }>;
  siteBuild: { present: boolean; builtAt?: string; staleSources: string[] };
  picks: {
    large?: Picks;
    small?: Picks;
    largeUser?: SignedInPicks;
    smallUser?: SignedInPicks;
    /** The governance lists' sizes (governance.ts). */
    largeGovernance?: GovernancePicks;
    smallGovernance?: GovernancePicks;
  };
  /** Every start of the site: its label, data folder and the environment added to the benchmark's own (e.g. the caches off). */
  sites: { label: string; dataDir: string; env: Record<string, string> }[];
  /** Pages fetched before their load: did they take the path the scenario is about (page cache hit, fresh signed-in render, cache off)? */
  cacheChecks: { id: string; path: string; expected: string; got: string; ok: boolean }[];
  /** Every scenario once; baselines measured more than once carry the mean and their `runs`. */
  scenarios: (ScenarioResult & { runs?: LoadResult[]; failed?: string })[];
  mixed?: MixedSummary;
  publish?: PublishSummary;
  digests?: DigestsSummary;
  firstViews?: FirstViewSummary;
  pageWeight: PageWeight[];
  pageWeightBaseline?: PageWeight;
  targets: TargetResult[];
  problems: string[];
  timings: Record<string, number>;
}

type Scenario = BenchReport["scenarios"][number];

const r2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "-");
/** Target values: three decimals, so a ratio just under a limit does not print as the limit. */
const r3 = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : "-");
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-");
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : Math.round(n).toString()) : "-");
const mark = (pass: boolean) => (pass ? "✅ met" : "❌ missed");

/** The mean of several runs of one baseline: throughput and latencies averaged, errors added. */
export function meanOfRuns(runs: LoadResult[]): LoadResult {
  const avg = (f: (r: LoadResult) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
  const first = runs[0]!;
  return {
    ...first,
    rps: avg((r) => r.rps),
    p50: avg((r) => r.p50),
    p90: avg((r) => r.p90),
    p99: avg((r) => r.p99),
    max: Math.max(...runs.map((r) => r.max)),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    socketErrors: runs.reduce((a, r) => a + r.socketErrors, 0),
    timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    bytesPerSecond: avg((r) => r.bytesPerSecond),
    seconds: runs.reduce((a, r) => a + r.seconds, 0),
    failures: runs.flatMap((r) => r.failures).slice(0, 5),
  };
}

/** A first-view row whose measured answers were not all signed-in renders (a page-cache hit, a guest's page, a pair reused). */
export function notFirstViews(s: Scenario): string | undefined {
  const a = s.answers;
  if (!a || s.failed) return undefined;
  const wrong = [
    a.pageCache.hit ? `${a.pageCache.hit} page-cache hits` : "",
    a.signedIn < a.checked ? `${a.checked - a.signedIn} answers without the signed-in header` : "",
    a.poolExhausted > 0 ? `${a.poolExhausted} requests after every session had opened the page` : "",
  ].filter(Boolean);
  return wrong.length > 0 ? `not first views: ${wrong.join(", ")}` : undefined;
}

function errorNote(s: Scenario): string | undefined {
  if (s.failed) return `did not run: ${s.failed.split("\n")[0]}`;
  if (s.errors === 0) return undefined;
  const codes = Object.entries(s.statusCodes)
    .filter(([c]) => !c.startsWith("2"))
    .map(([c, n]) => `${n}× ${c}`)
    .join(", ");
  const socket = s.socketErrors > 0 ? `${s.socketErrors} socket errors/timeouts` : "";
  return `errors: ${[codes, socket].filter(Boolean).join(", ")}`;
}

/** Evaluates the issue's targets against the baselines of the same run. */
export function evaluateTargets(report: Omit<BenchReport, "targets">): TargetResult[] {
  const byId = new Map(report.scenarios.map((s) => [s.id, s]));
  const express = byId.get("baseline.express-hello");
  const remix = byId.get("baseline.remix-minimal");
  const targets: TargetResult[] = [];
  const usable = (s?: Scenario): s is Scenario => !!s && !s.failed && s.rps > 0;

  // Throughput against the baseline of the same kind: req/s >= min x the baseline's.
  const rpsTarget = (
    s: Scenario,
    group: "api" | "web" | "web-signed-in" | "web-first-view",
    baseline: Scenario | undefined,
    baselineName: string,
    min = RPS_RATIO,
    extraNote?: string,
  ) => {
    const note = [errorNote(s), extraNote].filter(Boolean).join("; ") || undefined;
    const id = `${s.id}.rps`;
    const description = `${s.title}: req/s ≥ ${min} × ${baselineName}`;
    if (!usable(s) || !usable(baseline)) {
      targets.push({ id, group, description, measured: "-", pass: false, note: note ?? "no baseline" });
      return;
    }
    const ratio = s.rps / baseline.rps;
    targets.push({ id, group, description, measured: `${r3(ratio)} × ${baselineName}`, ratio, pass: ratio >= min && !note, note });
  };

  // Tail latency against the same baseline: p99 under 4 × its p99 (the API's issue), or at most 4 × (issue 16's).
  const p99Target = (
    s: Scenario,
    group: "api" | "web-signed-in" | "web-first-view",
    baseline: Scenario | undefined,
    baselineName: string,
    atMost: boolean,
    extraNote?: string,
  ) => {
    if (!usable(s) || !usable(baseline)) return;
    const note = [errorNote(s), extraNote].filter(Boolean).join("; ") || undefined;
    const p99 = baseline.p99 > 0 ? s.p99 / baseline.p99 : Infinity;
    const title = group === "web-signed-in" ? `${s.title} signed in` : s.title;
    targets.push({
      id: `${s.id}.p99`,
      group,
      description: `${title}: p99 ${atMost ? "≤" : "<"} 4 × ${baselineName} p99`,
      measured: `${r3(p99)} × ${baselineName} p99`,
      ratio: p99,
      pass: (atMost ? p99 <= 4 : p99 < 4) && !note,
      note,
    });
  };

  for (const s of report.scenarios.filter((x) => x.group === "api")) {
    rpsTarget(s, "api", express, "Express");
    p99Target(s, "api", express, "Express", false);
  }

  // Issue 16: "Guest pages stay ≥ 2 × the minimal Remix page".
  for (const s of report.scenarios.filter((x) => x.group === "web")) rpsTarget(s, "web", remix, "minimal Remix", GUEST_PAGE_RATIO);

  // Issue 16: signed-in pages at least half the minimal Remix page's throughput, and p99 ≤ 4 × its p99.
  for (const s of report.scenarios.filter((x) => x.group === "web-signed-in")) {
    rpsTarget(s, "web-signed-in", remix, "minimal Remix");
    p99Target(s, "web-signed-in", remix, "minimal Remix", true);
  }

  // Issue 29: the same targets for first views (no kept page answers); a row whose answers were not all signed-in
  // renders measured something else, and misses them.
  for (const s of report.scenarios.filter((x) => x.group === "web-first-view")) {
    rpsTarget(s, "web-first-view", remix, "minimal Remix", RPS_RATIO, notFirstViews(s));
    p99Target(s, "web-first-view", remix, "minimal Remix", true, notFirstViews(s));
  }
  // Digests: each request during a run as fast as without one, the run covering the load and making every digest.
  for (const kind of ["api", "page"] as const) {
    const idle = byId.get(`digests.idle.${kind}`);
    const during = byId.get(`digests.during.${kind}`);
    if (!idle && !during) continue;
    const run = report.digests?.runs.find((r) => r.during === kind);
    const followers = report.digests?.followers ?? 0;
    const description = `${kind === "api" ? "a cached API read" : "a signed-in page"}'s p99 during a digest run for ${int(followers)} followers ≤ ${DIGEST_P99_RATIO} × its p99 without one + ${DIGEST_P99_SLACK_MS} ms; the run made every digest and lasted through the load`;
    const note =
      [idle, during]
        .map((s) => s && errorNote(s))
        .filter(Boolean)
        .join("; ") ||
      (!run
        ? "no digest run"
        : !run.done
          ? "the run did not finish within the watch"
          : run.mails < followers
            ? `the run made ${int(run.mails)} digests of ${int(followers)}`
            : !run.coveredLoad
              ? "the run ended before the measured load did"
              : undefined);
    if (!usable(idle) || !usable(during)) {
      targets.push({ id: `digests.${kind}`, group: "digests", description, measured: "-", pass: false, note: note ?? "not measured" });
      continue;
    }
    const limit = DIGEST_P99_RATIO * idle.p99 + DIGEST_P99_SLACK_MS;
    targets.push({
      id: `digests.${kind}`,
      group: "digests",
      description,
      measured: `p99 ${ms(during.p99)} vs ${ms(idle.p99)} ms (limit ${ms(limit)})`,
      ratio: idle.p99 > 0 ? during.p99 / idle.p99 : undefined,
      pass: during.p99 <= limit && !note,
      note,
    });
  }
  // `--only first-views` measured nothing else: the other targets are not evaluated.
  if (report.only === "first-views") return targets.filter((t) => t.group === "web-first-view");
  if (report.only === "api-reads") return targets.filter((t) => t.group === "api");
  if (report.only === "digests") return targets.filter((t) => t.group === "digests");

  // PostgreSQL (issue 12): the lists' queries, run on every request (caches off), at least 0.15 × Express.
  if (report.engine === "postgres") {
    for (const s of report.scenarios.filter((x) => x.group === "uncached" && UNCACHED_LISTS.has(x.id.replace(/^uncached\.api\./, "")))) {
      const note = errorNote(s);
      const id = `${s.id}.rps`;
      const description = `${s.title}, caches off: req/s ≥ ${UNCACHED_LIST_RATIO} × Express`;
      if (!usable(s) || !usable(express)) {
        targets.push({ id, group: "uncached", description, measured: "-", pass: false, note: note ?? "no baseline" });
        continue;
      }
      const ratio = s.rps / express.rps;
      targets.push({
        id,
        group: "uncached",
        description,
        measured: `${r3(ratio)} × Express`,
        ratio,
        pass: ratio >= UNCACHED_LIST_RATIO && !note,
        note,
      });
    }
  }

  // Growth: "no slower than k times" = the time per request (1 / req/s at the same concurrency) grows at most k times.
  const growth = (id: string, description: string, fastId: string, slowId: string, limit: number) => {
    const fast = byId.get(fastId);
    const slow = byId.get(slowId);
    const note =
      [fast, slow]
        .map((s) => s && errorNote(s))
        .filter(Boolean)
        .join("; ") || undefined;
    if (!usable(fast) || !usable(slow)) {
      targets.push({ id, group: "growth", description, measured: "-", pass: false, note: note ?? "missing scenario" });
      return;
    }
    const ratio = fast.rps / slow.rps;
    targets.push({ id, group: "growth", description, measured: `${r3(ratio)} × slower`, ratio, pass: ratio <= limit && !note, note });
  };
  // Both ends without the caches (uncached.api.* on the large set, small.api.* on the small set): the
  // queries are measured, not the response cache, which answers a repeated read from memory at any size.
  growth(
    "growth.page1",
    "big hub latest page 1, caches off: 1,000,000 posts ≤ 1.5 × the time at 10,000",
    "small.api.hub-latest-p1",
    "uncached.api.hub-latest-p1",
    1.5,
  );
  const deep = report.picks.large?.deepPage ?? 10_000;
  growth(
    "growth.deep-page",
    `big hub latest page ${deep}, caches off: ≤ 3 × the time of its page 1`,
    "uncached.api.hub-latest-p1",
    "uncached.api.hub-latest-deep",
    3,
  );
  growth(
    "growth.search",
    "hub search, caches off: 100,000 names ≤ 3 × the time at 1,000",
    "small.api.hubs-search",
    "uncached.api.hubs-search",
    3,
  );
  // Comments: the same ratios as the post lists (the big post's top-level comments, top sort).
  growth(
    "growth.comments-page1",
    "big post's comments (top) page 1, caches off: 1M comments ≤ 1.5 × the time at 10,000",
    "small.api.post-comments-p1",
    "uncached.api.post-comments-p1",
    1.5,
  );
  growth(
    "growth.comments-deep-page",
    `big post's comments (top) page ${report.picks.large?.comments?.deepPage ?? "?"}, caches off: ≤ 3 × the time of its page 1`,
    "uncached.api.post-comments-p1",
    "uncached.api.post-comments-deep",
    3,
  );
  // The bench user's own pages: the same user shape in both sets, ~1M notification rows against ~10k.
  growth(
    "growth.notifications",
    "demo's notifications page 1, caches off: ~1M notification rows ≤ 1.5 × the time at ~10,000",
    "small.api.notifications-p1",
    "uncached.api.notifications-p1",
    1.5,
  );
  growth(
    "growth.feed",
    "demo's feed page 1 (500 series followed), caches off: the large set ≤ 1.5 × the time on the small set",
    "small.api.feed-p1",
    "uncached.api.feed-p1",
    1.5,
  );
  // Series browsing (docs/api.md "Series metadata and browsing"): 2,000 series against 600, each filter and the updated sort.
  for (const [scenario, what] of [
    ["series-tag", "series with one tag"],
    ["series-two-tags", "series with two tags"],
    ["series-tag-rating", "series with a tag and rating=teen"],
    ["series-updated", "series sort=updated"],
  ]) {
    growth(
      `growth.${scenario}`,
      `${what} page 1, caches off: the large set ≤ 1.5 × the time on the small set`,
      `small.api.${scenario}`,
      `uncached.api.${scenario}`,
      1.5,
    );
  }
  growth(
    "growth.progress",
    "demo's continue-reading list page 1 (500 series in progress), caches off: the large set ≤ 1.5 × the time on the small set",
    "small.api.progress-p1",
    "uncached.api.progress-p1",
    1.5,
  );

  const pub = report.publish;
  const crowd = byId.get("publish.crowd");
  const quiet = byId.get("publish.quiet");
  if (crowd || quiet || pub) {
    const note =
      [crowd, quiet]
        .map((s) => s && errorNote(s))
        .filter(Boolean)
        .join("; ") || undefined;
    const followers = pub?.series.crowd?.followers;
    const description = `publishing a chapter to a series with ${followers?.toLocaleString("en-US") ?? "many"} followers ≤ ${PUBLISH_RATIO} × to one with none (median request times)`;
    if (!pub || !usable(crowd) || !usable(quiet) || pub.quiet.medianMs <= 0)
      targets.push({ id: "publish.ratio", group: "publish", description, measured: "-", pass: false, note: note ?? "not measured" });
    else {
      const ratio = pub.crowd.medianMs / pub.quiet.medianMs;
      targets.push({
        id: "publish.ratio",
        group: "publish",
        description,
        measured: `${r3(ratio)} × (${ms(pub.crowd.medianMs)} vs ${ms(pub.quiet.medianMs)} ms)`,
        ratio,
        pass: ratio <= PUBLISH_RATIO && !note,
        note,
      });
    }
  }

  const mixed = byId.get("mixed");
  if (mixed) {
    const m = report.mixed;
    targets.push({
      id: "mixed.errors",
      group: "mixed",
      description: "mixed load: zero errors",
      measured: mixed.failed ? "did not run" : `${mixed.errors} errors`,
      pass: !mixed.failed && mixed.errors === 0 && mixed.requests > 0,
      note: errorNote(mixed),
    });
    const c = m?.counters;
    targets.push({
      id: "mixed.counters",
      group: "mixed",
      description: "after the mixed load every counter equals its rows",
      measured: c ? `${c.total} mismatches` : "not checked",
      pass: !!c && c.total === 0,
      note: c && c.total > 0 ? JSON.stringify(c.mismatches) : m?.error,
    });
    if (c && m?.postsBefore !== undefined && m.postsCreated !== undefined) {
      const delta = c.posts - m.postsBefore;
      const sent = m.postsSent ?? m.postsCreated;
      targets.push({
        id: "mixed.posts",
        group: "mixed",
        description: "new post rows between the 201 answers and the posts sent (some can be in flight when a run ends)",
        measured: `${delta} new rows, ${m.postsCreated} × 201, ${sent} sent`,
        pass: delta >= m.postsCreated && delta <= sent,
      });
    }
  }

  for (const w of report.pageWeight) {
    const matched = w.routes.length > 1;
    targets.push({
      id: `page-weight.${w.page}`,
      group: "page-weight",
      description: `page ${w.page}: ≤ 100 KB gzipped JavaScript`,
      measured: formatBytes(w.js.gzip),
      ratio: w.js.gzip / JS_BUDGET_GZIP,
      pass: matched && w.js.gzip <= JS_BUDGET_GZIP,
      note: matched ? undefined : "no route in the web build matches this page (only root: a 404)",
    });
  }
  return targets;
}

/** The growth target of each small-set read that has one. */
const GROWTH_TARGET_OF: Record<string, string> = {
  "small.api.hub-latest-p1": "growth.page1",
  "small.api.hubs-search": "growth.search",
  "small.api.post-comments-p1": "growth.comments-page1",
  "small.api.notifications-p1": "growth.notifications",
  "small.api.feed-p1": "growth.feed",
  "small.api.progress-p1": "growth.progress",
};

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

export function toMarkdown(report: BenchReport): string {
  const byId = new Map(report.scenarios.map((s) => [s.id, s]));
  const targetsById = new Map(report.targets.map((t) => [t.id, t]));
  const express = byId.get("baseline.express-hello");
  const remix = byId.get("baseline.remix-minimal");
  const smoke = report.mode === "smoke";
  const cell = (id: string) => {
    const t = targetsById.get(id);
    return t ? mark(t.pass) : "";
  };
  const errCell = (s: Scenario) => (s.failed ? "did not run" : s.errors === 0 ? "0" : `**${s.errors}**`);
  /** A scenario's own cells: req/s, p50, p99, errors. */
  const measuredCells = (x: Scenario) => [int(x.rps), ms(x.p50), ms(x.p99), errCell(x)];
  /** `value / base` to two decimals, or "-" without a base to compare with. */
  const times = (value: number, base: number | undefined) => (base !== undefined && base > 0 ? r2(value / base) : "-");
  const out: string[] = [];
  const s = report.settings;
  const postgres = report.engine === "postgres";
  out.push(
    `# Inkwell benchmark, ${report.startedAt} (${report.mode}${report.only ? `, only ${report.only}` : ""}, ${postgres ? "PostgreSQL + Redis + S3" : "SQLite"})`,
  );
  out.push("");
  if (postgres)
    out.push(
      `The site on PostgreSQL 15, Redis 7 and an S3 bucket (Swift), started for the run by tests/services (fsync off), each data set copied from its SQLite folder by copy-site (${Object.entries(
        report.copies ?? {},
      )
        .map(([name, c]) => `${name}: ${c.rows.toLocaleString("en-US")} rows and ${c.images} images in ${c.seconds.toFixed(0)} s`)
        .join("; ")}).\n`,
    );
  out.push(
    `${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}, load average ${report.machine.loadavgStart.map((n) => n.toFixed(1)).join(" ")} at the start. ` +
      `autocannon from a separate process on 127.0.0.1: ${s.connections} connections, ${s.warmup} s warm-up + ${s.duration} s measured per scenario (mixed load ${s.mixedDuration} s). ` +
      `Whole run ${Math.round(report.seconds)} s${report.commit ? `, commit ${report.commit.slice(0, 10)}` : ""}.`,
  );
  out.push("");
  out.push(
    `Data: ${Object.entries(report.datasets)
      .map(
        ([name, d]) =>
          `**${name}** ${Object.entries(d.counts)
            .map(([k, v]) => `${k}=${v.toLocaleString("en-US")}`)
            .join(", ")} (${d.built ? `seeded now in ${d.seedSeconds.toFixed(0)} s` : "cached"})`,
      )
      .join("; ")}.`,
  );
  if (smoke) out.push("\nSmoke mode: tiny data sets and short runs; no targets are evaluated.");

  out.push("\n## Baselines\n");
  out.push(
    table(
      ["Baseline", "req/s", "p50 ms", "p99 ms", "errors", "runs (req/s)"],
      report.scenarios
        .filter((x) => x.group === "baseline")
        .map((b) => [b.title, ...measuredCells(b), (b.runs ?? [b]).map((r) => int(r.rps)).join(", ")]),
    ),
  );

  // `--only ...`: the baselines and what was asked for, no empty tables of what did not run.
  const all = !report.only;
  if (all || report.only === "api-reads") {
    out.push(
      `\n## API reads (large set, as deployed: response cache on)${smoke ? "" : ": target req/s ≥ 0.5 × Express hello-world, p99 < 4 × its p99"}\n`,
    );
    out.push(
      "The same URL over and over: after the first request the API answers from its response cache (docs/decisions/006-response-cache.md). The queries themselves are measured in the next table.\n",
    );
    out.push(
      table(
        ["Scenario", "req/s", "p50 ms", "p99 ms", "errors", "× Express req/s", "× Express p99", "req/s target", "p99 target"],
        report.scenarios
          .filter((x) => x.group === "api")
          .map((a) => [
            `${a.title}${a.note ? ` (${a.note})` : ""}`,
            ...measuredCells(a),
            times(a.rps, express?.rps),
            times(a.p99, express?.p99),
            cell(`${a.id}.rps`),
            cell(`${a.id}.p99`),
          ]),
      ),
    );
    const image = byId.get("api.image");
    const sized = byId.get("baseline.express-bytes");
    if (image && sized && sized.rps > 0)
      out.push(
        `\nThe image read against Express sending an answer of the same size (${sized.note ?? "?"}, measured right after it): ${int(sized.rps)} req/s, p99 ${ms(sized.p99)} ms; the image read is ${times(image.rps, sized.rps)} × its req/s and ${times(image.p99, sized.p99)} × its p99.`,
      );
  }
  if (all) {
    out.push(
      `\n## API reads without the response cache (large set, \`API_CACHE_ENTRIES=0 PAGE_CACHE_ENTRIES=0\`)${postgres && !smoke ? `: target for the lists req/s ≥ ${UNCACHED_LIST_RATIO} × Express hello-world` : ""}\n`,
    );
    out.push(
      `${postgres ? "Every request runs its queries." : "Informational (no target): every request runs its queries."} The image read still comes from the API's image bytes cache, which has no switch.\n`,
    );
    out.push(
      table(
        [
          "Scenario",
          "req/s",
          "p50 ms",
          "p99 ms",
          "errors",
          "× Express req/s",
          "× Express p99",
          "× cached req/s",
          ...(postgres ? ["target"] : []),
        ],
        report.scenarios
          .filter((x) => x.group === "uncached")
          .map((u) => {
            const cached = byId.get(u.id.replace(/^uncached\./, ""));
            return [
              `${u.title}${u.note ? ` (${u.note})` : ""}`,
              ...measuredCells(u),
              times(u.rps, express?.rps),
              times(u.p99, express?.p99),
              times(u.rps, cached?.rps),
              ...(postgres ? [cell(`${u.id}.rps`)] : []),
            ];
          }),
      ),
    );

    out.push(
      `\n## Web pages as a guest (large set, served by the page cache)${smoke ? "" : `: target req/s ≥ ${GUEST_PAGE_RATIO} × the minimal Remix page`}\n`,
    );
    out.push(
      table(
        ["Page", "req/s", "p50 ms", "p99 ms", "errors", "bytes/response (gzip)", "× minimal Remix", "target"],
        report.scenarios
          .filter((x) => x.group === "web")
          .map((w) => [w.title, ...measuredCells(w), formatBytes(w.bytesPerResponse), times(w.rps, remix?.rps), cell(`${w.id}.rps`)]),
      ),
    );

    out.push(
      `\n## Web pages signed in (large set, the session's own kept pages)${smoke ? "" : ": target req/s ≥ 0.5 × and p99 ≤ 4 × the minimal Remix page's"}\n`,
    );
    out.push(
      `The six pages and the feed and notifications with the session cookie of \`demo\`: the page cache keeps each session's own pages, checked against the data version the API answers to the user's token (docs/decisions/020-signed-in-page-cache.md).\n`,
    );
    out.push(
      table(
        ["Page", "req/s", "p50 ms", "p99 ms", "errors", "bytes/response (gzip)", "× minimal Remix", "× minimal Remix p99", "target"],
        report.scenarios
          .filter((x) => x.group === "web-signed-in")
          .map((w) => [
            w.title,
            ...measuredCells(w),
            formatBytes(w.bytesPerResponse),
            times(w.rps, remix?.rps),
            remix && remix.p99 > 0 ? r3(w.p99 / remix.p99) : "-",
            [cell(`${w.id}.rps`), cell(`${w.id}.p99`)].join(" "),
          ]),
      ),
    );

    out.push(`\n## Web pages signed in, page cache off (large set, rendered every time)\n`);
    out.push(
      `Informational (no target): the same pages on the site with \`PAGE_CACHE_ENTRIES=0\` (the API's response cache on): every request renders the page and calls the API with the user's token, as every navigation the page cache cannot answer does. The response cache serves the lists (the same for everyone), never an answer with the user's own state.\n`,
    );
    out.push(
      table(
        ["Page", "req/s", "p50 ms", "p99 ms", "errors", "bytes/response (gzip)", "× minimal Remix", "× kept page req/s"],
        report.scenarios
          .filter((x) => x.group === "web-rendered")
          .map((w) => {
            const kept = byId.get(w.id.replace(/^rendered\./, "signed-in."));
            return [w.title, ...measuredCells(w), formatBytes(w.bytesPerResponse), times(w.rps, remix?.rps), times(w.rps, kept?.rps)];
          }),
      ),
    );
  }

  const firstViews = report.scenarios.filter((x) => x.group === "web-first-view");
  if (firstViews.length > 0) {
    out.push(
      `\n## Web pages signed in, first views (large set, as deployed: no kept page can answer)${smoke ? "" : ": target req/s ≥ 0.5 × and p99 ≤ 4 × the minimal Remix page's"}\n`,
    );
    const f = report.firstViews;
    const kinds = f
      ? Object.entries(f.kinds)
          .map(([kind, n]) => `${n} ${kind}`)
          .join(", ")
      : "";
    out.push(
      (f
        ? `${int(f.sessions)} sessions of ${int(f.users)} seeded accounts (${kinds}), each signed in through the login form as a browser does (${int(f.signIns)} sign-ins, the warm-up's included, in ${f.signInSeconds.toFixed(1)} s, ${f.concurrency} at a time: ${(f.signIns / Math.max(0.001, f.signInSeconds)).toFixed(1)} a second, each a bcrypt comparison). `
        : "") +
        `The site runs as deployed (page cache on), but each session opens each of the eight pages once: no (session, page) pair is sent twice, so no page the cache keeps for a session can answer and every page is rendered and calls the API with the user's token, as a reader's first visit to a page does. A row ends after ${report.settings.duration} s or when every session has opened its page, whichever comes first (so at most ${f ? int(f.sessions) : "one per session"} requests: "requests"); before it, up to ${report.settings.warmup} s of the same page for ${f ? int(f.warmupSessions) : "other"} other sessions, thrown away. The load client reads every measured answer: "answers" gives their \`X-Page-Cache\` (never \`hit\`) and how many showed the signed-in header.\n`,
    );
    const answersCell = (w: Scenario) => {
      const a = w.answers;
      if (!a) return "-";
      const headers = Object.entries(a.pageCache)
        .map(([value, n]) => (value === "hit" ? `**${int(n)} hit**` : `${int(n)} ${value}`))
        .join(", ");
      const signedIn = a.signedIn === a.checked ? "all signed in" : `**${int(a.checked - a.signedIn)} not signed in**`;
      return `${headers || "none"}; ${signedIn}`;
    };
    out.push(
      table(
        [
          "Page",
          "req/s",
          "p50 ms",
          "p99 ms",
          "errors",
          "requests",
          "bytes/response (gzip)",
          "× minimal Remix",
          "× minimal Remix p99",
          "answers",
          "target",
        ],
        firstViews.map((w) => [
          w.title.replace(/, first view$/, ""),
          ...measuredCells(w),
          int(w.requests),
          formatBytes(w.bytesPerResponse),
          times(w.rps, remix?.rps),
          remix && remix.p99 > 0 ? r3(w.p99 / remix.p99) : "-",
          answersCell(w),
          [cell(`${w.id}.rps`), cell(`${w.id}.p99`)].join(" "),
        ]),
      ),
    );
  }

  if (report.cacheChecks.length > 0) {
    const bad = report.cacheChecks.filter((c) => !c.ok);
    out.push(
      `\nChecked: ${report.cacheChecks.length - bad.length} of ${report.cacheChecks.length} took the expected path (before each page's load, the second of two GETs: guest pages \`X-Page-Cache: hit\`; signed-in pages \`X-Page-Cache: hit\` and the signed-in header; with the page cache off no \`X-Page-Cache\`; first views: every measured answer, no \`X-Page-Cache: hit\` and the signed-in header).` +
        (bad.length > 0 ? ` Not as expected: ${bad.map((c) => `${c.id} (${c.got})`).join("; ")}.` : ""),
    );
  }

  if (all) {
    out.push("\n## Growth: the same reads on the small and the large set, both caches off\n");
    out.push(
      `Both sites run with \`API_CACHE_ENTRIES=0 PAGE_CACHE_ENTRIES=0\`. "× slower" is the time per request (1 / req/s at the same concurrency) on the large set over the small set. The notifications and the feed are the bench user's (\`demo\`, signed in with an API token: 500 series followed, as many notifications in both sets).${smoke ? "" : " Targets: page 1 ≤ 1.5 (posts, comments, notifications, feed), search ≤ 3; deep page ≤ 3 × page 1 (below)."}\n`,
    );
    const growthRows = report.scenarios
      .filter((x) => x.group === "growth")
      .map((small) => {
        const large = byId.get(small.id.replace(/^small\./, "uncached."));
        const target = GROWTH_TARGET_OF[small.id] ?? "";
        const label = large && large.title !== small.title ? `${small.title} (large: ${large.title.replace(/^.*, /, "")})` : small.title;
        return [
          `${label}${small.note ? ` (small: ${small.note})` : ""}`,
          int(small.rps),
          large ? int(large.rps) : "-",
          ms(small.p50),
          large ? ms(large.p50) : "-",
          large && large.rps > 0 && small.rps > 0 ? r2(small.rps / large.rps) : "-",
          errCell(small),
          target ? cell(target) : "",
        ];
      });
    out.push(
      table(["Read", "small req/s", "large req/s", "small p50 ms", "large p50 ms", "× slower", "errors (small)", "target"], growthRows),
    );
    const deep = targetsById.get("growth.deep-page");
    const p1 = byId.get("uncached.api.hub-latest-p1");
    const dp = byId.get("uncached.api.hub-latest-deep");
    if (p1 && dp) {
      out.push(
        `\nDeep page (large set, caches off): page ${report.picks.large?.deepPage ?? "?"} of the big hub's latest posts ${int(dp.rps)} req/s vs page 1 ${int(p1.rps)} req/s: ${times(p1.rps, dp.rps)} × slower${deep ? ` (target ≤ 3: ${mark(deep.pass)})` : ""}.`,
      );
    }

    const cp1 = byId.get("uncached.api.post-comments-p1");
    const cdp = byId.get("uncached.api.post-comments-deep");
    const cdeep = targetsById.get("growth.comments-deep-page");
    if (cp1 && cdp) {
      out.push(
        `\nDeep comment page (large set, caches off): page ${report.picks.large?.comments?.deepPage ?? "?"} of the big post's top-level comments (top sort) ${int(cdp.rps)} req/s vs page 1 ${int(cp1.rps)} req/s: ${times(cp1.rps, cdp.rps)} × slower${cdeep ? ` (target ≤ 3: ${mark(cdeep.pass)})` : ""}.`,
      );
    }
  }

  const mixed = byId.get("mixed");
  if (mixed) {
    out.push(
      `\n## Mixed load (on a copy of the large set)${smoke ? "" : ": target zero errors, every counter equals its rows afterwards"}\n`,
    );
    const m = report.mixed;
    out.push(
      table(
        ["req/s", "p50 ms", "p99 ms", "errors", "users", "counter mismatches", "new post rows / 201s / sent", "target"],
        [
          [
            int(mixed.rps),
            ms(mixed.p50),
            ms(mixed.p99),
            errCell(mixed),
            String(m?.users ?? "-"),
            m?.counters ? String(m.counters.total) : "not checked",
            m?.counters && m.postsBefore !== undefined
              ? `${m.counters.posts - m.postsBefore} / ${m.postsCreated ?? "-"} / ${m.postsSent ?? "-"}`
              : "-",
            smoke
              ? ""
              : ["mixed.errors", "mixed.counters", "mixed.posts"].map((id) => targetsById.get(id)).every((t) => t?.pass)
                ? mark(true)
                : mark(false),
          ],
        ],
      ),
    );
    if (mixed.ops) {
      out.push("");
      out.push(
        table(
          ["Operation", "answers", "status codes"],
          Object.entries(mixed.ops).map(([op, codes]) => {
            const answers = Object.entries(codes).filter(([c]) => c !== "sent");
            return [op, int(answers.reduce((a, [, n]) => a + n, 0)), answers.map(([c, n]) => `${c}: ${n}`).join(", ")];
          }),
        ),
      );
    }
    if (m?.error) out.push(`\nMixed load problem: ${m.error}`);
  }

  const pub = report.publish;
  const publishRows = report.scenarios.filter((x) => x.group === "publish");
  if (publishRows.length > 0) {
    out.push(
      `\n## Publishing a chapter (on a copy of the large set)${smoke ? "" : `: target the crowd series' median ≤ ${PUBLISH_RATIO} × the quiet one's`}\n`,
    );
    out.push(
      `The series' authors publish one chapter at a time (JSON with one uploaded 64 × 64 PNG page), alternating between the two series${pub ? `, ${pub.warmup} warm-up round(s) thrown away, then ${pub.rounds} measured` : ""}; the time of each request as the client sees it. The followers' notifications are a job the site runs after the answer (docs/decisions/017-discussion.md), so later requests of both kinds may share the machine with it.\n`,
    );
    const t = targetsById.get("publish.ratio");
    out.push(
      table(
        ["Series", "followers", "requests", "median ms", "mean ms", "max ms", "errors", "target"],
        publishRows.map((r) => {
          const kind = r.id.replace(/^publish\./, "") as "crowd" | "quiet";
          const summary = pub?.[kind];
          return [
            pub?.series[kind]?.name ?? r.title,
            int(pub?.series[kind]?.followers ?? Number.NaN),
            int(r.requests),
            summary ? ms(summary.medianMs) : "-",
            summary ? ms(summary.meanMs) : "-",
            ms(r.max),
            errCell(r),
            kind === "crowd" && t ? `${t.measured} ${mark(t.pass)}` : "",
          ];
        }),
      ),
    );
    if (pub && pub.quiet.meanMs > 0) out.push(`\nMeans: ${r2(pub.crowd.meanMs / pub.quiet.meanMs)} × (crowd over quiet).`);
    const j = pub?.jobs;
    if (j)
      out.push(
        `\nNotification jobs (after the requests): ${int(j.made)} of ${int(j.expected)} notifications made ${j.done ? "and every job done" : `(${j.jobsLeft} jobs still queued when the watch ended)`} ${j.seconds.toFixed(1)} s after the first crowd chapter was published${j.seconds > 0 ? ` (${int(j.made / j.seconds)} a second)` : ""}.`,
      );
  }

  const dg = report.digests;
  const digestRows = report.scenarios.filter((x) => x.group === "digests");
  if (digestRows.length > 0) {
    out.push(
      `\n## Requests during a digest run (on a copy of the large set)${smoke ? "" : `: target p99 ≤ ${DIGEST_P99_RATIO} × without a run + ${DIGEST_P99_SLACK_MS} ms`}\n`,
    );
    out.push(
      `${dg ? `The ${int(dg.followers)} followers of "${dg.series}" have a verified address and one unread chapter notification each. ` : ""}Each request is measured without a digest run, then again right after the day's "digests" job is queued (docs/api.md "Digests": the job runner of the site's one process makes the digests in batches of 50 accounts, pausing three times each batch's time, while it answers). The run's mail is dropped once it ends, not sent.\n`,
    );
    out.push(
      table(
        ["Request", "req/s idle", "p99 idle", "req/s during", "p99 during", "errors", "digests made", "run s", "target"],
        (["api", "page"] as const).flatMap((kind) => {
          const idle = digestRows.find((r) => r.id === `digests.idle.${kind}`);
          const during = digestRows.find((r) => r.id === `digests.during.${kind}`);
          if (!idle && !during) return [];
          const run = dg?.runs.find((r) => r.during === kind);
          const t = targetsById.get(`digests.${kind}`);
          return [
            [
              (during ?? idle)!.title.replace(/, (no digest run|during a digest run)$/, ""),
              idle ? int(idle.rps) : "-",
              idle ? ms(idle.p99) : "-",
              during ? int(during.rps) : "-",
              during ? ms(during.p99) : "-",
              [idle, during].map((x) => (x ? errCell(x) : "-")).join(" / "),
              run ? `${int(run.mails)}${run.done ? "" : " (not done)"}` : "-",
              run ? run.seconds.toFixed(1) : "-",
              t ? `${t.measured} ${mark(t.pass)}${t.note ? ` (${t.note})` : ""}` : "",
            ],
          ];
        }),
      ),
    );
  }

  const weights = [...report.pageWeight, ...(report.pageWeightBaseline ? [report.pageWeightBaseline] : [])];
  if (all) out.push(`\n## Page weight (from the build output, gzip)${smoke ? "" : ": target ≤ 100 KB of JavaScript per page"}\n`);
  if (all)
    out.push(
      table(
        ["Page", "routes", "JS files", "JS", "JS gzip", "CSS gzip", "target"],
        weights.map((w) => [
          w.page,
          w.routes.join(" › ") || "(none)",
          String(w.js.files.length),
          formatBytes(w.js.bytes),
          formatBytes(w.js.gzip),
          formatBytes(w.css.gzip),
          w === report.pageWeightBaseline ? "(baseline)" : cell(`page-weight.${w.page}`),
        ]),
      ),
    );

  if (!smoke) {
    const met = report.targets.filter((t) => t.pass).length;
    out.push(`\n## Targets: ${met} of ${report.targets.length} met\n`);
    const missed = report.targets.filter((t) => !t.pass);
    if (missed.length === 0) out.push("Every target met.");
    else
      out.push(
        table(
          ["Missed target", "measured", "note"],
          missed.map((t) => [t.description, t.measured, t.note ?? ""]),
        ),
      );
  }
  if (report.problems.length > 0) {
    out.push("\n## Problems seen\n");
    for (const p of report.problems) out.push(`- ${p}`);
  }
  out.push("");
  return out.join("\n");
}

/** Writes bench/results/<timestamp>.json and .md; returns their paths. */
export function writeReport(report: BenchReport, markdown: string): { json: string; md: string } {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, "-");
  const base = path.join(
    RESULTS_DIR,
    `${stamp}${report.engine === "postgres" ? "-postgres" : ""}${report.mode === "smoke" ? "-smoke" : ""}`,
  );
  fs.writeFileSync(`${base}.json`, JSON.stringify(report, null, 2));
  fs.writeFileSync(`${base}.md`, markdown);
  return { json: `${base}.json`, md: `${base}.md` };
}
