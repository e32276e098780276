// The part of autocannon 8's programmatic API the benchmark uses (the package ships no types).
declare module "autocannon" {
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface Request extends RequestParams {
    setupRequest?: (
      request: RequestParams & Record<string, unknown>,
      context: Record<string, unknown>,
    ) => (RequestParams & Record<string, unknown>) | null | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }

  export interface Options extends RequestParams {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    /** Milliseconds between samples (default 1000); a run ends on the first sample after its duration. */
    sampleInt?: number;
    pipelining?: number;
    /** Sends at most this many requests in all (each connection a share), then the run ends. */
    maxOverallRequests?: number;
    requests?: Request[];
    initialContext?: Record<string, unknown>;
    /** Called with each connection's client when it is made (see load-worker.ts). */
    setupClient?: (client: Client) => void;
  }

  /** The answer being read on a connection: the parser's headers (a flat name/value list) and the body so far. */
  export interface PendingAnswer {
    headers: { statusCode?: number; headers?: string[] };
    body: string;
  }

  /** The part of a connection's client the benchmark touches (autocannon's lib/httpClient.js). */
  export interface Client {
    pipelinedRequests: {
      peek(): PendingAnswer | undefined;
      addBody(data: Buffer): void;
      /** Takes the answer that just completed off the queue (its body is what onResponse gets). */
      terminateRequest(): PendingAnswer | undefined;
    };
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    sent?: number;
  }

  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
