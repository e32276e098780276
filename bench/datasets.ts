// The benchmark's data folders under bench/.data/, built with the seed's --scale mode and kept between
// runs. A folder is keyed by its counts and by a hash of the seed code that writes it, so a change to
// either builds a new one (and removes the old one of the same name).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BENCHMARK_COUNTS, type ScaleCounts } from "../seed/scale-counts.ts";
import { DATA_ROOT, log, ROOT } from "./common.ts";
import { BENCH_USER } from "./scenarios.ts";

/** The counts a data set is named by; the seed picks the rest (likes, follows) from them. */
export type DatasetCounts = Pick<ScaleCounts, "users" | "hubs" | "posts" | "bigHubPosts" | "series" | "chapters"> &
  Required<Pick<ScaleCounts, "comments" | "bigPostComments" | "readers">>;

export interface DatasetSpec {
  /** "small" or "large". */
  name: string;
  counts: DatasetCounts;
}

export interface Dataset extends DatasetSpec {
  dir: string;
  /** Built by this run (false: taken from the cache). */
  built: boolean;
  /** Seconds the seed took (this run, or when it was cached). */
  seedSeconds: number;
}

/**
 * The sizes: 10k users, 100k hubs (most empty), 1M posts with 200k in "Ink & Brushes", 2k series, 50k chapters,
 * 1M comments (10k top-level on the big hub's newest post), and 90,001 readers so that one series has 100k followers.
 */
export const LARGE: DatasetCounts = BENCHMARK_COUNTS;
/**
 * The growth curve's other end: 10k posts and 1,000 hub names (search at 1,000 names), 10k comments (1,000 on the big
 * post). 600 series, so that the bench user follows 500 here too and its feed reads as many sources in both sets.
 */
export const SMALL: DatasetCounts = {
  users: 1_000,
  hubs: 1_000,
  posts: 10_000,
  bigHubPosts: 2_000,
  series: 600,
  chapters: 5_000,
  comments: 10_000,
  bigPostComments: 1_000,
  readers: 0,
};

export const FULL_DATASETS: { small: DatasetSpec; large: DatasetSpec } = {
  small: { name: "small", counts: SMALL },
  large: { name: "large", counts: LARGE },
};

/** --smoke: tiny sets, a couple of seconds each to seed (series by two or three artists, so that demo follows others' series). */
export const SMOKE_DATASETS: { small: DatasetSpec; large: DatasetSpec } = {
  small: {
    name: "smoke-small",
    counts: {
      users: 100,
      hubs: 50,
      posts: 500,
      bigHubPosts: 200,
      series: 40,
      chapters: 60,
      comments: 500,
      bigPostComments: 50,
      readers: 0,
    },
  },
  large: {
    name: "smoke-large",
    counts: {
      users: 300,
      hubs: 500,
      posts: 3_000,
      bigHubPosts: 1_500,
      series: 60,
      chapters: 200,
      comments: 3_000,
      bigPostComments: 300,
      readers: 200,
    },
  },
};

const META_FILE = "bench-dataset.json";
/** The seed files that decide what a --scale data set contains. */
const SEED_SOURCES = [
  "cli.ts",
  "scale.ts",
  "scale-counts.ts",
  "scale-names.ts",
  "scale-images.ts",
  "scale-discussion.ts",
  "scale-context.ts",
  "scale-users.ts",
  "scale-hubs.ts",
  "scale-series.ts",
  "scale-governance.ts",
  "distributions.ts",
  "bulk.ts",
  "random.ts",
  "image-store.ts",
  "image-uses.ts",
  "demo-password.ts",
];

export function scaleSpec(counts: DatasetCounts): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
}

function sourceHash(): string {
  const hash = crypto.createHash("sha256");
  for (const file of SEED_SOURCES) {
    const full = path.join(ROOT, "seed", file);
    hash.update(file).update(fs.existsSync(full) ? fs.readFileSync(full) : "");
  }
  // The members' password is part of the set: sets seeded with another one cannot be signed in to.
  hash.update(BENCH_USER.password);
  return hash.digest("hex").slice(0, 10);
}

function folderName(spec: DatasetSpec): string {
  const c = spec.counts;
  return `${spec.name}-u${c.users}-h${c.hubs}-p${c.posts}-b${c.bigHubPosts}-s${c.series}-c${c.chapters}-k${c.comments}-m${c.bigPostComments}-r${c.readers}-${sourceHash()}`;
}

