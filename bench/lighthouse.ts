// `npm run bench:lighthouse`: Lighthouse (mobile profile, its default simulated throttling) on the seven
// pages of issue 16, against the site in production mode on a fresh data folder with the demo content.
// One Chrome (Debian's Chromium, CHROME_PATH), one page at a time; prints a Markdown table and writes
// bench/results/<timestamp>-lighthouse.md/.json. Exit 1 only when something could not run, not for a
// missed target. Needs a quiet machine: run it under `flock /tmp/inkwell-quiet.lock`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { log, RESULTS_DIR } from "./common.ts";
import { webSessionCookie } from "./scenarios.ts";
import { startSite, stopAll } from "./servers.ts";

/** The issue's targets: scores out of 100, LCP and TBT in milliseconds, CLS unitless. */
const TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 2500, cls: 0.05, tbtMs: 150 };

/**
 * Measured runs per page. Lighthouse simulates a phone from one real load on this machine, so the same page moves a
 * few points from run to run (its own advice: several runs, and their median); `LIGHTHOUSE_RUNS` to change.
 */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5));

/** `LIGHTHOUSE_PAGES=home,chapter`: only the pages whose name contains one of these words (all when unset). */
const ONLY = (process.env.LIGHTHOUSE_PAGES ?? "")
  .split(",")
  .map((w) => w.trim())
  .filter(Boolean);

const DEMO_USER = { username: "demo", password: "lighthouse-demo-password" };

interface PageToAudit {
  page: string;
  path: string;
  signedIn?: boolean;
}

interface PageResult extends PageToAudit {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  /** First contentful paint as simulated, and both paints as observed unthrottled (the simulation starts from them). */
  fcpMs: number;
  observed: { fcpMs: number; lcpMs: number };
  cls: number;
  tbtMs: number;
  /** The element Lighthouse reports as the largest contentful paint (its selector or snippet). */
  lcpElement?: string;
  /** Audits of the four categories that did not pass (id: title), to see what to fix. */
  failing: string[];
  /**
   * The main thread's long tasks as simulated (Lighthouse's `long-tasks` audit: 50 ms or more, 4x their length here),
   * longest first, with the script they are attributed to and where their time went: what TBT counts.
   */
  longTasks: LongTask[];
  missed: string[];
}

interface LongTask {
  url: string;
  startMs: number;
  durationMs: number;
  /** Time by Lighthouse's task group (scriptEvaluation, styleLayout, …), in ms. */
  groups: Record<string, number>;
}

interface Page<T> {
  content: T[];
}

const enc = encodeURIComponent;

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/** A hub with posts, its newest post, the most followed series with chapters and its first chapter, from the API. */
async function pickPages(apiUrl: string): Promise<PageToAudit[]> {
  const hubs = await getJson<Page<{ name: string; postCount: number }>>(`${apiUrl}/hubs/top?per_page=10`);
  const hub = hubs.content.find((h) => h.postCount > 0);
  if (!hub) throw new Error("No hub with posts among the top 10");
  const posts = await getJson<Page<{ id: number }>>(`${apiUrl}/hubs/${enc(hub.name)}/posts/latest?page=1&size=10`);
  const postId = posts.content[0]?.id;
  if (!postId) throw new Error(`Hub "${hub.name}" lists no posts`);
  const top = await getJson<Page<{ name: string; chapterCount: number }>>(`${apiUrl}/series/top?per_page=10`);
  const series = top.content.find((s) => s.chapterCount > 0);
  if (!series) throw new Error("No series with chapters among the top 10");
  const chapters = await getJson<Page<{ number: number }>>(`${apiUrl}/series/${enc(series.name)}/chapters`);
  const chapterNumber = chapters.content[0]?.number;
  if (chapterNumber === undefined) throw new Error(`Series "${series.name}" lists no chapters`);
  return [
    { page: "home", path: "/" },
    { page: "hubs", path: "/hubs" },
    { page: "a hub", path: `/hubs/${enc(hub.name)}` },
    { page: "a post", path: `/hubs/${enc(hub.name)}/${postId}` },
    { page: "a series", path: `/series/${enc(series.name)}` },
    { page: "a chapter", path: `/series/${enc(series.name)}/${chapterNumber}` },
    { page: "the feed (signed in)", path: "/feed", signedIn: true },
  ];
}

function score(category: { score: number | null } | undefined): number {
  return Math.round((category?.score ?? 0) * 100);
}

/** One Lighthouse run; a run that failed to record (e.g. NO_NAVSTART, a trace without its navigation) once more. */
async function runLighthouse(port: number, url: string, cookie: string | undefined, attempts = 2) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const error = result.lhr.runtimeError;
    if (!error) return result.lhr;
    if (attempt >= attempts) throw new Error(`Lighthouse on ${url}: ${error.code} ${error.message}`);
    log(`  ${error.code}: running it again`);
  }
}

