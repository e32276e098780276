// Drives load from a separate child process (load-worker.ts running autocannon): a warm-up, then a
// measured run of fixed length, with the same connections and durations for baselines and scenarios.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { BENCH_DIR, type LoadResult, type LoadSettings } from "./common.ts";
import type { FirstViewPair, LoadJob } from "./load-worker.ts";
import type { MixedPlan } from "./mixed.ts";

export interface LoadRequest {
  url: string;
  method?: string;
  /** Per-scenario headers on every request of the run (e.g. `cookie` for the signed-in pages). */
  headers?: Record<string, string>;
  body?: string;
}

type Pending = { resolve: (r: LoadResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

export class LoadRunner {
  private worker?: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  readonly settings: LoadSettings;
  constructor(settings: LoadSettings) {
    this.settings = settings;
  }

  private ensureWorker(): ChildProcess {
    if (this.worker && this.worker.connected) return this.worker;
    // fork() runs the worker with this process's Node and flags; Node strips its types.
    const worker = fork(path.join(BENCH_DIR, "load-worker.ts"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    worker.on("message", (message: { id: number; result?: LoadResult; error?: string }) => {
      const p = this.pending.get(message.id);
      if (!p) return;
      this.pending.delete(message.id);
      clearTimeout(p.timer);
      if (message.result) p.resolve(message.result);
      else p.reject(new Error(message.error ?? "load worker failed"));
    });
    worker.on("exit", (code, signal) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new Error(`the load worker exited (${signal ?? code}) during a run`));
        this.pending.delete(id);
      }
    });
    this.worker = worker;
    return worker;
  }

  private send(job: LoadJob): Promise<LoadResult> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    // Bounded: warm-up + run + slack for autocannon's own 10 s request timeout; then the worker is killed.
    const limitMs = (job.warmup + job.duration + 30) * 1000;
    return new Promise<LoadResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        worker.kill("SIGKILL");
        reject(new Error(`load run of ${job.url} did not finish within ${limitMs / 1000} s`));
      }, limitMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.send({ id, job });
    });
  }

  /** One scenario: warm-up, then the measured run. */
  measure(request: LoadRequest): Promise<LoadResult> {
    const { connections, duration, warmup } = this.settings;
    return this.send({ ...request, connections, duration, warmup });
  }

  /** The mixed read/write load (mixed.ts) for settings.mixedDuration seconds, after a short warm-up of reads and writes. */
  measureMixed(origin: string, plan: MixedPlan): Promise<LoadResult> {
    const { connections, mixedDuration, warmup } = this.settings;
    return this.send({ url: origin, connections, duration: mixedDuration, warmup, mixed: plan });
  }

  /**
   * First views: warm-up pairs (other sessions) for up to settings.warmup seconds, then the measured pairs for up to
   * settings.duration seconds; each pair is sent at most once, so a run ends early when every pair is used.
   */
  measureFirstViews(origin: string, pairs: { warmup: FirstViewPair[]; measured: FirstViewPair[] }): Promise<LoadResult> {
    const { connections, duration, warmup } = this.settings;
    return this.send({ url: origin, connections, duration, warmup, firstViews: pairs });
  }

  close(): void {
    if (this.worker && this.worker.exitCode === null) this.worker.kill("SIGTERM");
    this.worker = undefined;
  }
}
