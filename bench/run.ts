// `npm run bench`: prepares the data sets, measures the baselines, the API reads and web pages (as a
// guest and signed in) on the large set as deployed, the same API reads on the large and the small set
// with both caches off (the growth curve), the mixed load on a copy of the large set, the page weight,
// then writes bench/results/<timestamp>.json/.md and prints the Markdown table.
// `npm run bench -- --smoke`: tiny data sets and short runs, no targets (CI).
// `npm run bench -- --engine postgres` (or BENCH_ENGINE=postgres): the same on PostgreSQL + Redis + S3 (postgres.ts).
// `npm run bench -- --only first-views`: the baselines and the first views only (first-views.ts).
// `npm run bench -- --only api-reads`: the baselines and the cached API reads only.
// `npm run bench -- --only digests`: the digest run for the crowd series' followers against requests (digests.ts).
// Orchestration only: see README.md in this folder for what each file does.
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import {
  elapsedSeconds,
  FULL_SETTINGS,
  log,
  ROOT,
  SMOKE_SETTINGS,
  type LoadResult,
  type LoadSettings,
  type ScenarioResult,
} from "./common.ts";
import { acquireRunLock, copyDataset, ensureDataset, FULL_DATASETS, removeDir, SMOKE_DATASETS, type Dataset } from "./datasets.ts";
import { LoadRunner, type LoadRequest } from "./load.ts";
import { checkCounters, countPosts, prepareMixed } from "./mixed.ts";
import { pageWeights } from "./page-weight.ts";
import { FIRST_VIEW_USERS, firstViewUsers, signInSessions, WARMUP_SESSION_SHARE } from "./first-views.ts";
import { governanceReads, governanceTokens, NO_GOVERNANCE, pickGovernance, type GovernancePicks } from "./governance.ts";
import { asLoadResult, mean, median, preparePublish, publishChapters, watchJobs, type JobProgress } from "./publish.ts";
import { prepareDigestData, queueDigestRun, watchDigestRun, type DigestsSummary } from "./digests.ts";
import { startPostgresRun, type BenchEngine, type PostgresRun, type SiteData } from "./postgres.ts";
import { evaluateTargets, meanOfRuns, toMarkdown, writeReport, type BenchReport } from "./report.ts";
import {
  apiReads,
  apiToken,
  BENCH_USER,
  BIG_HUB_NAME,
  firstViewPages,
  MIXED_ID,
  pickFromData,
  pickSignedIn,
  probePage,
  PUBLISH_IDS,
  RENDERED_WEB_PREFIX,
  SIGNED_IN_WEB_PREFIX,
  signedInApiReads,
  signedInPages,
  SMALL_API_PREFIX,
  UNCACHED_API_PREFIX,
  webPages,
  webSessionCookie,
  type Picks,
  type ScenarioDef,
  type SignedInPicks,
} from "./scenarios.ts";
import {
  CACHES_OFF,
  ensureRemixMinimalBuild,
  setStopGrace,
  siteBuildState,
  startBaseline,
  startSite,
  stopAll,
  stopGraceSeconds,
  type BaselineKind,
  type Site,
} from "./servers.ts";

const USAGE = `Usage: npm run bench -- [--smoke] [--engine sqlite|postgres] [--only first-views|api-reads|digests] [--duration <s>] [--warmup <s>] [--connections <n>] [--mixed-duration <s>] [--first-view-sessions <n>]

  --smoke              tiny data sets, short runs, no targets (what CI runs)
  --engine <name>      sqlite (default: the data folder) or postgres (PostgreSQL + Redis + S3 started for the run,
                       the data sets copied in with copy-site); also BENCH_ENGINE
  --only first-views   the baselines (both rounds) and the first-views table only, on the large set (a few minutes)
  --only api-reads     the baselines (both rounds) and the API reads table only (response cache on), on the large set
  --only digests       the baselines and the digests table only: requests with and without a digest run, on a copy of the large set
  --duration <s>       measured seconds per scenario (default ${FULL_SETTINGS.duration}; smoke ${SMOKE_SETTINGS.duration})
  --warmup <s>         warm-up seconds before each measured run (default ${FULL_SETTINGS.warmup}; smoke ${SMOKE_SETTINGS.warmup})
  --connections <n>    concurrent connections (default ${FULL_SETTINGS.connections}; smoke ${SMOKE_SETTINGS.connections})
  --mixed-duration <s> seconds of the mixed read/write load (default ${FULL_SETTINGS.mixedDuration}; smoke ${SMOKE_SETTINGS.mixedDuration})
  --first-view-sessions <n>
                       sessions signed in for the first views, so at most n requests a row (default ${FULL_SETTINGS.firstViewSessions};
                       smoke ${SMOKE_SETTINGS.firstViewSessions}), plus 1 in ${WARMUP_SESSION_SHARE} more for the warm-up`;

type Only = "first-views" | "api-reads" | "digests";

