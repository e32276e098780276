// Running the project's entry points as people do (a child process on a data folder), for tests/run.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export { freePort } from "../services/ports.ts";

export const root = path.resolve(import.meta.dirname, "../..");

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs `script` (e.g. scripts/start.ts) with Node, which strips its types, without npm in between (npm
 * dies of a signal instead of reporting the exit code), on exactly `env` plus PATH and HOME.
 */
export function runScript(script: string, env: Record<string, string>): Running {
  let output = "";
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitForHealth(url: string, running: Running, timeoutMs = 240_000, pollMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) throw new Error(`exited early:\n${running.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`${url} never became healthy:\n${running.output()}`);
}

export async function stop(running: Running): Promise<number | null> {
  running.child.kill("SIGTERM");
  return running.exited;
}
