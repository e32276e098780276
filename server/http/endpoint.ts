import zlib from "node:zlib";
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { z } from "zod";
import { trackWrites } from "../db/write-report.ts";
import { toPaging } from "../rules/paging.ts";
import type { Caller } from "./auth.ts";
import { badRequest, HttpError, unauthorized, validationError } from "./errors.ts";
import type { ResponseCache } from "./response-cache.ts";
import { idsOf, ownAnswerBeforeShared, ownAnswerReason, withFlags, type ViewerFlags } from "../viewer/shared-answers.ts";

type Method = "get" | "post" | "put" | "delete";
type AnySchema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
/** "required": no token, no call (401); "none": anyone, and the caller when a valid token was sent. */
export type AuthMode = "none" | "required";
/** What the handler gets as `user`: a required endpoint always has its caller. */
export type CallerFor<A extends AuthMode> = A extends "required" ? Caller : Caller | null;

/** Largest JSON body an endpoint reads, as sent and once inflated (else 413). */
const JSON_BODY_LIMIT = 1024 * 1024;

const INFLATE: Record<string, (buffer: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Buffer> = {
  gzip: zlib.gunzipSync,
  "x-gzip": zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
};

/**
 * A compressed JSON body, read whole (at most the limit as sent) and inflated in one synchronous
 * call bounded to the limit. body-parser inflates in 16 KB steps, each a trip through the event
 * loop: under load a small gzip bomb held its request for seconds before the 413.
 */
const readCompressedJson: RequestHandler = (req, _res, next) => {
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || !req.is("application/json")) return next();
  const inflate = INFLATE[encoding];
  if (!inflate) return next(new HttpError(415, "Unsupported body encoding"));
  const charset = (req.headers["content-type"] ?? "")
    .split(";")
    .slice(1)
    .map((param) => param.split("="))
    .find(([name]) => name!.trim().toLowerCase() === "charset")?.[1]
    ?.trim()
    .replaceAll('"', "")
    .toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") return next(new HttpError(415, "Unsupported body encoding"));
  if (Number(req.headers["content-length"]) > JSON_BODY_LIMIT) return next(new HttpError(413, "Request body is too large"));
  const chunks: Buffer[] = [];
  let received = 0;
  let failed = false;
  const fail = (err: HttpError) => {
    if (failed) return;
    failed = true;
    req.removeListener("data", onData);
    req.resume(); // drain what is left, so the connection can carry the answer
    next(err);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > JSON_BODY_LIMIT) fail(new HttpError(413, "Request body is too large"));
    else chunks.push(chunk);
  };
  req.on("data", onData);
  req.once("aborted", () => fail(badRequest("Request aborted")));
  req.once("error", () => fail(badRequest("Request aborted")));
  req.once("end", () => {
    if (failed) return;
    failed = true;
    let text: string;
    try {
      text = inflate(Buffer.concat(chunks), { maxOutputLength: JSON_BODY_LIMIT }).toString("utf8");
    } catch (err) {
      const tooLarge = (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError;
      return next(tooLarge ? new HttpError(413, "Request body is too large") : badRequest("Malformed compressed body"));
    }
    // As express.json in strict mode: an object or an array.
    const first = text.trimStart()[0];
    if (first !== "{" && first !== "[") return next(badRequest("Malformed JSON body"));
    try {
      req.body = JSON.parse(text) as unknown;
    } catch {
      return next(badRequest("Malformed JSON body"));
    }
    next(); // express.json sees a finished request and leaves req.body alone
  });
};

export interface HandlerContext<P, Q, B, D, A extends AuthMode = AuthMode> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The caller, when a valid token was sent; required endpoints always have one. */
  user: CallerFor<A>;
  /** What `Endpoint.variant` made of the caller ("" without one); reading it does not make the answer the caller's own. */
  variant: string;
  deps: D;
  req: Request;
  res: Response;
}

/**
 * One API call: its path, its schemas and its handler. The same declaration validates the
 * request at the edge, mounts the Express route and writes the call into /openapi.json.
 */
