import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";

/**
 * The host the request is addressed to, read as Remix's own CSRF check reads it (@remix-run/server-runtime's
 * throwIfPotentialCSRFAttack): the first X-Forwarded-Host, else Host. A browser cannot set X-Forwarded-Host on a
 * cross-site form post (it is not a header a form sends), so only a proxy in front or a non-browser client sets it.
 */
const hostOf = (req: ExpressRequest): string | undefined => {
  const forwarded = req.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || req.get("host") || undefined;
};

/** Whether `host` is a host (and port) a URL can name: Remix builds every request's URL from it. */
function isUrlHost(host: string): boolean {
  try {
    return new URL(`http://${host}`).host !== "" && !/[/?#@\\]/.test(host);
  } catch {
    return false;
  }
}

function refuse(res: ExpressResponse, status: 400 | 403, title: string, text: string) {
  res
    .status(status)
    .set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" })
    .send(`<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${text}</p></html>`);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one form post taken from any origin: a notification mail's one-click unsubscribe (RFC 8058, docs/web.md
 * "Notification mail"), which a mail program posts to the List-Unsubscribe URL from its own servers or pages. It acts
 * only on the signed token in its URL or body, never on a cookie, so another site posting it can do nothing the
 * token's holder could not.
 */
const ANY_ORIGIN_POSTS = new Set(["/unsubscribe"]);

/**
 * The web app's checks on a request's Host and Origin headers, before anything reads its body (docs/web.md §10):
 *
 * - A Host header that names no host (`a b`, `[`) is a 400: every page's URL is built from it, and a Host with a
 *   path in it would move the path a page cache key names.
 * - A form post (any method but GET, HEAD and OPTIONS) whose `Origin` is not this site's is a 403 with a plain page,
 *   and nothing is done. This is the same rule as Remix's CSRF check (the origin's host must equal the host above;
 *   `Origin: null` from a sandboxed frame is refused too), which throws and answered 500; a request without `Origin`
 *   (not a browser's form) goes on, as it does in Remix. Only POST /unsubscribe goes on from any origin
 *   (ANY_ORIGIN_POSTS).
 */
export function requestChecks(): RequestHandler {
  return (req, res, next) => {
    const host = hostOf(req);
    if (host !== undefined && !isUrlHost(host)) return refuse(res, 400, "Bad request", "This request names no valid host.");
    if (SAFE_METHODS.has(req.method)) return next();
    if (req.method === "POST" && ANY_ORIGIN_POSTS.has(req.path)) {
      // Remix's own check would refuse another site's Origin (a 500): the header goes, as for a post without one.
      delete req.headers.origin;
      return next();
    }
    const origin = req.get("origin");
    if (origin === undefined) return next();
    let originHost: string | null = null;
    try {
      originHost = origin === "null" ? null : new URL(origin).host;
    } catch {
      // Not a URL: refused below.
    }
    if (originHost === null || originHost !== host) {
      return refuse(res, 403, "Forbidden", "This form was sent from another site, so nothing was done. Go back and send it from Inkwell.");
    }
    next();
  };
}
