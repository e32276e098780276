// The load generator: a separate Node process (forked by load.ts) that runs autocannon against
// 127.0.0.1, so the client's work is not done by the process under test nor by the orchestrator.
// Protocol: the parent sends { id, job }, the worker answers { id, result } or { id, error }.
import zlib from "node:zlib";
import autocannon, { type Client, type PendingAnswer, type Request, type Result } from "autocannon";
import type { AnswerCheck, LoadResult } from "./common.ts";
import { mixedRequests, type MixedPlan } from "./mixed.ts";

export interface LoadJob {
  url: string;
  connections: number;
  duration: number;
  warmup: number;
  method?: string;
  /** Sent with every request of this run (e.g. a signed-in visitor's Cookie), over the defaults (Accept-Encoding: gzip). */
  headers?: Record<string, string>;
  body?: string;
  /** Instead of one request: the mixed read/write load built from this plan. */
  mixed?: MixedPlan;
  /** Instead of one request: first views, each (session, page) pair sent once (warm-up pairs first, then the measured ones). */
  firstViews?: { warmup: FirstViewPair[]; measured: FirstViewPair[] };
}

/** One first view: a page and the Cookie of the session that opens it. */
export interface FirstViewPair {
  path: string;
  cookie: string;
}

/** Where a request goes once every pair was used: no such page (404), so it counts as an error instead of reusing a pair. */
const POOL_EXHAUSTED_PATH = "/__bench-first-view-pairs-used-up";

const MAX_FAILURES_KEPT = 5;

/**
 * First views: every request takes the next unused (session, page) pair. autocannon builds each request it sends
 * (the first of a connection when the connection is made, the others after each answer, a resend after a timeout
 * too), and `maxOverallRequests` (run()) sends at most as many as there are pairs, so none is sent twice.
 */
function firstViewRequests(pairs: FirstViewPair[], check: AnswerCheck, keep: (status: number, body: string) => void): Request[] {
  let next = 0;
  return [
    {
      method: "GET",
      setupRequest: (request) => {
        const pair = pairs[next];
        if (!pair) {
          check.poolExhausted++;
          return { ...request, path: POOL_EXHAUSTED_PATH };
        }
        next++;
        check.pairsUsed = next;
        return { ...request, path: pair.path, headers: { ...request.headers, cookie: pair.cookie } };
      },
      onResponse: (status, body) => {
        if (status < 200 || status >= 300) keep(status, body);
      },
    },
  ];
}

function buildRequests(
  job: LoadJob,
  failures: LoadResult["failures"],
  ops: Record<string, Record<string, number>>,
  pairs?: { list: FirstViewPair[]; check: AnswerCheck },
): Request[] {
  const url = new URL(job.url);
  const keep = (status: number, body: string, op?: string) => {
    if (failures.length < MAX_FAILURES_KEPT) failures.push({ status, body: body.slice(0, 300), op });
  };
  if (pairs) return firstViewRequests(pairs.list, pairs.check, keep);
  if (job.mixed) {
    return mixedRequests(job.mixed, (op, status, body) => {
      const counts = (ops[op] ??= {});
      counts[status] = (counts[status] ?? 0) + 1;
      if (status !== "sent" && (status < 200 || status >= 300)) keep(status, body, op);
    });
  }
  return [
    {
      method: job.method ?? "GET",
      path: url.pathname + url.search,
      headers: job.headers,
      body: job.body,
      onResponse: (status, body) => {
        if (status < 200 || status >= 300) keep(status, body);
      },
    },
  ];
}

const headerOf = (answer: PendingAnswer, name: string): string | undefined => {
  const list = answer.headers.headers ?? [];
  for (let i = 0; i < list.length - 1; i += 2) {
    if (list[i]!.toLowerCase() === name) return list[i + 1]!;
  }
  return undefined;
};
const isImage = (answer: PendingAnswer) => headerOf(answer, "content-type")?.startsWith("image/") ?? false;

/**
 * autocannon appends every answer's body to a string (`body += chunk`), decoding binary bytes as
 * UTF-8 in the client's only thread: about 35 MB/s here, which capped a 75 KB image at ~1,300 req/s
 * whatever the server did (a bare node:http handler sending the same bytes measured the same). Image
 * bodies are not used by the benchmark, so they are not kept; bytes are still counted.
 */
function skipImageBodies(client: Client): void {
  const queue = client.pipelinedRequests;
  const addBody = queue.addBody.bind(queue);
  queue.addBody = (data) => {
    const answer = queue.peek();
    if (answer && isImage(answer)) return;
    addBody(data);
  };
}