function parseArgs(argv: string[]): { smoke: boolean; engine: BenchEngine; only?: Only; settings: LoadSettings } {
  const smoke = argv.includes("--smoke");
  let engine = process.env.BENCH_ENGINE || "sqlite";
  let only: Only | undefined;
  const settings = { ...(smoke ? SMOKE_SETTINGS : FULL_SETTINGS) };
  const numbers: Record<string, keyof LoadSettings> = {
    "--duration": "duration",
    "--warmup": "warmup",
    "--connections": "connections",
    "--mixed-duration": "mixedDuration",
    "--first-view-sessions": "firstViewSessions",
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.includes("=") ? argv[i]!.split("=", 2) : [argv[i]!, undefined];
    if (flag === "--smoke") continue;
    if (flag === "--help" || flag === "-h") {
      console.log(USAGE);
      process.exit(0);
    }
    if (flag === "--engine") {
      engine = inline ?? argv[++i] ?? "";
      continue;
    }
    if (flag === "--only") {
      const what = inline ?? argv[++i] ?? "";
      if (what !== "first-views" && what !== "api-reads" && what !== "digests")
        throw new Error(`--only takes first-views, api-reads or digests, got "${what}"\n${USAGE}`);
      only = what;
      continue;
    }
    const key = numbers[flag];
    if (!key) throw new Error(`Unknown argument: ${argv[i]}\n${USAGE}`);
    const value = Number(inline ?? argv[++i]);
    const whole = key === "connections" || key === "firstViewSessions";
    if (!Number.isFinite(value) || value < 0 || (whole && (value < 1 || !Number.isInteger(value))))
      throw new Error(`${flag} needs a ${whole ? "whole number of at least 1" : "number"}`);
    settings[key] = value;
  }
  if (engine !== "sqlite" && engine !== "postgres") throw new Error(`--engine must be sqlite or postgres, got "${engine}"`);
  return { smoke, engine, only, settings };
}

const { smoke, engine, only, settings } = parseArgs(process.argv.slice(2));
const mode = smoke ? "smoke" : "full";
const startedAt = new Date();
const loadavgStart = os.loadavg();
const scenarios: BenchReport["scenarios"] = [];
const problems: string[] = [];
const cacheChecks: BenchReport["cacheChecks"] = [];
const sites: BenchReport["sites"] = [];
const timings: Record<string, number> = {};
const runner = new LoadRunner(settings);
/** Publishing: thrown-away warm-up rounds, measured rounds (one chapter per series each), the pause between requests, and how long the notification jobs are watched. */
const PUBLISH_ROUNDS = {
  full: { warmup: 1, measured: 10, pauseMs: 200, watchMs: 30_000 },
  smoke: { warmup: 1, measured: 2, pauseMs: 50, watchMs: 10_000 },
};
/** How long a digest run is watched after its measured load (it is not awaited past this). */
const DIGEST_WATCH_MS = { full: 5 * 60_000, smoke: 30_000 };
if (smoke) setStopGrace(3_000);

// Bounded in time as a whole, too: a hang anywhere ends the run instead of holding CI.
const LIMIT_S = smoke ? 6 * 60 : 50 * 60;
const watchdog = setTimeout(() => {
  log(`The run exceeded ${LIMIT_S / 60} minutes: stopping.`);
  void shutdown(2);
}, LIMIT_S * 1000);
watchdog.unref();

let postgres: PostgresRun | undefined;
let shuttingDown = false;
async function shutdown(code: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    runner.close();
    await stopAll();
    await postgres?.stop().catch((err: unknown) => log(`Stopping PostgreSQL, Redis and S3 failed: ${String(err)}`));
  }
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void shutdown(130));

let failedStages = 0;
async function stage<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
  const t = performance.now();
  try {
    return await fn();
  } catch (err) {
    failedStages++;
    const message = err instanceof Error ? err.message : String(err);
    log(`!! ${name} failed: ${message.split("\n")[0]}`);
    problems.push(`${name} failed: ${message.split("\n").slice(0, 6).join(" / ")}`);
    return undefined;
  } finally {
    timings[name] = (timings[name] ?? 0) + (performance.now() - t) / 1000;
  }
}

function printLine(id: string, r: LoadResult): void {
  const first = r.failures[0];
  log(
    `  ${id.padEnd(28)} ${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  errors ${r.errors}` +
      (first ? `  (first: ${first.op ? `${first.op} ` : ""}${first.status} ${first.body.replace(/\s+/g, " ").slice(0, 100)})` : ""),
  );
}

async function measureScenario(
  def: ScenarioDef,
  base: string,
  dataset: string | undefined,
  request: Omit<LoadRequest, "url"> = {},
  /** Another load than the one request over and over (first views). */
  load: () => Promise<LoadResult> = () => runner.measure({ ...request, url: base + def.path }),
): Promise<ScenarioResult> {
  const meta = { id: def.id, group: def.group, title: def.title, dataset, method: request.method ?? "GET", path: def.path, note: def.note };
  try {
    const r = await load();
    printLine(def.id, r);
    // Nothing answered within the run and nothing failed either: every request was still waiting when it ended.
    if (r.requests === 0 && r.errors === 0)
      problems.push(
        `${def.id} (${def.path}): no answer within the ${settings.warmup + settings.duration} s of its run (every request still in flight).`,
      );
    if (r.errors > 0)
      problems.push(
        `${def.id} (${def.path}): ${r.errors} errors, status codes ${JSON.stringify(r.statusCodes)}${r.failures[0] ? `; first: ${r.failures[0].status} ${r.failures[0].body.slice(0, 120)}` : ""}`,
      );
    const result = { ...meta, ...r };
    scenarios.push(result);
    return result;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log(`  ${def.id.padEnd(28)} did not run: ${message}`);
    problems.push(`${def.id}: did not run: ${message}`);
    const failed = { ...meta, ...emptyResult(), failed: message };
    scenarios.push(failed);
    return failed;
  }
}

function emptyResult(): LoadResult {
  return {
    rps: 0,
    p50: 0,
    p90: 0,
    p99: 0,
    max: 0,
    requests: 0,
    errors: 0,
    socketErrors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCodes: {},
    bytesPerSecond: 0,
    bytesPerResponse: 0,
    seconds: 0,
    failures: [],
  };
}

