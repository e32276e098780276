// Inkwell instances as separate processes on shared services, each `npm start` (API and web app in one Node
// process) on its own data folder, for tests/run/multi-instance.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePorts } from "../services/ports.ts";
import { runScript, waitForHealth, type Running } from "./run-helpers.ts";

export interface Instance extends Running {
  name: string;
  /** The API's origin, e.g. http://127.0.0.1:41234. */
  api: string;
  /** The web app's origin. */
  web: string;
  dataDir: string;
}

const started: Instance[] = [];

/**
 * Starts `scripts/start.ts` (what `npm start` runs) as one Node process, so a SIGKILL of its pid takes down
 * both its API and its web app.
 */
async function startInstance(name: string, env: Record<string, string>, apiPort: number, webPort: number): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-${name}-`));
  const running = runScript("scripts/start.ts", { ...env, DATA_DIR: dataDir, API_PORT: String(apiPort), PORT: String(webPort) });
  const instance: Instance = { ...running, name, api: `http://127.0.0.1:${apiPort}`, web: `http://127.0.0.1:${webPort}`, dataDir };
  started.push(instance);
  await waitForHealth(`${instance.api}/health`, running, 120_000, 200);
  await waitForHealth(`${instance.web}/health`, running, 60_000, 200);
  return instance;
}

/** Starts one instance per name at once, on distinct ports and data folders, with the same `env`. */
export async function startInstances(names: string[], env: Record<string, string>): Promise<Instance[]> {
  const ports = await freePorts(names.length * 2);
  return Promise.all(names.map((name, i) => startInstance(name, env, ports[2 * i]!, ports[2 * i + 1]!)));
}

export const isRunning = (instance: Instance) => instance.child.exitCode === null && instance.child.signalCode === null;

/** SIGKILL: no clean-up, requests in flight cut. Resolves once the process is gone. */
export async function killInstance(instance: Instance): Promise<void> {
  if (isRunning(instance)) instance.child.kill("SIGKILL");
  await instance.exited;
}

/** Stops every instance started here (SIGTERM, SIGKILL after 10 s) and removes its data folder. */
export async function stopAllInstances(): Promise<void> {
  await Promise.all(
    started.splice(0).map(async (instance) => {
      if (isRunning(instance)) {
        instance.child.kill("SIGTERM");
        const timer = setTimeout(() => instance.child.kill("SIGKILL"), 10_000);
        await instance.exited;
        clearTimeout(timer);
      }
      fs.rmSync(instance.dataDir, { recursive: true, force: true });
    }),
  );
}

// A test process that ends without its afterAll (a crash, a timeout) leaves no instance running.
process.once("exit", () => {
  for (const instance of started) {
    if (isRunning(instance)) instance.child.kill("SIGKILL");
    fs.rmSync(instance.dataDir, { recursive: true, force: true });
  }
});
