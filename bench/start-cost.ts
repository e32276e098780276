// `npm run bench:start`: what starting the site costs. Starts `npm start`'s script on a demo data folder
// (made by a first start, not measured) several times and prints, as the median of the runs, the time from
// spawn until both apps answer /health, the process's resident memory then, and its peak after 200 page
// views. Compares runtimes when given more than one: `-- --runner "node --import tsx" --runner node`.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../tests/services/ports.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const runners = args.flatMap((arg, i) => (args[i - 1] === "--runner" ? [arg] : []));
if (runners.length === 0) runners.push("node");
const runs = Number(args[args.indexOf("--runs") + 1]) || 5;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-start-cost-"));

interface Sample {
  readyMs: number;
  rssMb: number;
  peakMb: number;
}

function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return Math.round(kb / 102.4) / 10;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

async function startOnce(runner: string): Promise<{ child: ChildProcess; readyMs: number; web: string }> {
  const [command, ...runnerArgs] = runner.split(" ");
  const port = await freePort();
  const apiPort = await freePort();
  const started = performance.now();
  const child = spawn(command!, [...runnerArgs, "scripts/start.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      API_PORT: String(apiPort),
      NODE_ENV: "production",
      SEED_DEMO: "true",
      DEMO_PASSWORD: "start-cost-demo",
      JWT_SECRET: "start-cost-jwt-secret-0123456789",
      SESSION_SECRET: "start-cost-session-secret-0123456789",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const web = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${runner} exited with ${child.exitCode}`);
    if ((await answers(`${web}/health`)) && (await answers(`http://127.0.0.1:${apiPort}/health`))) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, readyMs: performance.now() - started, web };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function sample(runner: string): Promise<Sample> {
  const { child, readyMs, web } = await startOnce(runner);
  const rssMb = memoryMb(child.pid!, "VmRSS");
  for (let i = 0; i < 200; i++) await answers(`${web}${["/", "/hubs", "/series"][i % 3]}`);
  const peakMb = memoryMb(child.pid!, "VmHWM");
  await stop(child);
  return { readyMs, rssMb, peakMb };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// The first start migrates and seeds the demo: not what a restart costs, so not measured.
await stop((await startOnce(runners[0]!)).child);

console.log(`| runner (${process.version}) | ready (ms) | resident at ready (MB) | peak after 200 pages (MB) |`);
console.log("|---|---|---|---|");
for (const runner of runners) {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await sample(runner));
  const ms = median(samples.map((s) => s.readyMs));
  console.log(`| \`${runner}\` | ${Math.round(ms)} | ${median(samples.map((s) => s.rssMb))} | ${median(samples.map((s) => s.peakMb))} |`);
}
fs.rmSync(dataDir, { recursive: true, force: true });