/** Fails every scenario of `defs` that could not be measured (e.g. the sign-in before them failed). */
function markNotRun(defs: ScenarioDef[], dataset: string | undefined, message: string): void {
  for (const def of defs) {
    log(`  ${def.id.padEnd(28)} did not run: ${message}`);
    scenarios.push({
      id: def.id,
      group: def.group,
      title: def.title,
      dataset,
      method: "GET",
      path: def.path,
      note: def.note,
      ...emptyResult(),
      failed: message,
    });
  }
  problems.push(`${defs.map((d) => d.id).join(", ")}: did not run: ${message}`);
}

/** GETs a page before its load and records whether it took the expected path (page cache hit, or a fresh signed-in render). */
async function checkPage(
  id: string,
  webUrl: string,
  pagePath: string,
  expect: "hit" | "none",
  headers: Record<string, string> = {},
  signedIn = false,
): Promise<void> {
  try {
    const probe = await probePage(webUrl, pagePath, headers);
    const ok = probe.status === 200 && (probe.pageCache ?? "none") === expect && probe.signedIn === signedIn;
    const got = `${probe.status}, X-Page-Cache ${probe.pageCache ?? "none"}, ${probe.signedIn ? "signed-in header" : "guest header"}`;
    const expected = `200, X-Page-Cache ${expect}, ${signedIn ? "signed-in header" : "guest header"}`;
    cacheChecks.push({ id, path: pagePath, expected, got, ok });
    if (!ok) problems.push(`Cache check ${id} (${pagePath}): expected ${expected}, got ${got}.`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    cacheChecks.push({ id, path: pagePath, expected: expect, got: `failed: ${message}`, ok: false });
    problems.push(`Cache check ${id} (${pagePath}) failed: ${message}`);
  }
}

/** The pages signed in as the bench user (through the login form), each checked for the expected path first. */
async function measureSignedInPages(webUrl: string, dataset: string, defs: ScenarioDef[], expect: "hit" | "none"): Promise<void> {
  let cookie: string;
  try {
    cookie = await webSessionCookie(webUrl, BENCH_USER);
  } catch (err) {
    markNotRun(defs, dataset, err instanceof Error ? err.message : String(err));
    return;
  }
  const headers = { cookie };
  for (const def of defs) {
    await checkPage(def.id, webUrl, def.path, expect, headers, true);
    await measureScenario(def, webUrl, dataset, { headers });
  }
}

/** The bench user's own reads (notifications, feed) with its API token; marked not run when the sign-in fails. */
async function measureSignedInReads(
  apiUrl: string,
  dataset: string,
  prefix: string,
  group: "uncached" | "growth",
  keep: (picks: SignedInPicks) => void,
): Promise<void> {
  let token: string;
  let user: SignedInPicks;
  try {
    token = await apiToken(apiUrl, BENCH_USER);
    user = await pickSignedIn(apiUrl, token);
  } catch (err) {
    markNotRun(
      signedInApiReads({ notifications: 0, feedItems: 0 }, prefix, group),
      dataset,
      err instanceof Error ? err.message : String(err),
    );
    return;
  }
  keep(user);
  log(`Signed in as "${BENCH_USER.username}" (API token): ${user.notifications} notifications, ${user.feedItems} feed items...`);
  for (const def of signedInApiReads(user, prefix, group))
    await measureScenario(def, apiUrl, dataset, { headers: { authorization: `Bearer ${token}` } });
}

/**
 * The governance lists (governance.ts): the mod logs, the report queues, the bans, the blocks and a blocker's lists, each
 * read by its reader (a guest, or the seed's admin, moderator or blocker with an API token); marked not run when the
 * sign-ins or the picks fail.
 */
async function measureGovernanceReads(
  apiUrl: string,
  dataset: string,
  p: Picks,
  prefix: string,
  group: "uncached" | "growth",
  keep: (picks: GovernancePicks) => void,
): Promise<void> {
  let tokens: Awaited<ReturnType<typeof governanceTokens>>;
  let g: GovernancePicks;
  try {
    tokens = await governanceTokens(apiUrl, BENCH_USER.password);
    g = await pickGovernance(apiUrl, p, tokens);
  } catch (err) {
    markNotRun(governanceReads(p, NO_GOVERNANCE, prefix, group), dataset, err instanceof Error ? err.message : String(err));
    return;
  }
  keep(g);
  log(
    `Governance lists: mod log ${g.hubModLog} in the big hub, ${g.siteModLog} on the site; open reports ${g.adminReports} (admin), ${g.moderatorReports} (moderator); ${g.bans} bans; ${g.blocks} blocks (the blocker's lists hide ${g.blockerPosts.hidden} posts, ${g.blockerComments.hidden} comments)...`,
  );
  for (const def of governanceReads(p, g, prefix, group)) {
    const headers: Record<string, string> = def.reader === "guest" ? {} : { authorization: `Bearer ${tokens[def.reader]}` };
    await measureScenario(def, apiUrl, dataset, { headers });
  }
}

/**
 * First views (first-views.ts): sessions of seeded accounts signed in through the login form, a few at a time and
 * timed; then each page is opened once by each measured session (after a warm-up of other sessions), every answer
 * checked for a page-cache hit and the signed-in header.
 */
async function measureFirstViews(site: Site, dataset: string, p: Picks): Promise<void> {
  const defs = firstViewPages(p);
  const sessions = settings.firstViewSessions;
  const warmupSessions = settings.warmup > 0 ? Math.max(settings.connections, Math.ceil(sessions / WARMUP_SESSION_SHARE)) : 0;
  let cookies: string[];
  try {
    const users = await firstViewUsers(site.apiUrl, p, Math.min(FIRST_VIEW_USERS, sessions + warmupSessions));
    log(
      `First views: signing in ${sessions} + ${warmupSessions} (warm-up) sessions of ${users.names.length} seeded accounts (${Object.entries(
        users.kinds,
      )
        .map(([kind, n]) => `${n} ${kind}`)
        .join(", ")}) through the login form...`,
    );
    const signIns = await signInSessions(site.webUrl, users.names, sessions + warmupSessions);
    cookies = signIns.cookies;
    log(
      `  ${cookies.length} sign-ins of ${signIns.users} accounts in ${signIns.seconds.toFixed(1)} s, ${signIns.concurrency} at a time (${(cookies.length / signIns.seconds).toFixed(1)} a second)` +
        (signIns.failed.length > 0 ? `; ${signIns.failed.length} accounts could not sign in (${signIns.failed[0]!.message})` : ""),
    );
    firstViews = {
      users: signIns.users,
      kinds: users.kinds,
      sessions,
      warmupSessions,
      signIns: cookies.length,
      signInSeconds: signIns.seconds,
      concurrency: signIns.concurrency,
      failed: signIns.failed.map((f) => f.username),
    };
    if (signIns.failed.length > 0)
      problems.push(`First views: ${signIns.failed.length} seeded accounts could not sign in; first: ${signIns.failed[0]!.message}`);
  } catch (err) {
    markNotRun(defs, dataset, err instanceof Error ? err.message : String(err));
    return;
  }
  // The warm-up's sessions first, then the measured ones: each session opens each page once in all.
  const warmup = cookies.slice(0, warmupSessions);
  const measured = cookies.slice(warmupSessions);
  for (const def of defs) {
    const pairs = (list: string[]) => list.map((cookie) => ({ path: def.path, cookie }));
    const r = await measureScenario(def, site.webUrl, dataset, {}, () =>
      runner.measureFirstViews(site.webUrl, { warmup: pairs(warmup), measured: pairs(measured) }),
    );
    const a = r.answers;
    if (!a) continue;
    const headers = Object.entries(a.pageCache).map(([value, n]) => `${value} ${n}`);
    const after = a.poolExhausted ? `, ${a.poolExhausted} requests after` : "";
    const got = `${a.checked} answers: X-Page-Cache ${headers.join(", ")}; ${a.signedIn} with the signed-in header; ${a.pairsUsed} of ${measured.length} sessions${after}`;
    const expected = "every measured answer: no X-Page-Cache hit, the signed-in header, each session once";
    const ok = a.checked > 0 && !a.pageCache.hit && a.signedIn === a.checked && a.poolExhausted === 0;
    cacheChecks.push({ id: def.id, path: def.path, expected, got, ok });
    log(`    ${got}`);
    if (!ok) problems.push(`Cache check ${def.id} (${def.path}): expected ${expected}, got ${got}.`);
  }
}

const BASELINES: { kind: BaselineKind; title: string }[] = [
  { kind: "node-http", title: "node:http JSON handler" },
  { kind: "express-hello", title: "Express 5 hello-world JSON" },
  { kind: "remix-minimal", title: "minimal Remix page" },
];
const baselineRuns = new Map<string, LoadResult[]>();

async function measureBaselines(round: number): Promise<void> {
  for (const b of BASELINES) {
    const id = `baseline.${b.kind}`;
    await stage(`baselines`, async () => {
      const server = await startBaseline(b.kind);
      try {
        const r = await runner.measure({ url: server.url });
        printLine(`${id} #${round}`, r);
        baselineRuns.set(id, [...(baselineRuns.get(id) ?? []), r]);
      } finally {
        await server.stop();
      }
    });
  }
}

/**
 * The image read's second yardstick: Express sending as many bytes as the picked image's answer (as the load asks for
 * it), measured once, right after the API reads. A baseline row (`baseline.express-bytes`) without a target.
 */
async function measureImageSizedBaseline(apiUrl: string, p: Picks): Promise<void> {
  await stage("baselines", async () => {
    const image = await fetch(`${apiUrl}/images/${p.imageId}?w=800`, { headers: { "accept-encoding": "gzip" } });
    if (!image.ok) throw new Error(`GET /images/${p.imageId}?w=800: ${image.status}`);
    const size = (await image.arrayBuffer()).byteLength;
    const server = await startBaseline("express-bytes", { BODY_BYTES: String(size) });
    try {
      const r = await runner.measure({ url: server.url });
      printLine("baseline.express-bytes", r);
      const title = `Express 5 sending ${size.toLocaleString("en-US")} bytes (the image read's answer)`;
      scenarios.push({ id: "baseline.express-bytes", group: "baseline", title, method: "GET", path: "/", note: `${size} bytes`, ...r });
    } finally {
      await server.stop();
    }
  });
}

/** Where a site on a data set keeps its data on this run's engine: the set's folder, or its copy in PostgreSQL + S3. */
function siteData(dataset: Dataset, label: string): SiteData {
  return postgres ? postgres.site(dataset, label) : { dataDir: dataset.dir, env: {} };
}

/** Runs `fn` with the site started on its data (with `extraEnv`, e.g. the caches off), and always stops it. */
async function withSite<T>(data: SiteData, label: string, extraEnv: Record<string, string>, fn: (site: Site) => Promise<T>): Promise<T> {
  const site = await startSite(data.dataDir, label, { ...data.env, ...extraEnv });
  const shownEnv = data.env.DATABASE_URL
    ? { DATABASE_URL: data.env.DATABASE_URL, REDIS_URL: data.env.REDIS_URL!, S3_BUCKET: data.env.S3_BUCKET!, ...extraEnv }
    : extraEnv;
  sites.push({ label, dataDir: path.relative(ROOT, data.dataDir), env: shownEnv });
  try {
    return await fn(site);
  } finally {
    const t = performance.now();
    const graceful = await site.stop();
    const seconds = (performance.now() - t) / 1000;
    log(`Site (${label}) stopped in ${seconds.toFixed(1)} s${graceful ? "" : " (killed: it did not exit after SIGTERM)"}`);
    if (!graceful)
      problems.push(
        `The site (${label}) did not exit within ${stopGraceSeconds()} s of SIGTERM and was killed (its log: bench/.data/logs/site-${label}.log).`,
      );
  }
}

log(
  `Inkwell benchmark (${mode}${only ? `, only ${only}` : ""}, ${engine === "postgres" ? "PostgreSQL + Redis + S3" : "SQLite"}): ${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s per scenario, mixed load ${settings.mixedDuration} s.`,
);

// One run at a time in this checkout (shared data folders; and two loads on 2 cores spoil both).
// Waiting counts against the time limit above.
try {
  await acquireRunLock(smoke ? 4 * 60_000 : 20 * 60_000);
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  await shutdown(1);
}

// 1. Data sets (cached under bench/.data/) and builds.
const specs = smoke ? SMOKE_DATASETS : FULL_DATASETS;
const datasetTimeout = smoke ? 120_000 : 15 * 60_000;
const large = await stage("datasets", () => ensureDataset(specs.large, { timeoutMs: datasetTimeout }));
// `--only first-views` and `--only api-reads` need the large set alone.
const small = only ? undefined : await stage("datasets", () => ensureDataset(specs.small, { timeoutMs: datasetTimeout }));
if (engine === "postgres") {
  await stage("postgres", async () => {
    postgres = await startPostgresRun();
    for (const dataset of [large, small]) if (dataset) await postgres.prepare(dataset);
  });
  if (!postgres) await shutdown(1);
}
await stage("remix-minimal build", () => ensureRemixMinimalBuild());
const siteBuild = siteBuildState();
if (!siteBuild.present) log("No web build yet: the site's start script builds it (npm run build) on its first start.");
else if (siteBuild.staleSources.length > 0) {
  const msg = `The web build (${siteBuild.builtAt}) is older than ${siteBuild.staleSources.length} file(s) in app/ (e.g. ${siteBuild.staleSources.slice(0, 3).join(", ")}): pages are measured as built; run "npm run build" for the current code.`;
  log(msg);
  problems.push(msg);
}

// 2. Baselines, first round.
log("Baselines (round 1)...");
await measureBaselines(1);

// 3. The large set as deployed (both caches on): API reads, guests' pages, signed-in pages, page weight.
const picks: BenchReport["picks"] = {};
const pageWeight: BenchReport["pageWeight"] = [];
let pageWeightBaseline: BenchReport["pageWeightBaseline"];
let firstViews: BenchReport["firstViews"];
if (large && only === "first-views") {
  await stage("first views", () =>
    withSite(siteData(large, "large-first-views"), "large-first-views", {}, async (site) => {
      const p = (picks.large = await pickFromData(site.apiUrl));
      log(`Picked: big hub "${p.bigHub.name}", post ${p.postId}, series "${p.series.name}" chapter ${p.chapterNumber}`);
      await measureFirstViews(site, large.name, p);
    }),
  );
}
if (large && only === "api-reads") {
  await stage("api reads", () =>
    withSite(siteData(large, "large-api-reads"), "large-api-reads", {}, async (site) => {
      const p = (picks.large = await pickFromData(site.apiUrl));
      log(
        `Picked: big hub "${p.bigHub.name}", search "${p.search.term}", series "${p.series.name}" chapter ${p.chapterNumber}, image ${p.imageId}, post ${p.postId}`,
      );
      log("API reads (large set, response cache on: repeated reads are answered from memory)...");
      for (const def of apiReads(p)) await measureScenario(def, site.apiUrl, large.name);
      await measureImageSizedBaseline(site.apiUrl, p);
    }),
  );
}
if (large && !only) {
  await stage("large set", () =>
    withSite(siteData(large, "large"), "large", {}, async (site) => {
      const p = await pickFromData(site.apiUrl);
      picks.large = p;
      log(
        `Picked: big hub "${p.bigHub.name}" (${p.bigHub.postCount} posts, deep page ${p.deepPage}), search "${p.search.term}" (${p.search.hits} hits), series "${p.series.name}" chapter ${p.chapterNumber}, image ${p.imageId}, post ${p.postId}`,
      );
      log("API reads (large set, response cache on: repeated reads are answered from memory)...");
      for (const def of apiReads(p)) await measureScenario(def, site.apiUrl, large.name);
      await measureImageSizedBaseline(site.apiUrl, p);
      log("Web pages as a guest (large set, the page cache answers them)...");
      for (const def of webPages(p)) {
        await checkPage(def.id, site.webUrl, def.path, "hit");
        await measureScenario(def, site.webUrl, large.name);
      }
      log(`Web pages signed in as "${BENCH_USER.username}" (large set, the page cache keeps the session's own pages)...`);
      await measureSignedInPages(site.webUrl, large.name, signedInPages(p, SIGNED_IN_WEB_PREFIX, "web-signed-in"), "hit");
      const pages = Object.fromEntries(webPages(p).map((d) => [d.id.replace(/^web\./, ""), d.path]));
      const weights = await stage("page weight", () => pageWeights(path.join(ROOT, "build"), pages));
      if (weights) pageWeight.push(...weights);
      const [minimal] =
        (await stage("page weight", () =>
          pageWeights(path.join(ROOT, "bench/baselines/remix-minimal/build"), { "minimal Remix page": "/" }),
        )) ?? [];
      pageWeightBaseline = minimal;
      // Last on this site: hundreds of sessions fill the page cache (it drops the oldest pages past its size).
      log("Web pages signed in, first views (large set, as deployed: each session opens each page once)...");
      await measureFirstViews(site, large.name, p);
    }),
  );
}

// 3b. The signed-in pages with the page cache off (the API's response cache on, as deployed): what every navigation
// that the page cache cannot answer costs.
if (large && !only) {
  await stage("large set, page cache off", () =>
    withSite(siteData(large, "large-rendered"), "large-rendered", { PAGE_CACHE_ENTRIES: "0" }, async (site) => {
      const p = picks.large ?? (picks.large = await pickFromData(site.apiUrl));
      log(`Web pages signed in as "${BENCH_USER.username}" (large set, page cache off: rendered every time)...`);
      await measureSignedInPages(site.webUrl, large.name, signedInPages(p, RENDERED_WEB_PREFIX, "web-rendered"), "none");
    }),
  );
}

// 4. The large set again with both caches off: the same API reads measure the queries (uncached.api.*),
// the large end of the growth curve.
if (large && !only) {
  await stage("large set, caches off", () =>
    withSite(siteData(large, "large-uncached"), "large-uncached", CACHES_OFF, async (site) => {
      const p = picks.large ?? (picks.large = await pickFromData(site.apiUrl));
      await checkPage("uncached (page cache off)", site.webUrl, "/", "none");
      log("API reads (large set, both caches off)...");
      for (const def of apiReads(p, UNCACHED_API_PREFIX, "uncached")) await measureScenario(def, site.apiUrl, large.name);
      await measureSignedInReads(site.apiUrl, large.name, UNCACHED_API_PREFIX, "uncached", (u) => (picks.largeUser = u));
      await measureGovernanceReads(site.apiUrl, large.name, p, UNCACHED_API_PREFIX, "uncached", (g) => (picks.largeGovernance = g));
    }),
  );
}

// 5. The small set, both caches off: the same reads, for the growth curve.
if (small) {
  await stage("small set", () =>
    withSite(siteData(small, "small"), "small", CACHES_OFF, async (site) => {
      const p = await pickFromData(site.apiUrl, picks.large?.search.term);
      picks.small = p;
      log(
        `Growth: the same reads on the small set, both caches off (big hub ${p.bigHub.postCount} posts, search "${p.search.term}" ${p.search.hits} hits)...`,
      );
      for (const def of apiReads(p, SMALL_API_PREFIX, "growth")) await measureScenario(def, site.apiUrl, small.name);
      await measureSignedInReads(site.apiUrl, small.name, SMALL_API_PREFIX, "growth", (u) => (picks.smallUser = u));
      await measureGovernanceReads(site.apiUrl, small.name, p, SMALL_API_PREFIX, "growth", (g) => (picks.smallGovernance = g));
    }),
  );
}

// 6. Mixed load on a throw-away copy of the large set (the cached set keeps its seeded state).
let mixed: BenchReport["mixed"];
if (large && !only) {
  await stage("mixed load", async () => {
    const copyName = `${large.name}-mixed-copy`;
    const copy: SiteData = postgres ? await postgres.copyForWrites(large, copyName) : { dataDir: copyDataset(large, copyName), env: {} };
    const copyUrl = copy.env.DATABASE_URL;
    const mixedMeta = {
      id: MIXED_ID,
      group: "mixed" as const,
      title: "mixed: like/unlike, join/leave, new posts, reads",
      dataset: `${large.name} (copy)`,
      method: "mixed",
      path: "(several)",
    };
    try {
      const postsBefore = await countPosts(copy.dataDir, copyUrl);
      let postsCreated: number | undefined;
      let postsSent: number | undefined;
      await withSite(copy, "mixed", {}, async (site) => {
        const plan = await prepareMixed(site.apiUrl, {
          bigHubName: BIG_HUB_NAME,
          userCount: smoke ? 10 : 50,
          password: BENCH_USER.password,
        });
        mixed = {
          users: plan.users.length,
          plan: { weights: plan.weights, bigHub: plan.bigHub, posts: plan.postIds.length, hubs: plan.hubIds.length },
          postsBefore,
        };
        log(
          `Mixed load: ${plan.users.length} users signed in, ${plan.postIds.length} posts to like, ${plan.hubIds.length} hubs to join; ${settings.mixedDuration} s...`,
        );
        try {
          const r = await runner.measureMixed(site.apiUrl, plan);
          printLine(MIXED_ID, r);
          for (const [op, codes] of Object.entries(r.ops ?? {})) log(`    ${op.padEnd(7)} ${JSON.stringify(codes)}`);
          if (r.errors > 0) problems.push(`mixed: ${r.errors} errors ${JSON.stringify(r.ops)}; first: ${JSON.stringify(r.failures[0])}`);
          postsCreated = (r.ops?.post?.["201"] ?? 0) + (r.warmupOps?.post?.["201"] ?? 0);
          postsSent = (r.ops?.post?.sent ?? 0) + (r.warmupOps?.post?.sent ?? 0);
          scenarios.push({ ...mixedMeta, ...r });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          scenarios.push({ ...mixedMeta, ...emptyResult(), failed: message });
          throw err;
        }
      });
      // The site is stopped: read the database directly.
      const counters = await checkCounters(copy.dataDir, copyUrl);
      log(
        `Counters after the mixed load: ${counters.total === 0 ? "every counter equals its rows" : `${counters.total} mismatches ${JSON.stringify(counters.mismatches)}`}; posts ${postsBefore} -> ${counters.posts} (${postsCreated ?? "?"} answered 201, ${postsSent ?? "?"} sent)`,
      );
      if (mixed) Object.assign(mixed, { counters, postsCreated, postsSent });
    } catch (err) {
      if (mixed) mixed.error = err instanceof Error ? err.message : String(err);
      if (!scenarios.some((x) => x.id === MIXED_ID))
        scenarios.push({ ...mixedMeta, ...emptyResult(), failed: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      if (postgres) await postgres.drop(copyName);
      else removeDir(copy.dataDir);
    }
  });
}

// 7. Publishing chapters on another throw-away copy of the large set: to the crowd series (every user and reader
// follows it) and to the quiet one (no followers), alternating; the followers' notifications are a job after the request.
let publish: BenchReport["publish"];
if (large && !only) {
  await stage("publish", async () => {
    const copyName = `${large.name}-publish-copy`;
    const copy: SiteData = postgres ? await postgres.copyForWrites(large, copyName) : { dataDir: copyDataset(large, copyName), env: {} };
    const rounds = smoke ? PUBLISH_ROUNDS.smoke : PUBLISH_ROUNDS.full;
    const metaOf = (kind: "crowd" | "quiet", series: string, followers: number) => ({
      id: `publish.${kind}`,
      group: "publish" as const,
      title: `publish a chapter to "${series}" (${followers.toLocaleString("en-US")} followers)`,
      dataset: `${large.name} (copy)`,
      method: "POST",
      path: `/series/${encodeURIComponent(series)}/chapters`,
      note: `${followers} followers`,
    });
    try {
      await withSite(copy, "publish", {}, async (site) => {
        const targets = await preparePublish(site.apiUrl, BENCH_USER.password);
        log(
          `Publishing: ${targets.map((t) => `"${t.series}" (${t.followers} followers, by ${t.author})`).join(" and ")}, ${rounds.warmup} + ${rounds.measured} rounds...`,
        );
        let firstCrowdAt: number | undefined;
        const results = await publishChapters(site.apiUrl, targets, {
          rounds: rounds.measured,
          warmup: rounds.warmup,
          pauseMs: rounds.pauseMs,
          onFirstCrowd: () => (firstCrowdAt ??= performance.now()),
        });
        for (const [i, r] of results.entries()) {
          const t = targets[i]!;
          const result = { ...metaOf(t.kind, t.series, t.followers), ...asLoadResult(r) };
          printLine(result.id, result);
          if (result.errors > 0)
            problems.push(
              `${result.id}: ${result.errors} errors ${JSON.stringify(r.statusCodes)}; first: ${JSON.stringify(r.failures[0])}`,
            );
          scenarios.push(result);
        }
        const crowd = results.find((r) => r.kind === "crowd")!;
        const quiet = results.find((r) => r.kind === "quiet")!;
        const crowdTarget = targets.find((t) => t.kind === "crowd")!;
        publish = {
          rounds: rounds.measured,
          warmup: rounds.warmup,
          series: Object.fromEntries(targets.map((t) => [t.kind, { name: t.series, followers: t.followers, author: t.author }])),
          crowd: { meanMs: mean(crowd.times), medianMs: median(crowd.times) },
          quiet: { meanMs: mean(quiet.times), medianMs: median(quiet.times) },
        };
        log(
          `  crowd/quiet: median ${publish.crowd.medianMs.toFixed(1)} / ${publish.quiet.medianMs.toFixed(1)} ms, mean ${publish.crowd.meanMs.toFixed(1)} / ${publish.quiet.meanMs.toFixed(1)} ms`,
        );
        // The followers' notifications, made by the site's job runner after the requests: watched for a while, not awaited.
        const jobs: JobProgress = await watchJobs(
          copy.dataDir,
          copy.env.DATABASE_URL,
          crowd.chapterIds,
          crowd.chapterIds.length * crowdTarget.followers,
          firstCrowdAt ?? performance.now(),
          rounds.watchMs,
        );
        publish.jobs = jobs;
        log(
          `  notification jobs: ${jobs.made.toLocaleString("en-US")} of ${jobs.expected.toLocaleString("en-US")} made ${jobs.done ? "(all jobs done)" : `(${jobs.jobsLeft} jobs left)`} ${jobs.seconds.toFixed(1)} s after the first crowd publish`,
        );
      });
    } catch (err) {
      for (const id of PUBLISH_IDS)
        if (!scenarios.some((x) => x.id === id))
          scenarios.push({
            ...metaOf(id === "publish.crowd" ? "crowd" : "quiet", "?", 0),
            ...emptyResult(),
            failed: err instanceof Error ? err.message : String(err),
          });
      throw err;
    } finally {
      if (postgres) await postgres.drop(copyName);
      else removeDir(copy.dataDir);
    }
  });
}

// 7b. Digests (docs/api.md "Digests") on another throw-away copy of the large set: a cached API read and a signed-in
// page measured without a digest run, then each again while the job makes the crowd series' followers' digests.
let digests: DigestsSummary | undefined;
if (large && (!only || only === "digests")) {
  await stage("digests", async () => {
    const copyName = `${large.name}-digests-copy`;
    const copy: SiteData = postgres ? await postgres.copyForWrites(large, copyName) : { dataDir: copyDataset(large, copyName), env: {} };
    const databaseUrl = copy.env.DATABASE_URL;
    const defs = (state: "idle" | "during"): ScenarioDef[] => [
      {
        id: `digests.${state}.api`,
        group: "digests",
        title: `GET /series/top?per_page=10 (cached), ${state === "idle" ? "no digest run" : "during a digest run"}`,
        target: "api",
        path: "/series/top?per_page=10",
      },
      {
        id: `digests.${state}.page`,
        group: "digests",
        title: `page /feed signed in (page cache), ${state === "idle" ? "no digest run" : "during a digest run"}`,
        target: "web",
        path: "/feed",
      },
    ];
    try {
      const data = await prepareDigestData(copy.dataDir, databaseUrl);
      const summary: DigestsSummary = { ...data, runs: [] };
      digests = summary;
      log(
        `Digests: ${data.followers.toLocaleString("en-US")} followers of "${data.series}" verified, one unread chapter notification each...`,
      );
      await withSite(copy, "digests", {}, async (site) => {
        const cookie = await webSessionCookie(site.webUrl, BENCH_USER);
        const request = (def: ScenarioDef) => (def.target === "web" ? { headers: { cookie } } : {});
        const base = (def: ScenarioDef) => (def.target === "web" ? site.webUrl : site.apiUrl);
        await checkPage("digests.page", site.webUrl, "/feed", "hit", { cookie }, true);
        for (const def of defs("idle")) await measureScenario(def, base(def), `${large.name} (copy)`, request(def));
        for (const def of defs("during")) {
          const queuedAt = await queueDigestRun(copy.dataDir, databaseUrl, data.day);
          await measureScenario(def, base(def), `${large.name} (copy)`, request(def));
          const loadEndedAt = Date.now();
          const run = await watchDigestRun(
            copy.dataDir,
            databaseUrl,
            data.day,
            queuedAt,
            smoke ? DIGEST_WATCH_MS.smoke : DIGEST_WATCH_MS.full,
          );
          const during = def.id.replace(/^digests\.during\./, "");
          const coveredLoad = run.finishedAt === null || run.finishedAt >= loadEndedAt;
          summary.runs.push({ during, mails: run.mails, seconds: run.seconds, done: run.done, coveredLoad });
          log(
            `  digest run with the ${during} load: ${run.mails.toLocaleString("en-US")} mails in ${run.seconds.toFixed(1)} s${run.done ? "" : " (not done when the watch ended)"}${coveredLoad ? "" : " (it ended before the load did)"}`,
          );
        }
      });
    } catch (err) {
      markNotRun(
        [...defs("idle"), ...defs("during")].filter((d) => !scenarios.some((x) => x.id === d.id)),
        `${large.name} (copy)`,
        err instanceof Error ? err.message : String(err),
      );
      throw err;
    } finally {
      if (postgres) await postgres.drop(copyName);
      else removeDir(copy.dataDir);
    }
  });
}

// 8. Baselines again (full mode): their mean over both rounds is what ratios use.
if (!smoke) {
  log("Baselines (round 2)...");
  await measureBaselines(2);
}
const baselineResults: BenchReport["scenarios"] = BASELINES.map((b) => {
  const id = `baseline.${b.kind}`;
  const runs = baselineRuns.get(id) ?? [];
  const meta = { id, group: "baseline" as const, title: b.title, method: "GET", path: "/" };
  return runs.length === 0 ? { ...meta, ...emptyResult(), failed: "the baseline did not start" } : { ...meta, ...meanOfRuns(runs), runs };
});
scenarios.unshift(...baselineResults);
for (const b of baselineResults) {
  const rates = (b.runs ?? []).map((r) => r.rps);
  if (rates.length < 2) continue;
  const spread = (Math.max(...rates) - Math.min(...rates)) / Math.max(...rates);
  // Both rounds should agree on a quiet machine; when they do not, every ratio to this baseline is uncertain.
  if (spread > 0.25)
    problems.push(
      `Noisy machine: ${b.title} measured ${rates.map((r) => Math.round(r)).join(" and ")} req/s in its two rounds (${Math.round(spread * 100)} % apart); ratios to it are uncertain.`,
    );
}
runner.close();

// 9. Report.
let commit: string | undefined;
try {
  commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
} catch {
  // not a git checkout
}
const datasets: BenchReport["datasets"] = {};
for (const d of [large, small].filter((x): x is Dataset => !!x))
  datasets[d.name] = { counts: { ...d.counts }, dir: path.relative(ROOT, d.dir), built: d.built, seedSeconds: d.seedSeconds };
const finishedAt = new Date();
const draft: Omit<BenchReport, "targets"> = {
  mode,
  ...(only ? { only } : {}),
  engine,
  copies: postgres?.copies,
  startedAt: startedAt.toISOString(),
  finishedAt: finishedAt.toISOString(),
  seconds: elapsedSeconds(),
  machine: {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "?",
    loadavgStart,
    loadavgEnd: os.loadavg(),
  },
  commit,
  settings,
  datasets,
  siteBuild,
  picks,
  sites,
  scenarios,
  cacheChecks,
  mixed,
  publish,
  digests,
  firstViews,
  pageWeight,
  pageWeightBaseline,
  problems,
  timings,
};
const report: BenchReport = { ...draft, targets: smoke ? [] : evaluateTargets(draft) };
const markdown = toMarkdown(report);
const files = writeReport(report, markdown);
console.log(`\n${markdown}`);
log(`Results: ${path.relative(ROOT, files.json)} and ${path.relative(ROOT, files.md)} (${Math.round(elapsedSeconds())} s in all)`);

// Exit 1 when something did not run (a stage failed, a scenario could not be measured); missed
// targets are results, not failures. Smoke mode also guards against rot: every scenario answered
// and without errors.
const notRun = scenarios.filter((s) => s.failed);
if (failedStages > 0 || notRun.length > 0) {
  log(
    `Incomplete run: ${failedStages} stage(s) failed${notRun.length ? `; not measured: ${notRun.map((s) => s.id).join(", ")}` : ""} (see "Problems seen").`,
  );
  await shutdown(1);
}
const broken = scenarios.filter((s) => s.rps <= 0 || s.errors > 0);
if (smoke && broken.length > 0) {
  log(`Smoke run failed: no answers or errors in ${broken.map((s) => s.id).join(", ")}`);
  await shutdown(1);
}
await shutdown(0);
