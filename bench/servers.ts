// The processes under test: the site (scripts/start.ts, what `npm start` runs) in production mode on a
// data folder, and the three baselines. Each is a child process on free ports of 127.0.0.1; load comes
// from yet another process (load.ts).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort, freePorts } from "../tests/services/ports.ts";
import { BENCH_DIR, DATA_ROOT, log, ROOT, sleep } from "./common.ts";

export interface Child {
  name: string;
  child: ChildProcess;
  /** The last few KB of its output. */
  output(): string;
  /** SIGTERM, then SIGKILL after STOP_GRACE_MS; false when it had to be killed. */
  stop(): Promise<boolean>;
}

let STOP_GRACE_MS = 10_000;

/** How long a server may take to exit after SIGTERM before it is killed (smoke mode: shorter). */
export function setStopGrace(ms: number): void {
  STOP_GRACE_MS = ms;
}

export function stopGraceSeconds(): number {
  return STOP_GRACE_MS / 1000;
}

const running = new Set<Child>();

/** Starts a TypeScript entry point with the same Node and flags as this process (Node strips the types). */
function startChild(name: string, script: string, env: NodeJS.ProcessEnv, logFile: string): Child {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const logStream = fs.createWriteStream(logFile);
  const child = spawn(process.execPath, [...process.execArgv, script], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const onData = (chunk: Buffer) => {
    logStream.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const handle: Child = {
    name,
    child,
    output: () => tail,
    async stop() {
      running.delete(handle);
      let graceful = true;
      if (child.exitCode === null && child.signalCode === null) {
        // SIGTERM: the site finishes requests in flight and closes the database (checkpointing the WAL).
        child.kill("SIGTERM");
        const done = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
        if (!done) {
          log(`  ${name} did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM: killing it`);
          graceful = false;
          child.kill("SIGKILL");
          await exited;
        }
      }
      logStream.end();
      return graceful;
    },
  };
  running.add(handle);
  return handle;
}

async function waitUntilOk(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.child.exitCode !== null) throw new Error(`${child.name} exited early (code ${child.child.exitCode}):\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} (${child.name}) did not answer within ${timeoutMs / 1000} s:\n${child.output()}`);
}

export interface Site extends Child {
  apiUrl: string;
  webUrl: string;
  /** The extra environment it was started with (e.g. the caches turned off). */
  extraEnv: Record<string, string>;
}

/** Secrets for the benchmark's production-mode site only. */
const BENCH_SECRETS = {
  JWT_SECRET: "bench-jwt-secret-not-for-real-use-0123456789",
  SESSION_SECRET: "bench-session-secret-not-for-real-use-0123456789",
};

/** Both caches off: the API's response cache (docs/decisions/006) and the web's guest page cache (007). */
export const CACHES_OFF: Record<string, string> = { API_CACHE_ENTRIES: "0", PAGE_CACHE_ENTRIES: "0" };

/**
 * The site exactly as `npm start` runs it, in production mode, on a data folder that already holds
 * its data. `extraEnv` is added last (it wins over the benchmark's own settings), e.g. CACHES_OFF.
 */
export async function startSite(dataDir: string, label: string, extraEnv: Record<string, string> = {}): Promise<Site> {
  const [apiPort, webPort] = await freePorts(2);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...BENCH_SECRETS,
    NODE_ENV: "production",
    COOKIE_SECURE: "false",
    LOG_LEVEL: "warn",
    AUTH_RATE_LIMIT_PER_15_MIN: "0",
    // The mixed load and the publishing run write faster than any person (docs/api.md "Limits").
    POST_RATE_PER_HOUR: "0",
    EDIT_RATE_PER_HOUR: "0",
    CHAPTER_RATE_PER_HOUR: "0",
    SEED_DEMO: "false",
    DATA_DIR: dataDir,
    API_PORT: String(apiPort),
    PORT: String(webPort),
    API_URL: apiUrl,
    PUBLIC_API_URL: apiUrl,
    ...extraEnv,
  };
  const started = performance.now();
  const child = startChild(
    `site (${label})`,
    path.join(ROOT, "scripts/start.ts"),
    env,
    path.join(DATA_ROOT, "logs", `site-${label.replace(/\W+/g, "-")}.log`),
  );
  try {
    await waitUntilOk(`${apiUrl}/health`, child, 180_000);
    await waitUntilOk(`${webUrl}/health`, child, 60_000);
  } catch (err) {
    await child.stop();
    throw err;
  }
  const extra = Object.entries(extraEnv)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  log(
    `Site (${label}) up in ${((performance.now() - started) / 1000).toFixed(1)} s: API ${apiUrl}, web ${webUrl}${extra ? ` (${extra})` : ""}`,
  );
  return { ...child, apiUrl, webUrl, extraEnv };
}

export type BaselineKind = "node-http" | "express-hello" | "remix-minimal" | "express-bytes";

export interface Baseline extends Child {
  url: string;
}

const BASELINE_SCRIPTS: Record<BaselineKind, string> = {
  "node-http": "baselines/node-http.ts",
  "express-hello": "baselines/express-hello.ts",
  "remix-minimal": "baselines/remix-minimal/server.ts",
  "express-bytes": "baselines/express-bytes.ts",
};

/** `extraEnv`: the baseline's settings (express-bytes: BODY_BYTES). */
export async function startBaseline(kind: BaselineKind, extraEnv: Record<string, string> = {}): Promise<Baseline> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ...BENCH_SECRETS, NODE_ENV: "production", PORT: String(port), ...extraEnv };
  const child = startChild(
    `baseline ${kind}`,
    path.join(BENCH_DIR, BASELINE_SCRIPTS[kind]),
    env,
    path.join(DATA_ROOT, "logs", `baseline-${kind}.log`),
  );
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitUntilOk(url, child, 60_000);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return { ...child, url };
}

/** Stops whatever is still running (an error or Ctrl-C part-way through). */
export async function stopAll(): Promise<void> {
  await Promise.allSettled([...running].map((c) => c.stop()));
}

const REMIX_MINIMAL = path.join(BENCH_DIR, "baselines/remix-minimal");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds the minimal Remix app into bench/baselines/remix-minimal/build when missing or older than its sources. */
export async function ensureRemixMinimalBuild(): Promise<void> {
  const entry = path.join(REMIX_MINIMAL, "build/server/index.js");
  const sources = Math.max(newestMtime(path.join(REMIX_MINIMAL, "app")), fs.statSync(path.join(REMIX_MINIMAL, "vite.config.ts")).mtimeMs);
  if (fs.existsSync(entry) && fs.statSync(entry).mtimeMs >= sources) return;
  log("Building the minimal Remix baseline (bench/baselines/remix-minimal/build)...");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build", REMIX_MINIMAL], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`Building the minimal Remix baseline failed (exit ${code}):\n${output.slice(-3000)}`));
    });
  });
}

/** The site's web build: present (start.ts would build it otherwise) and whether app/ changed since. */
export function siteBuildState(): { present: boolean; builtAt?: string; staleSources: string[] } {
  const entry = path.join(ROOT, "build/server/index.js");
  if (!fs.existsSync(entry)) return { present: false, staleSources: [] };
  const builtAt = fs.statSync(entry).mtimeMs;
  const stale: string[] = [];
  const appDir = path.join(ROOT, "app");
  for (const e of fs.readdirSync(appDir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    if (fs.statSync(file).mtimeMs > builtAt) stale.push(path.relative(ROOT, file));
  }
  return { present: true, builtAt: new Date(builtAt).toISOString(), staleSources: stale };
}