/** The `long-tasks` audit's debug data: each task's script as an index into `urls`, its times and its groups' times. */
interface LongTaskDebug {
  urls: string[];
  tasks: ({ urlIndex: number; startTime: number; duration: number } & Record<string, number>)[];
}

async function audit(port: number, url: string, target: PageToAudit, cookie?: string): Promise<PageResult> {
  const lhr = await runLighthouse(port, url, cookie);
  if (!lhr.finalDisplayedUrl.startsWith(url))
    throw new Error(`Lighthouse on ${url} ended on ${lhr.finalDisplayedUrl} (a redirect: signed out?)`);
  const c = lhr.categories;
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const lcpItems = (
    lhr.audits["largest-contentful-paint-element"]?.details as {
      items?: { items?: { node?: { selector?: string; snippet?: string } }[] }[];
    }
  )?.items?.[0]?.items?.[0]?.node;
  const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0];
  const failing = Object.values(c).flatMap((cat) =>
    cat.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative")
      .map((a) => `${a!.id} (${cat.id}, score ${a!.score}): ${a!.displayValue ?? a!.title}`),
  );
  const longTasks = (lhr.audits["long-tasks"]?.details as { debugData?: LongTaskDebug } | undefined)?.debugData;
  const r: PageResult = {
    ...target,
    performance: score(c.performance),
    accessibility: score(c.accessibility),
    bestPractices: score(c["best-practices"]),
    seo: score(c.seo),
    lcpMs: metric("largest-contentful-paint"),
    fcpMs: metric("first-contentful-paint"),
    observed: {
      fcpMs: observed?.observedFirstContentfulPaint ?? Number.NaN,
      lcpMs: observed?.observedLargestContentfulPaint ?? Number.NaN,
    },
    cls: metric("cumulative-layout-shift"),
    tbtMs: metric("total-blocking-time"),
    lcpElement: lcpItems?.selector ?? lcpItems?.snippet,
    failing,
    longTasks: (longTasks?.tasks ?? []).map(({ urlIndex, startTime, duration, ...groups }) => ({
      url: longTasks?.urls[urlIndex] ?? "?",
      startMs: startTime,
      durationMs: duration,
      groups,
    })),
    missed: [],
  };
  r.missed = missedTargets(r);
  return r;
}

type Metric = "performance" | "accessibility" | "bestPractices" | "seo" | "lcpMs" | "cls" | "tbtMs";
type Metrics = Record<Metric, number>;
const METRICS: Metric[] = ["performance", "accessibility", "bestPractices", "seo", "lcpMs", "cls", "tbtMs"];

function missedTargets(m: Metrics): string[] {
  const missed: string[] = [];
  if (m.performance < TARGETS.performance) missed.push("performance");
  if (m.accessibility < TARGETS.accessibility) missed.push("accessibility");
  if (m.bestPractices < TARGETS.bestPractices) missed.push("best practices");
  if (m.seo < TARGETS.seo) missed.push("SEO");
  if (!(m.lcpMs <= TARGETS.lcpMs)) missed.push("LCP");
  if (!(m.cls <= TARGETS.cls)) missed.push("CLS");
  if (!(m.tbtMs <= TARGETS.tbtMs)) missed.push("TBT");
  return missed;
}