export interface Endpoint<D = unknown, P = unknown, Q = unknown, B = unknown, A extends AuthMode = AuthMode> {
  method: Method;
  /** OpenAPI form, `/hubs/{name}`; mounted on Express as `/hubs/:name`. */
  path: string;
  summary: string;
  tag: string;
  auth: A;
  params?: P;
  query?: Q;
  /** A JSON body: only these endpoints read one (others ignore whatever is sent). */
  body?: B;
  /** multipart/form-data upload with one file in `file` (handled by `before`). */
  upload?: boolean;
  /** A rate limit applies (429). */
  rateLimited?: boolean;
  /** Success status and body schema; "binary" for bytes the handler sends itself (images unless `binaryTypes`). */
  status?: number;
  /** Other success statuses the handler may pick by setting `res.locals.successStatus` (an idempotent repeat's 200), with the same body. */
  otherStatuses?: number[];
  response: AnySchema | "binary";
  /** The content types of a "binary" answer; image types when absent. */
  binaryTypes?: string[];
  /**
   * Error statuses the handler (or `before`) throws. The common ones are added by `answeredStatuses`:
   * 400 and 401 everywhere, 413/415 with a JSON body, 429 when rate limited, 503 for writes.
   */
  errors: number[];
  /** Middleware that runs before validation (multer for uploads). */
  before?: RequestHandler[];
  /**
   * What else a public answer depends on besides its params and query: a few values of the caller's settings (the
   * series lists' mature rule). It joins the response cache's key, so callers with the same variant share answers
   * and never get another variant's; the handler reads it as `variant` (reading `user` instead would keep the
   * answer for guests only).
   */
  variant?(user: Caller | null, deps: D): string | Promise<string>;
  /**
   * A public read whose answers differ between callers in the caller's own flags (likedByMe, readByMe, followedByMe):
   * a signed-in caller gets the guest's answer, kept by the response cache, with their flags read in one indexed query
   * (docs/decisions/028). Where their answer differs in more (server/viewer/shared-answers.ts decides), and with the
   * cache off, the handler computes it for them as before.
   */
  viewerFlags?: ViewerFlags<D>;
  /**
   * A write whose changes no kept answer shows (what only its caller reads, and answers read for a caller are never
   * kept: reading progress): it leaves the response cache's data version alone, so frequent saves do not empty it.
   */
  keepsCachedAnswers?: boolean;
  /**
   * Every unit of data the handler writes reports whether it changed anything (`reportWrite`, server/db/write-report.ts):
   * when all of them say no (a repeated like, a removal of what is removed), the data version stays and kept answers
   * with it. Only for handlers whose every write reports; without it, any resolved write moves the version.
   */
  reportsChanges?: boolean;
  handle(ctx: HandlerContext<P, Q, B, D, A>): unknown;
}

/** Any declaration, as the code that mounts and documents them sees it. */
export type AnyEndpoint<D = unknown> = Endpoint<D, AnySchema | undefined, AnySchema | undefined, AnySchema | undefined>;

/** `const endpoint = endpointsFor<Services>()` gives a typed declaration helper for one app's services. */
export function endpointsFor<D>() {
  return <
    P extends AnySchema | undefined = undefined,
    Q extends AnySchema | undefined = undefined,
    B extends AnySchema | undefined = undefined,
    A extends AuthMode = AuthMode,
  >(
    endpoint: Endpoint<D, P, Q, B, A>,
  ): Endpoint<D, P, Q, B, A> => endpoint;
}

const isWrite = (endpoint: Pick<Endpoint, "method">) => endpoint.method !== "get";

/**
 * Every status an endpoint can answer besides its success status, in one place (the OpenAPI document
 * and the contract tests read it): 400 bad input, 401 bad token and 431 huge headers everywhere; 413 and 415 where a
 * JSON body is read; 429 where a rate limit applies; 503 for writes (a full disk); and what the
 * handler declares. GETs can answer 304 to If-None-Match (ETags).
 */
export function answeredStatuses(endpoint: AnyEndpoint): number[] {
  // 431: headers over Node's 16 KB limit, answered before routing (server/http/client-errors.ts).
  const common = [400, 401, 431];
  if (endpoint.body) common.push(413, 415);
  if (endpoint.rateLimited) common.push(429);
  if (isWrite(endpoint)) common.push(503);
  if (endpoint.method === "get") common.push(304);
  return [...new Set([...common, ...endpoint.errors])].sort((a, b) => a - b);
}

function parse<S>(schema: S | undefined, value: unknown, location: "params" | "query" | "body"): unknown {
  if (!schema) return undefined;
  const result = (schema as unknown as AnySchema).safeParse(value ?? {});
  if (!result.success) throw validationError(result.error, location);
  return result.data;
}

/**
 * The query as the handler understands it, for the cache key: paging in its one meaning (`size` is
 * an alias of `per_page`, which wins; page 1 and 10 a page when absent).
 */
function canonicalQuery(endpoint: AnyEndpoint): (query: unknown) => unknown {
  const paged = endpoint.query instanceof z.ZodObject && "per_page" in endpoint.query.shape && "size" in endpoint.query.shape;
  if (!paged) return (query) => query;
  return (query) => {
    const { page: _page, per_page: _perPage, size: _size, ...rest } = query as Record<string, unknown>;
    return { ...rest, paging: toPaging(query as Parameters<typeof toPaging>[0]) };
  };
}

const expressPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ":$1");

