// One check of the bearer token per page, when the web app calls the API in the same process (web/api-in-process.ts;
// docs/web.md "What a page costs"). A signed-in page makes 3–7 API calls with the same token, most of them at once;
// over HTTP each verifies the token's signature and reads the user's row. In process, the dispatch gives every call of
// one page the same `PageCallers` (on the request, under a symbol: nothing a client sends can name it), and the page's
// reads share the first read's check.
//
// Revocation is unchanged between pages: each page checks the token again, so a revoked token, an ended session or a
// suspended user stops at the next page. Within a page, a write (logout, a password change, anything not GET or HEAD)
// is checked itself and makes the page's later reads check again. A failed check is never shared: each call that
// would have shared it makes its own, and answers its own 401.
import type { RequestHandler } from "express";
import type { Caller } from "./auth.ts";

/**
 * Where the in-process dispatch puts the page's `PageCallers` on each call's request: a registered symbol, which
 * web/api-in-process.ts names too (the web app imports nothing else of the API's but its rules).
 */
export const PAGE_CALLERS: unique symbol = Symbol.for("inkwell.pageCallers");

/** One page's checked callers, by Authorization header: the check's outcome (null: it failed), shared by its reads. */
export type PageCallers = Map<string, Promise<Caller | null>>;

type WithPageCallers = { [PAGE_CALLERS]?: PageCallers };

/** The page's callers of a request, when the in-process dispatch set them (web/api-in-process.ts). */
function pageCallersOf(req: object): PageCallers | undefined {
  return (req as WithPageCallers)[PAGE_CALLERS];
}

/**
 * `check` (the bearer token's middleware, which sets `res.locals.user` or fails with a 401) run once per page for the
 * page's reads; any other request runs it as it is.
 */
export function oncePerPage(check: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const callers = pageCallersOf(req);
    const header = req.headers.authorization;
    if (!callers || header === undefined) return check(req, res, next);
    if (req.method !== "GET" && req.method !== "HEAD") {
      // A write may end the session: the page's reads after it check the token again.
      callers.clear();
      return runCheck(check, req, res, (err) => {
        callers.clear();
        next(err);
      });
    }
    const shared = callers.get(header);
    if (shared) {
      void shared.then((caller) => {
        if (!caller) return runCheck(check, req, res, next);
        // Its own copy: nothing one call does to its caller reaches another call.
        res.locals.user = { ...caller };
        next();
      });
      return;
    }
    let settle: (caller: Caller | null) => void = () => {};
    callers.set(header, new Promise<Caller | null>((resolve) => (settle = resolve)));
    runCheck(check, req, res, (err) => {
      const caller = err === undefined ? (res.locals.user as Caller | null) : null;
      if (!caller) callers.delete(header);
      settle(caller && Object.freeze({ ...caller, token: Object.freeze({ ...caller.token }) }));
      next(err);
    });
  };
}

/** Runs `check` with `done` called once, whether it calls next or its promise rejects (Express 5 handlers may be async). */
function runCheck(
  check: RequestHandler,
  req: Parameters<RequestHandler>[0],
  res: Parameters<RequestHandler>[1],
  done: (err?: unknown) => void,
) {
  let called = false;
  const once = (err?: unknown) => {
    if (called) return;
    called = true;
    done(err);
  };
  const result: unknown = check(req, res, once);
  if (result instanceof Promise) result.catch(once);
}