/** Returns the cached data folder for these counts, seeding it first when it is missing or incomplete. */
export async function ensureDataset(spec: DatasetSpec, options: { timeoutMs: number }): Promise<Dataset> {
  fs.mkdirSync(DATA_ROOT, { recursive: true });
  const name = folderName(spec);
  const dir = path.join(DATA_ROOT, name);
  const metaFile = path.join(dir, META_FILE);

  // Older versions of the same set (other counts or seed code), and leftovers of interrupted seeds.
  for (const entry of fs.readdirSync(DATA_ROOT)) {
    const stale = entry !== name && (entry.startsWith(`${spec.name}-u`) || entry.startsWith(`.tmp-${spec.name}-u`));
    if (stale) {
      log(`Removing an outdated data folder: bench/.data/${entry}`);
      fs.rmSync(path.join(DATA_ROOT, entry), { recursive: true, force: true });
    }
  }

  if (fs.existsSync(metaFile)) {
    const meta = JSON.parse(fs.readFileSync(metaFile, "utf8")) as { seedSeconds: number };
    log(`Data set "${spec.name}" (${scaleSpec(spec.counts)}): cached in bench/.data/${name}`);
    return { ...spec, dir, built: false, seedSeconds: meta.seedSeconds };
  }

  // The seed is not atomic: write into a temporary folder, rename when complete.
  const tmp = path.join(DATA_ROOT, `.tmp-${name}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  log(`Data set "${spec.name}" (${scaleSpec(spec.counts)}): not cached, seeding it...`);
  const started = performance.now();
  await runSeed(tmp, spec, options.timeoutMs);
  const seedSeconds = (performance.now() - started) / 1000;
  fs.writeFileSync(path.join(tmp, META_FILE), JSON.stringify({ ...spec, seedSeconds, seededAt: new Date().toISOString() }, null, 2));
  fs.renameSync(tmp, dir);
  log(`Data set "${spec.name}" seeded in ${seedSeconds.toFixed(1)} s (bench/.data/${name})`);
  return { ...spec, dir, built: true, seedSeconds };
}

function runSeed(dataDir: string, spec: DatasetSpec, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // The same Node and flags as this process.
    const child = spawn(
      process.execPath,
      [...process.execArgv, path.join(ROOT, "seed/cli.ts"), "--data-dir", dataDir, "--scale", scaleSpec(spec.counts)],
      {
        cwd: ROOT,
        // Production never gets a known password by default; the benchmark's throw-away sets sign in with it.
        env: { ...process.env, NODE_ENV: "production", DEMO_PASSWORD: BENCH_USER.password },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split("\n")) {
        // The seed's progress and summary lines, without its row table.
        if (
          /posts\/s|comments\/s|rows written|written in|Big hub|Big post|Crowd series|follows \d+ series|Governance|Drawing|failed/i.test(
            line,
          )
        )
          log(`  seed: ${line.trim()}`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`Seeding "${spec.name}" took longer than ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`Seeding "${spec.name}" failed (exit ${code}):\n${output.slice(-3000)}`));
    });
  });
}

/**
 * A throw-away copy of a data set (the mixed load writes to it, so the cached set keeps its seeded
 * state). The site must not be running on the source.
 */
export function copyDataset(source: Dataset, copyName: string): string {
  const dir = path.join(DATA_ROOT, copyName);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(source.dir, dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

const LOCK_FILE = path.join(DATA_ROOT, ".run.lock");

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One benchmark at a time per checkout: runs share the cached data folders (two sites migrating one
 * SQLite file collide) and, on a 2-core machine, would spoil each other's numbers. A second run
 * waits for the first (a lock left by a dead process is taken over). Returns the release function.
 */
export async function acquireRunLock(maxWaitMs: number): Promise<() => void> {
  fs.mkdirSync(DATA_ROOT, { recursive: true });
  const deadline = Date.now() + maxWaitMs;
  let announced = false;
  for (;;) {
    try {
      fs.writeFileSync(LOCK_FILE, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(LOCK_FILE, "utf8") === String(process.pid)) fs.unlinkSync(LOCK_FILE);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = Number(fs.readFileSync(LOCK_FILE, "utf8").trim());
    if (!Number.isInteger(holder) || holder <= 0 || !pidAlive(holder)) {
      log(`Taking over a stale benchmark lock (process ${holder || "?"} is gone)`);
      fs.rmSync(LOCK_FILE, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Another benchmark (process ${holder}) has been running in this checkout for longer than ${maxWaitMs / 1000} s (lock: bench/.data/.run.lock)`,
      );
    if (!announced) {
      log(`Another benchmark is running in this checkout (process ${holder}): waiting for it to finish...`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
