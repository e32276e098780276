// The benchmark's smoke mode, so that `npm run bench` cannot rot: tiny data sets, about a second per
// scenario, no targets. It must exit 0 and write a JSON result with every scenario present, answering
// (non-zero throughput) and without errors, on both engines: SQLite, and PostgreSQL + Redis + S3 (issue 12).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SMOKE_DATASETS } from "../../bench/datasets.ts";
import type { BenchEngine as Engine } from "../../bench/postgres.ts";
import type { BenchReport } from "../../bench/report.ts";
import { allScenarioIds } from "../../bench/scenarios.ts";

const root = path.resolve(import.meta.dirname, "../..");
const resultsDir = path.join(root, "bench/results");
// PostgreSQL's run also starts the services and copies both data sets in (about 3.5 minutes on a busy machine).
const TIMEOUT_MS = 8 * 60_000;

function runSmoke(engine: Engine): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout ends npm and everything the benchmark started.
    const child = spawn("npm", ["run", "bench", "--", "--smoke", "--engine", engine], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, TIMEOUT_MS - 10_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function newestSmokeResult(since: number): string | undefined {
  if (!fs.existsSync(resultsDir)) return undefined;
  return fs
    .readdirSync(resultsDir)
    .filter((f) => f.endsWith("-smoke.json"))
    .map((f) => path.join(resultsDir, f))
    .filter((f) => fs.statSync(f).mtimeMs >= since)
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

describe("npm run bench -- --smoke", () => {
  it.each<Engine>(["sqlite", "postgres"])(
    "exits 0 and writes every scenario with throughput and no errors (--engine %s)",
    async (engine) => {
      const started = Date.now();
      const { code, output } = await runSmoke(engine);
      expect(code, output.slice(-4000)).toBe(0);

      const file = newestSmokeResult(started);
      expect(file, "a bench/results/*-smoke.json written by this run").toBeDefined();
      const report = JSON.parse(fs.readFileSync(file!, "utf8")) as BenchReport;
      expect(report.mode).toBe("smoke");
      expect(report.engine).toBe(engine);
      expect(report.targets).toEqual([]);
      expect(fs.existsSync(file!.replace(/\.json$/, ".md"))).toBe(true);

      const byId = new Map(report.scenarios.map((s) => [s.id, s]));
      for (const id of allScenarioIds()) {
        const s = byId.get(id);
        expect(s, `scenario ${id} in the result`).toBeDefined();
        expect(s!.failed, `${id} ran`).toBeUndefined();
        expect(s!.rps, `${id} req/s`).toBeGreaterThan(0);
        expect(s!.errors, `${id} errors: ${JSON.stringify(s!.statusCodes)} ${JSON.stringify(s!.failures[0] ?? "")}`).toBe(0);
      }
      // The mixed load left every counter equal to its rows.
      expect(report.mixed?.counters?.total).toBe(0);
      // The big post's comments, demo's notifications and feed were there to read; the published chapters'
      // notifications were all made by the job runner after the requests.
      expect(report.picks.large?.comments.topLevel).toBe(SMOKE_DATASETS.large.counts.bigPostComments);
      expect(report.picks.largeUser?.notifications).toBeGreaterThan(0);
      expect(report.picks.smallUser?.feedItems).toBeGreaterThan(0);
      expect(report.picks.smallUser?.inProgress).toBeGreaterThan(0);
      expect(report.publish?.jobs).toMatchObject({ done: true });
      expect(report.publish?.jobs?.made).toBe(report.publish?.jobs?.expected);
      expect(report.publish?.jobs?.expected).toBeGreaterThan(0);
      // Page weight was read from the build for every page.
      expect(report.pageWeight.map((w) => w.page).sort()).toEqual(["chapter", "home", "hub", "hubs", "post", "series"]);
      for (const w of report.pageWeight) expect(w.js.gzip, `${w.page} JS`).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
