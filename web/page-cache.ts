import crypto from "node:crypto";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/node";
import type { Request as ExpressRequest, RequestHandler } from "express";

/**
 * Stands for the per-response CSP nonce in a kept page; replaced on every answer, only inside a
 * nonce attribute. Random per process, so no post can be written to contain it.
 */
export const NONCE_PLACEHOLDER = `inkwell-nonce-${crypto.randomBytes(18).toString("base64url")}`;
const NONCE_ATTRIBUTE = `nonce="${NONCE_PLACEHOLDER}"`;

/** The page with this response's nonce in its nonce attributes. */
const withNonce = (html: string, nonce: string) => html.replaceAll(NONCE_ATTRIBUTE, `nonce="${nonce}"`);

export interface GuestPageCacheOptions {
  build: ServerBuild;
  /** Where the web server reaches the API (for GET /data-version). */
  apiUrl: string;
  /** The load context for a render, given the nonce to use and the request. */
  loadContext: (nonce: string, req: ExpressRequest) => AppLoadContext;
  /** A request carrying this cookie is a signed-in visitor's: never cached. */
  sessionCookie: string;
  /** Cookies that change a guest's page (the reader's mode): part of the key. */
  varyCookies: string[];
  maxEntries: number;
  /** How long GET /data-version may take; past it the page renders as usual. */
  timeoutMs: number;
}

interface Entry {
  version: string;
  headers: [string, string][];
  html: string;
}

/**
 * Rendered pages for guests, reused while the API's data version is unchanged.
 *
 * A guest's page depends only on the URL, the reader-mode cookie and the API's data, so it is kept
 * and checked against GET /data-version, which every API write changes: a page is served only if
 * no write happened since it was rendered (docs/decisions/007-guest-page-cache.md). Concurrent
 * requests share one version check, but only a check sent after they arrived. Signed-in visitors
 * always get a fresh render, and so does anything that is not a 200 HTML page without cookies.
 */
export function createGuestPageCache(options: GuestPageCacheOptions) {
  const render = createRequestHandler(options.build, "production");
  const entries = new Map<string, Entry>();
  const versions = new VersionChecks(`${options.apiUrl}/data-version`, options.timeoutMs);

  function keyOf(req: ExpressRequest): string | null {
    if (req.method !== "GET") return null;
    const cookies = parseCookies(req.headers.cookie);
    if (cookies.has(options.sessionCookie)) return null;
    // Document requests only; Remix's data requests (*.data) are left to the normal path.
    if (req.path.endsWith(".data")) return null;
    // The footer's copyright year is the only thing on a page that is not data.
    return [req.originalUrl, new Date().getFullYear(), ...options.varyCookies.map((c) => cookies.get(c) ?? "")].join("\u0000");
  }

  const middleware: RequestHandler = async (req, res, next) => {
    const key = keyOf(req);
    if (key === null) return next();
    const version = await versions.current().catch(() => null);
    if (version === null) return next(); // the API is unreachable: render as usual (it shows the error)
    const nonce = String(res.locals.nonce ?? "");
    let entry = entries.get(key);
    res.setHeader("X-Page-Cache", entry?.version === version ? "hit" : "miss");
    if (!entry || entry.version !== version) {
      const response = await render(toFetchRequest(req), options.loadContext(NONCE_PLACEHOLDER, req));
      const html = await response.text();
      const fresh: Entry = { version, headers: [...response.headers].filter(([name]) => name !== "set-cookie"), html };
      // Pages and the Atom feeds (small, the same for everyone); never the sitemaps, up to megabytes each.
      const keep =
        response.status === 200 &&
        !response.headers.has("set-cookie") &&
        /^(text\/html|application\/atom\+xml)/.test(response.headers.get("content-type") ?? "");
      if (!keep) {
        res.status(response.status);
        for (const [name, value] of response.headers) res.append(name, value);
        res.send(withNonce(html, nonce));
        return;
      }
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
    res.send(withNonce(entry.html, nonce));
  };

  return { middleware };
}

/** One GET /data-version at a time; callers that arrive while one is running wait for the next. */
class VersionChecks {
  private running: Promise<string> | null = null;
  private next: Promise<string> | null = null;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** A version read after this call was made. */
  current(): Promise<string> {
    if (!this.running) {
      this.running = this.fetchVersion().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    // The running check may have been sent before this caller arrived: share the one after it.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.current();
      });
    return this.next;
  }

  private async fetchVersion(): Promise<string> {
    const res = await fetch(this.url, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`GET /data-version answered ${res.status}`);
    return ((await res.json()) as { version: string }).version;
  }
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

function toFetchRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  req.once("close", () => controller.abort());
  return new Request(`${req.protocol}://${req.get("host")}${req.originalUrl}`, { headers, signal: controller.signal });
}
