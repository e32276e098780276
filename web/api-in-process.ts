// The web app's API calls dispatched straight into the API's Express app when both run in one process
// (`npm start`, the image): no socket, no HTTP parsing, no undici (docs/web.md §1).
// light-my-request (Fastify's request injector) makes the request and response; the API sees what it
// sees over loopback HTTP: the method, path and query, the headers, the body, and 127.0.0.1 as the
// peer, so its TRUST_PROXY ("loopback" by default) believes the X-Forwarded-For naming the visitor.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express } from "express";
import { inject } from "light-my-request";
import type { ApiAnswer, ApiTransport } from "../app/lib/api.server.ts";

export type ExpressApp = Express;

/** What the dispatch uses of an Express app: its request and response prototypes, and app.handle (not in Express's types). */
interface Handling {
  request: object;
  response: object;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** The peer address the API sees: the web server's, as over loopback HTTP. */
export const IN_PROCESS_PEER = "127.0.0.1";

/** The symbol server/http/auth-per-page.ts reads the page's callers under (registered: both name it). */
const PAGE_CALLERS = Symbol.for("inkwell.pageCallers");

/** A transport for app/lib/api.server.ts that calls `app` in memory. */
export function inProcessApi(app: ExpressApp): ApiTransport {
  return transportOver(expressDispatch(app as unknown as Handling));
}

/**
 * Transports as `inProcessApi`'s, one for each page (web/main.ts makes one per request): the calls of one page share
 * the check of their bearer token (server/http/auth-per-page.ts; docs/web.md "What a page costs").
 */
export function inProcessPages(app: ExpressApp): () => ApiTransport {
  const dispatch = expressDispatch(app as unknown as Handling);
  return () => {
    // The API keeps the page's checked callers in it (server/http/auth-per-page.ts).
    const callers = new Map<string, unknown>();
    return transportOver((req, res) => {
      (req as unknown as Record<symbol, unknown>)[PAGE_CALLERS] = callers;
      dispatch(req, res);
    });
  };
}

function transportOver(dispatch: (req: IncomingMessage, res: ServerResponse) => void): ApiTransport {
  return async (url, { method, headers, body, signal }) => {
    // As fetch: a call whose signal has already fired is not sent, and a fired signal ends it at once.
    signal.throwIfAborted();
    // The call's own signal, so that nothing of the call stays listening on `signal` once it is answered.
    const call = new AbortController();
    const abort = () => call.abort(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    try {
      const answer = inject(dispatch, {
        method,
        url: url.href,
        // As fetch sends a POST or PUT without a body (light-my-request counts only a payload it has).
        headers: body === undefined && (method === "POST" || method === "PUT") ? { ...headers, "content-length": "0" } : headers,
        payload: body,
        remoteAddress: IN_PROCESS_PEER,
        // The API sees a client that went away as over HTTP: its request is destroyed.
        signal: call.signal,
        // The options are ours: skip the per-call schema check.
        validate: false,
      });
      const res = await Promise.race([answer, rejectedOnAbort(call.signal)]);
      const text = res.payload;
      return {
        status: res.statusCode,
        statusText: res.statusMessage,
        ok: res.statusCode >= 200 && res.statusCode < 300,
        text: () => Promise.resolve(text),
      } satisfies ApiAnswer;
    } finally {
      signal.removeEventListener("abort", abort);
    }
  };
}

/**
 * Given an Express app itself, light-my-request swaps the prototype of Express's request and response
 * objects, which every Express app of the process shares, for its own fakes: a real HTTP request of the
 * API or the web app would then crash (fastify/light-my-request#333, reverted). So it is given a plain
 * handler, which runs the app with prototypes of its own: Express's request and response methods over
 * light-my-request's fakes, as light-my-request sets them up for Express, made once per app and used
 * only by injected requests.
 */
function expressDispatch(app: Handling) {
  let twin: Handling | undefined;
  return (req: IncomingMessage, res: ServerResponse) => {
    twin ??= Object.create(app, {
      request: { value: ownPrototype(app, app.request, req) },
      response: { value: ownPrototype(app, app.response, res) },
    }) as Handling;
    // app.handle sets the prototypes of req and res to `this.request` and `this.response`, then routes.
    twin.handle(req, res);
  };
}

/**
 * What `app.request` (or `app.response`) is, `app` over a copy of Express's methods, but over the prototype of
 * light-my-request's `fake` instead of Node's IncomingMessage (or ServerResponse).
 */
function ownPrototype(app: Handling, appProto: object, fake: object): object {
  const expressMethods = Object.getPrototypeOf(appProto) as object;
  const methods = Object.create(Object.getPrototypeOf(fake) as object, Object.getOwnPropertyDescriptors(expressMethods)) as object;
  return Object.create(methods, { app: { value: app } }) as object;
}

/** Rejects with the signal's reason when it fires (what fetch rejects with). */
function rejectedOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
  });
}
