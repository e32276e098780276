import type { Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import type { AuthUser } from "./auth.ts";
import { unauthorized, validationError } from "./errors.ts";
import type { ResponseCache } from "./response-cache.ts";

type Method = "get" | "post" | "put" | "delete";
type AnySchema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<P, Q, B, D> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The caller, when a valid token was sent; required endpoints always have one. */
  user: AuthUser | null;
  deps: D;
  req: Request;
  res: Response;
}

/**
 * One API call: its path, its schemas and its handler. The same declaration validates the
 * request at the edge, mounts the Express route and writes the call into /openapi.json.
 */
export interface Endpoint<D = unknown, P = unknown, Q = unknown, B = unknown> {
  method: Method;
  /** OpenAPI form, `/hubs/{name}`; mounted on Express as `/hubs/:name`. */
  path: string;
  summary: string;
  tag: string;
  auth: "none" | "required";
  params?: P;
  query?: Q;
  body?: B;
  /** multipart/form-data upload with one file in `file` (handled by `before`). */
  upload?: boolean;
  /** Success status and body schema; "binary" for image bytes. */
  status?: number;
  response: AnySchema | "binary";
  /** Error statuses this call can answer, besides 400 and 401 for a bad token. */
  errors: number[];
  /** Middleware that runs before validation (multer for uploads). */
  before?: RequestHandler[];
  handle(ctx: HandlerContext<P, Q, B, D>): unknown;
}

/** `const endpoint = endpointsFor<Services>()` gives a typed declaration helper for one app's services. */
export function endpointsFor<D>() {
  return <P extends AnySchema | undefined = undefined, Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined>(
    endpoint: Endpoint<D, P, Q, B>,
  ): Endpoint<D, P, Q, B> => endpoint;
}

function parse<S>(schema: S | undefined, value: unknown, location: "params" | "query" | "body"): unknown {
  if (!schema) return undefined;
  const result = (schema as unknown as AnySchema).safeParse(value ?? {});
  if (!result.success) throw validationError(result.error, location);
  return result.data;
}

export const expressPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ":$1");

export function mountEndpoints<D>(router: Router, endpoints: Endpoint<D, any, any, any>[], deps: D, cache: ResponseCache): void {
  for (const endpoint of endpoints) {
    const handler: RequestHandler = async (req, res) => {
      const startVersion = cache.currentVersion();
      const user = res.locals.user as AuthUser | null;
      if (endpoint.auth === "required" && !user) throw unauthorized();
      // Whether the handler looked at the caller decides whether its answer may be shared between
      // callers by the response cache (handlers take only the fields they use).
      let readUser = false;
      const ctx = {
        params: parse(endpoint.params, req.params, "params"),
        query: parse(endpoint.query, req.query, "query"),
        body: parse(endpoint.body, req.body, "body"),
        get user() {
          readUser = true;
          return user;
        },
        deps,
        req,
        res,
      };
      const result = await endpoint.handle(ctx as HandlerContext<any, any, any, D>);
      if (endpoint.response === "binary" || res.headersSent) return;
      const shared = endpoint.auth === "none" && !readUser;
      cache.sendJson(req, res, endpoint.status ?? 200, result, startVersion, shared);
    };
    const guard: RequestHandler = (_req, res, next) => {
      // Uploads check the token before reading a possibly large body.
      if (endpoint.auth === "required" && !res.locals.user) return next(unauthorized());
      next();
    };
    router[endpoint.method](expressPath(endpoint.path), guard, ...(endpoint.before ?? []), handler);
  }
}
