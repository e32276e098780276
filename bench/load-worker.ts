// The load generator: a separate Node process (forked by load.ts) that runs autocannon against
// 127.0.0.1, so the client's work is not done by the process under test nor by the orchestrator.
// Protocol: the parent sends { id, job }, the worker answers { id, result } or { id, error }.
import autocannon, { type Client, type PendingAnswer, type Request, type Result } from "autocannon";
import type { LoadResult } from "./common.ts";
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
}

const MAX_FAILURES_KEPT = 5;

function buildRequests(job: LoadJob, failures: LoadResult["failures"], ops: Record<string, Record<string, number>>): Request[] {
  const url = new URL(job.url);
  const keep = (status: number, body: string, op?: string) => {
    if (failures.length < MAX_FAILURES_KEPT) failures.push({ status, body: body.slice(0, 300), op });
  };
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

const isImage = (answer: PendingAnswer) => {
  const list = answer.headers.headers ?? [];
  for (let i = 0; i < list.length - 1; i += 2) {
    if (list[i]!.toLowerCase() === "content-type") return list[i + 1]!.startsWith("image/");
  }
  return false;
};

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

async function run(
  job: LoadJob,
  seconds: number,
  failures: LoadResult["failures"],
  ops: Record<string, Record<string, number>>,
): Promise<Result> {
  const url = new URL(job.url);
  return autocannon({
    url: url.origin,
    connections: job.connections,
    duration: seconds,
    timeout: 10,
    // autocannon ends a run on its first sample tick after the duration (1 s apart by default), so a
    // 0.3 s warm-up would last a whole second: short runs (smoke mode) sample every 100 ms. Only the
    // per-sample histograms depend on it, and the results below use totals instead.
    ...(seconds < 2 ? { sampleInt: 100 } : {}),
    headers: { "accept-encoding": "gzip", ...job.headers },
    requests: buildRequests(job, failures, ops),
    setupClient: skipImageBodies,
  });
}

async function measure(job: LoadJob): Promise<LoadResult> {
  // Warm-up: the same load, thrown away (JIT, caches, SQLite pages, lazily built renditions).
  const warmupOps: Record<string, Record<string, number>> = {};
  if (job.warmup > 0) await run(job, job.warmup, [], warmupOps);
  const failures: LoadResult["failures"] = [];
  const ops: Record<string, Record<string, number>> = {};
  const r = await run(job, job.duration, failures, ops);
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
  };
}

process.on("message", (message: { id: number; job: LoadJob }) => {
  measure(message.job).then(
    (result) => process.send!({ id: message.id, result }),
    (err: unknown) => process.send!({ id: message.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
process.on("disconnect", () => process.exit(0));
