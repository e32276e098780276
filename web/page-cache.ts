import crypto from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/node";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { sharedRead } from "../common/shared-read.ts";
import type { ApiTransport } from "../app/lib/api.server.ts";

const gzip = promisify(zlib.gzip);

/**
 * Stands for the CSP nonce in the page cache's renders: in a page it does not keep, replaced with the response's
 * nonce, only inside a nonce attribute; in a kept page, it marks the inline scripts to allow by their hashes. Random
 * per process, so no post can be written to contain it.
 */
export const NONCE_PLACEHOLDER = `inkwell-nonce-${crypto.randomBytes(18).toString("base64url")}`;
const NONCE_ATTRIBUTE = ` nonce="${NONCE_PLACEHOLDER}"`;

/** The page with this response's nonce in its nonce attributes. */
const withNonce = (html: string, nonce: string) => html.replaceAll(NONCE_ATTRIBUTE, ` nonce="${nonce}"`);

/**
 * A kept page without nonces, so that its bytes can be the same for every answer: the nonce attributes of the
 * render are removed, and the inline scripts that carried one are listed by their CSP hashes ('sha256-...') instead.
 * No other script gets a hash: only the render writes the placeholder.
 */
export function hashInlineScripts(html: string): { html: string; hashes: string[] } {
  const hashes = new Set<string>();
  let out = "";
  let from = 0;
  for (let at = html.indexOf(NONCE_ATTRIBUTE); at !== -1; at = html.indexOf(NONCE_ATTRIBUTE, from)) {
    out += html.slice(from, at);
    from = at + NONCE_ATTRIBUTE.length;
    if (!html.endsWith("<script", at)) continue;
    const open = html.indexOf(">", from);
    const close = html.indexOf("</script>", open);
    if (open === -1 || close === -1) continue;
    const code = html.slice(open + 1, close);
    // Browsers hash the script as parsed, after HTML turned its line breaks into \n.
    if (code) hashes.add(`'sha256-${crypto.createHash("sha256").update(code.replace(/\r\n?/g, "\n")).digest("base64")}'`);
  }
  return { html: out + html.slice(from), hashes: [...hashes] };
}

/** Whether the page cache sent this answer from its stored bytes, which compression() must leave as they are. */
export const sentAsStored = (res: ExpressResponse) => res.locals.pageCacheStored === true;

/** What a page's key is read from: the URL and headers the render's Request is then made of. */
export type RequestHead = Pick<Request, "url" | "headers">;

export interface PageCacheOptions {
  build: ServerBuild;
  /** Where the web server reaches the API (for GET /data-version). */
  apiUrl: string;
  /** How: the API's app in memory when it runs in this process (web/api-in-process.ts); fetch unless given. */
  apiTransport?: ApiTransport;
  /** The load context for a render, given the nonce to use and the request. */
  loadContext: (nonce: string, req: ExpressRequest) => AppLoadContext;
  /**
   * The session of the request as the app reads it (the same function, on the URL and headers the render's Request is
   * made of): null for a guest, "expired" when the app will end it (that page is rendered as usual, never kept).
   */
  sessionOf: (request: RequestHead) => Promise<{ token: string; exp: number } | null | "expired">;
  /** How long a signed-in visitor's page is kept at most (the few relative times a page shows, "3 minutes ago"). */
  signedInMaxAgeMs: number;
  /**
   * Everything else of the request that changes a page (the reader's settings and mature-notice cookies, a prefetch),
   * as the app itself reads it from the URL and headers the render gets: part of the key. Reading it any other way (a
   * repeated cookie taken last-wins here and first-wins by the app) would keep one visitor's page under another's key.
   */
  varyOf: (request: RequestHead) => Promise<unknown[]>;
  maxEntries: number;
  /** How long GET /data-version may take; past it the page renders as usual. */
  timeoutMs: number;
}

interface Entry {
  version: string;
  /** The render's headers, with this page's own Content-Security-Policy and ETag. */
  headers: [string, string][];
  /** The page's bytes, and gzipped: made once, sent as they are (compression() leaves an encoded answer alone). */
  identity: Buffer;
  gzip: Buffer;
  /** When a signed-in visitor's page stops being served (Infinity for guests' pages). */
  expiresAt: number;
}

/** What decides which kept page a request may get. */
interface Keyed {
  key: string;
  /** The signed-in visitor's API token: their pages are checked against their own data version. */
  token?: string;
  /** Until when a page rendered now may be served. */
  expiresAt: number;
}

/**
 * Rendered pages, reused while the API's data version is unchanged: guests' pages shared by all guests, and each
 * signed-in session's own pages kept for that session alone.
 *
 * A guest's page depends only on the URL, what `varyOf` reads (the reader's cookies) and the API's data, so it is
 * kept and checked against GET /data-version, which every API write changes: a page is served only if no write
 * happened since it was rendered (docs/decisions/007-guest-page-cache.md). A signed-in visitor's page also depends
 * on who they are: it is keyed by their session as well, checked against the version the API answers to their
 * token (which also moves with their own reading progress), and kept at most `signedInMaxAgeMs` and never past the
 * session's end (docs/decisions/020-signed-in-page-cache.md). Concurrent requests share one version check (per
 * session when signed in), but only a check sent after they arrived. Anything that is not a 200 HTML page that
 * sets no cookie is rendered every time.
 */