export function mountEndpoints<D>(router: Router, endpoints: AnyEndpoint<D>[], deps: D, cache: ResponseCache): void {
  const readJson = express.json({ limit: JSON_BODY_LIMIT });
  for (const endpoint of endpoints) {
    const write = isWrite(endpoint) && endpoint.keepsCachedAnswers !== true;
    const cacheable = endpoint.method === "get" && endpoint.response !== "binary";
    const keyQuery = canonicalQuery(endpoint);
    // A guest's cached answer may be given before routing next time (ResponseCache.answerEarly) only where nothing but
    // the request's target decides it: a public read with nothing of its own before the handler (no rate limit).
    const answerableEarly = endpoint.auth === "none" && !endpoint.before?.length && !endpoint.rateLimited;
    /**
     * The caller's answer: the guest's (kept, or computed by the handler as for a guest and kept as theirs) with the
     * caller's flags (docs/decisions/028); undefined when it differs in more than flags and the handler must compute it
     * for them.
     */
    async function ownFromShared(
      key: string,
      startVersion: string,
      user: Caller,
      flags: ViewerFlags<D>,
      guest: Parameters<typeof endpoint.handle>[0],
    ): Promise<unknown> {
      if (ownAnswerBeforeShared(user, flags.hidesBlocked === true)) return undefined;
      let shared = cache.keptValue(key, startVersion);
      if (shared === undefined) {
        shared = await endpoint.handle(guest);
        cache.keepGuestAnswer(key, shared, startVersion);
      }
      if (ownAnswerReason(user, flags.hidesBlocked === true, shared) !== null) return undefined;
      return withFlags(shared, await flags.read(idsOf(shared), user, deps));
    }
    const handler: RequestHandler = async (req, res) => {
      // The data version as the request starts; kept answers count only while it holds.
      const startVersion = cacheable ? await cache.refresh() : "";
      const user = res.locals.user as Caller | null;
      if (endpoint.auth === "required" && !user) throw unauthorized();
      const params = parse(endpoint.params, req.params, "params");
      const query = parse(endpoint.query, req.query, "query");
      // Keyed by the validated values: `?page=1&junk=x` and `?page=1`, or `size` and `per_page`, are one entry.
      const variant = endpoint.variant ? await endpoint.variant(user, deps) : "";
      const baseKey = cacheable ? cache.keyOf(endpoint.path, params, keyQuery(query)) : null;
      const key = baseKey !== null && variant !== "" ? `${baseKey}\n${variant}` : baseKey;
      if (key !== null && cache.serve(key, req, res, startVersion, answerableEarly)) return;
      if (key !== null && user && endpoint.viewerFlags) {
        const guest = { params, query, body: undefined, user: null, variant, deps, req, res };
        const own = await ownFromShared(key, startVersion, user, endpoint.viewerFlags, guest);
        // Never kept: it is this caller's.
        if (own !== undefined) return cache.sendJson(null, req, res, endpoint.status ?? 200, own, startVersion);
      }
      // Whether the handler looked at the caller decides whether its answer may be shared between
      // callers by the response cache (handlers take only the fields they use).
      let readUser = false;
      const ctx = {
        params,
        query,
        body: parse(endpoint.body, req.body, "body"),
        get user() {
          readUser = true;
          return user;
        },
        variant,
        deps,
        req,
        res,
      };
      const { result, changed } = endpoint.reportsChanges
        ? await trackWrites(() => endpoint.handle(ctx))
        : { result: await endpoint.handle(ctx), changed: true };
      // Services commit before they resolve and a thrown error means nothing changed, so only a
      // resolved write moves the data version: before its answer is sent, whether or not the
      // client is still there (docs/decisions/006-response-cache.md). A write that reported no change leaves it.
      if (write && changed) await cache.dataChanged();
      else if (isWrite(endpoint) && changed && user) await cache.ownDataChanged(user.id);
      if (endpoint.response === "binary" || res.headersSent) {
        // A public image's answer (images.router.ts): its target may be answered before routing next time.
        const keptImage = res.locals.keptImage as string | undefined;
        if (answerableEarly && keptImage !== undefined && !user) cache.rememberImage(req, res, keptImage);
        return;
      }
      const shared = endpoint.auth === "none" && !readUser;
      const chosen = res.locals.successStatus as number | undefined;
      const status = chosen !== undefined && endpoint.otherStatuses?.includes(chosen) ? chosen : (endpoint.status ?? 200);
      cache.sendJson(key, req, res, status, result, startVersion, shared, endpoint.viewerFlags !== undefined);
    };
    const guard: RequestHandler = (_req, res, next) => {
      // Uploads and bodies: the token is checked before a possibly large body is read.
      if (endpoint.auth === "required" && !res.locals.user) return next(unauthorized());
      next();
    };
    const bodyParser = endpoint.body ? [readCompressedJson, readJson] : [];
    router[endpoint.method](expressPath(endpoint.path), guard, ...bodyParser, ...(endpoint.before ?? []), handler);
  }
}
