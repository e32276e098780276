// Shared bits of the benchmark: paths, settings, progress lines and the shapes passed between files.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
export const DATA_ROOT = `${BENCH_DIR}.data`;
export const RESULTS_DIR = `${BENCH_DIR}results`;

/** How hard and how long every load run is: the same for baselines and scenarios within one run. */
export interface LoadSettings {
  connections: number;
  /** Measured seconds per scenario. */
  duration: number;
  /** Seconds of load before each measured run, thrown away. */
  warmup: number;
  /** Seconds the mixed read/write load runs. */
  mixedDuration: number;
  /** First views: the sessions signed in for the measured rows (each opens each page once), so at most this many requests a row. */
  firstViewSessions: number;
}

export const FULL_SETTINGS: LoadSettings = { connections: 20, duration: 8, warmup: 2, mixedDuration: 15, firstViewSessions: 600 };
export const SMOKE_SETTINGS: LoadSettings = { connections: 8, duration: 1, warmup: 0.3, mixedDuration: 2, firstViewSessions: 16 };

/** One measured load run, as load.ts reports it. */
export interface LoadResult {
  /** Completed responses per second over the measured run. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  /** Socket errors and timeouts + non-2xx responses + body mismatches. */
  errors: number;
  socketErrors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Mean response bytes per second (as received: compressed when the server compressed). */
  bytesPerSecond: number;
  /** Mean bytes per response. */
  bytesPerResponse: number;
  seconds: number;
  /** The first few non-2xx answers (status and the start of the body), to see what went wrong. */
  failures: { status: number; body: string; op?: string }[];
  /** Mixed load only: status counts per operation, and "sent": requests built. */
  ops?: Record<string, Record<string, number>>;
  /** Mixed load only: the same for the warm-up (its writes count too when rows are checked). */
  warmupOps?: Record<string, Record<string, number>>;
  /** First views only: how the measured answers were made (load-worker.ts reads every one). */
  answers?: AnswerCheck;
}

/** The measured answers of a first-view row, each read by the load worker: its X-Page-Cache and its header. */
export interface AnswerCheck {
  /** Answers read (every completed one). */
  checked: number;
  /** Answers per X-Page-Cache value ("none" when absent). */
  pageCache: Record<string, number>;
  /** Answers whose HTML shows the signed-in header (its Logout form). */
  signedIn: number;
  /** Distinct (session, page) pairs handed out; never more than the sessions signed in for the row. */
  pairsUsed: number;
  /** Requests built after every pair was used (sent to a path that answers 404, so they count as errors). */
  poolExhausted: number;
}

/**
 * baseline; api: API reads on the large set as deployed (caches on); uncached: the same reads with both
 * caches off; growth: the same reads on the small set, caches off; web: guest pages (the page cache
 * answers them); web-signed-in: the same pages and the feed and notifications signed in (the session's own kept pages);
 * web-rendered: those signed-in pages with the page cache off (rendered every time); web-first-view: the same pages
 * as deployed, each opened once by each of many sessions, so no kept page can answer (first-views.ts); mixed;
 * publish: chapters published one at a time on a copy (publish.ts); digests: requests with and without a digest run (digests.ts).
 */
export type ScenarioGroup =
  | "baseline"
  | "api"
  | "uncached"
  | "growth"
  | "web"
  | "web-signed-in"
  | "web-rendered"
  | "web-first-view"
  | "mixed"
  | "publish"
  | "digests";

export interface ScenarioResult extends LoadResult {
  id: string;
  group: ScenarioGroup;
  title: string;
  /** The data set it ran on ("small", "large", "large copy"), none for baselines. */
  dataset?: string;
  method: string;
  path: string;
  /** Extra facts about the request (e.g. how many hubs a search found). */
  note?: string;
}

const started = Date.now();

/** A progress line with the time since the start: `[bench 3:05] ...`. */
export function log(message: string): void {
  const s = Math.floor((Date.now() - started) / 1000);
  console.log(`[bench ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}] ${message}`);
}

export function elapsedSeconds(): number {
  return (Date.now() - started) / 1000;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function formatBytes(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)} KB` : `${n} B`;
}