export function createPageCache(options: PageCacheOptions) {
  const render = createRequestHandler(options.build, "production");
  const guestPages = new Map<string, Entry>();
  const signedInPages = new Map<string, Entry>();
  const versionUrl = `${options.apiUrl}/data-version`;
  // One check at a time, shared by the requests that arrive while it is out (each gets a version read after it came).
  const send = options.apiTransport ?? fetch;
  const guestVersion = sharedRead(() => fetchVersion(send, versionUrl, options.timeoutMs));
  // The same per session; dropped when the map grows past the pages kept (a check is cheap to remake).
  const sessionVersions = new Map<string, () => Promise<string>>();
  const versionOf = (token: string) => {
    let check = sessionVersions.get(token);
    if (!check) {
      if (sessionVersions.size >= options.maxEntries) sessionVersions.clear();
      sessionVersions.set(token, (check = sharedRead(() => fetchVersion(send, versionUrl, options.timeoutMs, token))));
    }
    return check;
  };

  /**
   * The key of the page `request` is rendered into: read from what the render's Request is made of, as the render
   * reads it. Its URL is the one the render sees (built from the Host header too, which can even move its path), not
   * Express's originalUrl.
   */
  async function keyOf(request: RequestHead): Promise<Keyed | null> {
    const [session, vary] = await Promise.all([options.sessionOf(request), options.varyOf(request)]);
    // The footer's copyright year is the only thing on a page that is not data or the visitor.
    const parts = [request.url, new Date().getFullYear(), JSON.stringify(vary)];
    if (session === null) return { key: parts.join("\u0000"), expiresAt: Infinity };
    if (session === "expired") return null;
    const sessionKey = crypto.createHash("sha256").update(session.token).digest("base64url");
    return {
      key: [sessionKey, ...parts].join("\u0000"),
      token: session.token,
      expiresAt: Math.min(Date.now() + options.signedInMaxAgeMs, session.exp * 1000),
    };
  }

  const middleware: RequestHandler = async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // Document requests only; Remix's data requests (*.data) are left to the normal path.
    if (req.path.endsWith(".data")) return next();
    // The key and the render read the same URL and headers; the Request itself (with its abort signal the dearest
    // part of this, measured) is made only when the page is rendered.
    const head = requestHead(req);
    const keyed = await keyOf(head);
    if (keyed === null) return next();
    const { key, token } = keyed;
    const entries = token ? signedInPages : guestPages;
    const version = await (token ? versionOf(token) : guestVersion)().catch(() => null);
    if (version === null) return next(); // the API is unreachable or refused the token: render as usual
    const nonce = String(res.locals.nonce ?? "");
    let entry = entries.get(key);
    const current = entry !== undefined && entry.version === version && entry.expiresAt > Date.now();
    res.setHeader("X-Page-Cache", current ? "hit" : "miss");
    if (!entry || !current) {
      const response = await render(toFetchRequest(req, head), options.loadContext(NONCE_PLACEHOLDER, req));
      const type = response.headers.get("content-type") ?? "";
      // Pages and the Atom feeds (small, the same for everyone); never the sitemaps, up to megabytes each.
      const keep = response.status === 200 && !response.headers.has("set-cookie") && /^(text\/html|application\/atom\+xml)/.test(type);
      if (!keep) {
        res.status(response.status);
        for (const [name, value] of response.headers) res.append(name, value);
        if (type.startsWith("text/html")) res.send(withNonce(await response.text(), nonce));
        // Resource routes answer bytes too (image previews, the account export): passed on as they come.
        else if (response.body) await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res).catch(() => res.destroy());
        else res.end();
        return;
      }
      const fresh = await keptPage(version, response, res, nonce, keyed.expiresAt);
      entries.delete(key);
      entries.set(key, fresh);
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      entry = fresh;
    } else {
      entries.delete(key);
      entries.set(key, entry);
    }
    res.status(200);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    const gzipped = req.acceptsEncodings("gzip", "identity") === "gzip";
    if (gzipped) res.setHeader("Content-Encoding", "gzip");
    res.locals.pageCacheStored = true;
    // res.send answers 304 when the request's If-None-Match holds the ETag, and no body to a HEAD.
    res.send(gzipped ? entry.gzip : entry.identity);
  };

  return { middleware };
}

/**
 * A render to keep: its HTML without nonces, gzipped once, with an ETag of its own and this response's CSP with the
 * nonce replaced by the hashes of the page's inline scripts (so a kept page allows exactly the scripts it holds).
 */
async function keptPage(version: string, response: Response, res: ExpressResponse, nonce: string, expiresAt: number): Promise<Entry> {
  const { html, hashes } = hashInlineScripts(await response.text());
  const identity = Buffer.from(html);
  const headers = [...response.headers].filter(([name]) => name !== "set-cookie");
  const policy = res.getHeader("Content-Security-Policy");
  if (typeof policy === "string") {
    headers.push(["Content-Security-Policy", policy.replace(` 'nonce-${nonce}'`, hashes.map((h) => ` ${h}`).join(""))]);
  }
  headers.push(["ETag", `W/"${crypto.createHash("sha1").update(identity).digest("base64url")}"`], ["Vary", "Accept-Encoding"]);
  return { version, headers, identity, gzip: await gzip(identity), expiresAt };
}

/** GET /data-version; with a signed-in visitor's token, the version as they see it (their reading progress moves it too). */
async function fetchVersion(send: ApiTransport, url: string, timeoutMs: number, token?: string): Promise<string> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const res = await send(new URL(url), { method: "GET", headers, body: undefined, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`GET /data-version answered ${res.status}`);
  return (JSON.parse(await res.text()) as { version: string }).version;
}

/** The URL as a Request parses it (from the Host header too, which can even move the path) and the headers. */
function requestHead(req: ExpressRequest): RequestHead {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return { url: new URL(`${req.protocol}://${req.get("host")}${req.originalUrl}`).href, headers };
}

function toFetchRequest(req: ExpressRequest, head: RequestHead): Request {
  const controller = new AbortController();
  req.once("close", () => controller.abort());
  return new Request(head.url, { headers: head.headers, signal: controller.signal });
}
