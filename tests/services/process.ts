// What the services share: a short temp folder, server processes spawned in the foreground (no daemon, no shell),
// waits that time out and show the logs' tails, a stop by pid that runs once, and a last-resort cleanup when the
// test process exits or is signalled.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Under /tmp, not os.tmpdir(): PostgreSQL's socket path DIR/.s.PGSQL.PORT must stay under 107 bytes. */
export function makeServiceDir(prefix: string): string {
  return fs.mkdtempSync(`/tmp/${prefix}-`);
}

export function requireExecutable(file: string, whenMissing: string): void {
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    throw new Error(whenMissing);
  }
}

/** The executable's full path on PATH, or the error `whenMissing`. */
export function findOnPath(command: string, whenMissing: string): string {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(folder || ".", command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  throw new Error(whenMissing);
}

/** A start that failed; `log` holds the logs' tails, so callers can tell a lost port race from a real failure. */
export class ServiceStartError extends Error {
  readonly log: string;
  constructor(message: string, log: string) {
    super(log ? `${message}\n${log}` : message);
    this.log = log;
    this.name = "ServiceStartError";
  }

  /** PostgreSQL and Redis log "Address already in use"; Swift retries for 30 s, then logs "Could not bind to". */
  get addressInUse(): boolean {
    return /address already in use|could not bind to/i.test(this.log);
  }
}

export function logTail(logFile: string, lines = 25): string {
  let text: string;
  try {
    text = fs.readFileSync(logFile, "utf8");
  } catch {
    return `--- ${logFile}: (no log)`;
  }
  const tail = text.trimEnd().split("\n").slice(-lines).join("\n");
  return `--- last lines of ${logFile}:\n${tail || "(empty)"}`;
}

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Settles when the process has exited (or could not be spawned). */
  exited: Promise<void>;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Spawns a long-running server with stdout and stderr appended to `logFile`. */
export function spawnServer(name: string, command: string, args: string[], logFile: string): ServerProcess {
  const log = fs.openSync(logFile, "a");
  const child = spawn(command, args, { stdio: ["ignore", log, log] });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      fs.appendFileSync(logFile, `could not start ${command}: ${error.message}\n`);
      resolve();
    });
  });
  return { name, child, logFile, exited };
}

/** Runs a command to its end (initdb, the ring builder); a non-zero exit or the time limit throws with the log's tail. */
export async function runToEnd(name: string, command: string, args: string[], logFile: string, timeoutMs: number): Promise<void> {
  const run = spawnServer(name, command, args, logFile);
  const timer = setTimeout(() => run.child.kill("SIGKILL"), timeoutMs);
  await run.exited;
  clearTimeout(timer);
  if (run.child.exitCode !== 0) {
    const how =
      run.child.signalCode === "SIGKILL" ? `did not finish within ${timeoutMs / 1000} s` : `failed (exit code ${run.child.exitCode})`;
    throw new ServiceStartError(`${name} ${how}`, logTail(logFile));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `isReady` until it answers true. Throws, naming what it waited for with the logs' tails, when the time is up
 * or one of `processes` exits first. Each poll gets at most 5 s, so a check that hangs cannot hang the wait.
 */
export async function waitUntilReady(
  what: string,
  isReady: () => Promise<boolean>,
  { processes, timeoutMs, intervalMs = 50 }: { processes: ServerProcess[]; timeoutMs: number; intervalMs?: number },
): Promise<void> {
  const startedAt = Date.now();
  const tails = () => processes.map((p) => logTail(p.logFile)).join("\n");
  for (;;) {
    const gone = processes.find((p) => hasExited(p.child));
    if (gone) {
      const how = gone.child.exitCode !== null ? `exit code ${gone.child.exitCode}` : `signal ${gone.child.signalCode}`;
      throw new ServiceStartError(`${gone.name} exited (${how}) while waiting for ${what}`, tails());
    }
    const remainingMs = startedAt + timeoutMs - Date.now();
    if (remainingMs <= 0) throw new ServiceStartError(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`, tails());
    let timer: NodeJS.Timeout | undefined;
    const pollLimit = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.min(5_000, remainingMs))));
    const ready = await Promise.race([isReady().catch(() => false), pollLimit]);
    clearTimeout(timer);
    if (ready) return;
    await sleep(intervalMs);
  }
}

/** Sends `signal` and waits for the exit; after `graceMs` it sends SIGKILL. Nothing happens if it has already exited. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals, graceMs = 10_000): Promise<void> {
  if (!hasExited(server.child)) {
    server.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"grace over">((resolve) => (timer = setTimeout(() => resolve("grace over"), graceMs)));
    if ((await Promise.race([server.exited, graceOver])) === "grace over") server.child.kill("SIGKILL");
    clearTimeout(timer);
  }
  await server.exited;
}

export interface StoppableService {
  servers: ServerProcess[];
  /** The signal that stops this kind of server quickly (PostgreSQL: SIGQUIT, immediate shutdown). */
  signalAtExit: NodeJS.Signals;
  dir: string;
}

/**
 * Registers a started service for the cleanup at process exit and returns its stop: it stops every server by pid,
 * removes the folder and unregisters; called again it returns the same promise.
 */
export function stoppable(service: StoppableService, stopSignal: NodeJS.Signals): () => Promise<void> {
  running.add(service);
  installExitCleanup();
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      try {
        await Promise.all(service.servers.map((server) => stopServer(server, stopSignal)));
        fs.rmSync(service.dir, { recursive: true, force: true });
      } finally {
        running.delete(service);
        if (running.size === 0) removeExitCleanup();
      }
    })());
}

const running = new Set<StoppableService>();
const CLEANUP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
let cleanupInstalled = false;

function installExitCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", stopAllNow);
  for (const signal of CLEANUP_SIGNALS) process.on(signal, stopAllThenResignal);
}

function removeExitCleanup() {
  cleanupInstalled = false;
  process.off("exit", stopAllNow);
  for (const signal of CLEANUP_SIGNALS) process.off(signal, stopAllThenResignal);
}

function stopAllThenResignal(signal: NodeJS.Signals) {
  stopAllNow();
  removeExitCleanup();
  // Listening replaced the default action (exit); give it back unless someone else handles the signal.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/** Synchronous, for 'exit': signal every server, wait up to 3 s for them to end, SIGKILL the rest, remove the folders. */
function stopAllNow() {
  const servers = [...running].flatMap((service) => service.servers.map((server) => ({ server, signal: service.signalAtExit })));
  for (const { server, signal } of servers) if (!hasExited(server.child)) server.child.kill(signal);
  const deadline = Date.now() + 3_000;
  while (servers.some(({ server }) => isAlive(server.child.pid)) && Date.now() < deadline) sleepSync(20);
  for (const { server } of servers) if (isAlive(server.child.pid)) server.child.kill("SIGKILL");
  for (const service of running) fs.rmSync(service.dir, { recursive: true, force: true });
  running.clear();
}

/** Node reaps its children only between ticks, so an exited child stays a zombie while sync code runs. */
function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