/** A page's measured runs, each metric's median over them, and the targets the medians missed. */
interface PageSummary extends PageToAudit {
  median: Metrics;
  missed: string[];
  /** How many of the runs missed some target. */
  runsMissing: number;
  runs: PageResult[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summarize(target: PageToAudit, runs: PageResult[]): PageSummary {
  const m = Object.fromEntries(METRICS.map((k) => [k, median(runs.map((r) => r[k]))])) as Metrics;
  return { ...target, median: m, missed: missedTargets(m), runsMissing: runs.filter((r) => r.missed.length > 0).length, runs };
}

/** A median, with the runs' range when they differ: "97 (95–100)". */
function cell(p: PageSummary, k: Metric, show: (v: number) => string): string {
  const values = p.runs.map((r) => r[k]);
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  return show(lo) === show(hi) ? show(p.median[k]) : `${show(p.median[k])} (${show(lo)}–${show(hi)})`;
}

/** "212 ms at 2.1 s, shared-x.js (scriptEvaluation 150, other 40, …)". */
function longTaskLine(t: LongTask): string {
  const groups = Object.entries(t.groups)
    .filter(([, ms]) => ms >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([group, ms]) => `${group} ${Math.round(ms)}`);
  const file = t.url.split("/").pop() || t.url;
  return `${Math.round(t.durationMs)} ms at ${(t.startMs / 1000).toFixed(1)} s, ${file} (${groups.join(", ")})`;
}

function toMarkdown(pages: PageSummary[], meta: { date: string; chrome: string; lighthouse: string; runs: number }): string {
  const t = TARGETS;
  const score = (v: number) => String(v);
  const seconds = (v: number) => `${(v / 1000).toFixed(1)} s`;
  const lines = [
    `# Lighthouse, mobile (${meta.date})`,
    "",
    `Lighthouse ${meta.lighthouse}, ${meta.chrome}, mobile profile with its default (simulated) throttling, the site in production mode with the demo content. Targets: performance ≥ ${t.performance}, accessibility ${t.accessibility}, best practices ${t.bestPractices}, SEO ${t.seo}; LCP ≤ ${t.lcpMs / 1000} s, CLS ≤ ${t.cls}, TBT ≤ ${t.tbtMs} ms.`,
    "",
    `Each page ${meta.runs} times after an unmeasured first visit: the median of each number, the range of the runs in brackets; "targets" judges the medians, and counts the runs that missed one.`,
    "",
    "| page | performance | accessibility | best practices | SEO | LCP | CLS | TBT | targets |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...pages.map((p) => {
      const verdict = p.missed.length === 0 ? "met" : `missed: ${p.missed.join(", ")}`;
      const runs = p.runsMissing === 0 ? "" : ` (${p.runsMissing} of ${p.runs.length} runs missed one)`;
      return `| ${p.page} (\`${decodeURIComponent(p.path)}\`) | ${cell(p, "performance", score)} | ${cell(p, "accessibility", score)} | ${cell(p, "bestPractices", score)} | ${cell(p, "seo", score)} | ${cell(p, "lcpMs", seconds)} | ${cell(p, "cls", (v) => v.toFixed(3))} | ${cell(p, "tbtMs", (v) => `${Math.round(v)} ms`)} | ${verdict}${runs} |`;
    }),
    "",
  ];
  lines.push("## Per page and run: the LCP element, the targets missed and the audits below 0.9", "");
  for (const p of pages) {
    lines.push(`- **${p.page}**: LCP element \`${p.runs[0]?.lcpElement ?? "?"}\``);
    for (const [i, r] of p.runs.entries()) {
      const missed = r.missed.length === 0 ? "" : `, missed ${r.missed.join(", ")}`;
      lines.push(`  - run ${i + 1}: performance ${r.performance}, LCP ${seconds(r.lcpMs)}, TBT ${Math.round(r.tbtMs)} ms${missed}`);
      for (const f of r.failing) lines.push(`    - ${f}`);
      for (const t of r.longTasks) lines.push(`    - long task: ${longTaskLine(t)}`);
    }
  }
  lines.push("");
  return lines.join("\n");
}

async function main(): Promise<void> {
  const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-lighthouse-"));
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    const site = await startSite(dataDir, "lighthouse", { SEED_DEMO: "true", DEMO_PASSWORD: DEMO_USER.password });
    const pages = (await pickPages(site.apiUrl)).filter((p) => ONLY.length === 0 || ONLY.some((w) => p.page.includes(w)));
    const cookie = await webSessionCookie(site.webUrl, DEMO_USER);
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ["--headless=new", "--no-sandbox"] });
    const version = (await getJson<{ Browser: string }>(`http://127.0.0.1:${chrome.port}/json/version`)).Browser;
    const lighthouseVersion = (
      JSON.parse(fs.readFileSync(new URL("../node_modules/lighthouse/package.json", import.meta.url), "utf8")) as { version: string }
    ).version;

    const pagesMeasured: PageSummary[] = [];
    for (const p of pages) {
      log(`Lighthouse: ${p.page} ${p.path}`);
      // Once unmeasured, as the page's first visitor: the API's and the page cache are warm and the image
      // renditions made (kept on disk after their first request), as on a deployed site. The browser's
      // cache is cleared before each run either way.
      await audit(chrome.port, site.webUrl + p.path, p, p.signedIn ? cookie : undefined);
      const runs: PageResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(chrome.port, site.webUrl + p.path, p, p.signedIn ? cookie : undefined));
      pagesMeasured.push(summarize(p, runs));
    }

    const date = new Date().toISOString();
    const markdown = toMarkdown(pagesMeasured, { date, chrome: version, lighthouse: lighthouseVersion, runs: RUNS });
    const stamp = date.replace(/[:.]/g, "-");
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const base = path.join(RESULTS_DIR, `${stamp}-lighthouse`);
    fs.writeFileSync(`${base}.md`, markdown);
    fs.writeFileSync(
      `${base}.json`,
      JSON.stringify({ date, chrome: version, lighthouse: lighthouseVersion, targets: TARGETS, runs: RUNS, pages: pagesMeasured }, null, 2),
    );
    console.log(`\n${markdown}`);
    log(`Written ${path.relative(process.cwd(), base)}.md/.json`);
  } finally {
    chrome?.kill();
    await stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