/** The signed-in header's Logout form (what scenarios.ts probePage looks for). */
const SIGNED_IN_HEADER = /action="\/logout"/;

/**
 * First views: every answer is read as it completes, its X-Page-Cache counted and its HTML (gunzipped) searched for the
 * signed-in header. Its bytes are kept as they come instead of in autocannon's body string.
 */
function checkAnswers(check: AnswerCheck): (client: Client) => void {
  return (client) => {
    const queue = client.pipelinedRequests;
    const raw = new WeakMap<PendingAnswer, Buffer[]>();
    queue.addBody = (data) => {
      const answer = queue.peek();
      if (!answer) return;
      const chunks = raw.get(answer);
      if (chunks) chunks.push(data);
      else raw.set(answer, [data]);
    };
    const terminate = queue.terminateRequest.bind(queue);
    queue.terminateRequest = () => {
      const answer = terminate();
      if (!answer) return answer;
      check.checked++;
      const pageCache = headerOf(answer, "x-page-cache") ?? "none";
      check.pageCache[pageCache] = (check.pageCache[pageCache] ?? 0) + 1;
      let body = Buffer.concat(raw.get(answer) ?? []);
      try {
        if (headerOf(answer, "content-encoding") === "gzip") body = zlib.gunzipSync(body);
      } catch {
        // not gzip after all: searched as it is
      }
      const html = body.toString("utf8");
      if (SIGNED_IN_HEADER.test(html)) check.signedIn++;
      // What onResponse keeps of a failing answer.
      answer.body = html.slice(0, 300);
      return answer;
    };
  };
}

async function run(
  job: LoadJob,
  seconds: number,
  failures: LoadResult["failures"],
  ops: Record<string, Record<string, number>>,
  pairs?: { list: FirstViewPair[]; check: AnswerCheck },
): Promise<Result> {
  const url = new URL(job.url);
  return autocannon({
    url: url.origin,
    // First views: never more connections than pairs (autocannon gives each connection a share of maxOverallRequests).
    connections: pairs ? Math.max(1, Math.min(job.connections, pairs.list.length)) : job.connections,
    duration: seconds,
    timeout: 10,
    // autocannon ends a run on its first sample tick after the duration (1 s apart by default), so a
    // 0.3 s warm-up would last a whole second: short runs (smoke mode) sample every 100 ms. Only the
    // per-sample histograms depend on it, and the results below use totals instead. First views end early
    // when every pair is used, so they sample every 100 ms too (the run's seconds count until that tick).
    ...(seconds < 2 || pairs ? { sampleInt: 100 } : {}),
    // First views: at most one request per pair, then the run ends (or at its duration, whichever comes first).
    ...(pairs ? { maxOverallRequests: Math.max(1, pairs.list.length) } : {}),
    headers: { "accept-encoding": "gzip", ...job.headers },
    requests: buildRequests(job, failures, ops, pairs),
    setupClient: pairs ? checkAnswers(pairs.check) : skipImageBodies,
  });
}

const noAnswers = (): AnswerCheck => ({ checked: 0, pageCache: {}, signedIn: 0, pairsUsed: 0, poolExhausted: 0 });

async function measure(job: LoadJob): Promise<LoadResult> {
  // Warm-up: the same load, thrown away (JIT, caches, SQLite pages, lazily built renditions).
  const warmupOps: Record<string, Record<string, number>> = {};
  const fv = job.firstViews;
  // First views warm up with pairs of their own (other sessions), when there are any.
  if (job.warmup > 0 && (!fv || fv.warmup.length > 0))
    await run(job, job.warmup, [], warmupOps, fv ? { list: fv.warmup, check: noAnswers() } : undefined);
  const failures: LoadResult["failures"] = [];
  const ops: Record<string, Record<string, number>> = {};
  const answers = noAnswers();
  const r = await run(job, job.duration, failures, ops, fv ? { list: fv.measured, check: answers } : undefined);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
  const requests = r.requests.total;
  const seconds = r.duration;
  return {
    rps: seconds > 0 ? requests / seconds : 0,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    requests,
    errors: r.errors + r.non2xx + r.mismatches,
    socketErrors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    bytesPerSecond: seconds > 0 ? r.throughput.total / seconds : 0,
    bytesPerResponse: requests > 0 ? Math.round(r.throughput.total / requests) : 0,
    seconds,
    failures,
    ...(job.mixed ? { ops, warmupOps } : {}),
    ...(fv ? { answers } : {}),
  };
}

process.on("message", (message: { id: number; job: LoadJob }) => {
  measure(message.job).then(
    (result) => process.send!({ id: message.id, result }),
    (err: unknown) => process.send!({ id: message.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
process.on("disconnect", () => process.exit(0));
