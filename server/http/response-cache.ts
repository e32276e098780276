import { createHash } from "node:crypto";
import type { OutgoingHttpHeader } from "node:http";
import type { Request, Response } from "express";
import { memorySharedState, type DataVersionStore } from "../shared-state.ts";
import { sendWithEtag } from "./conditional-send.ts";

const MAX_BODY_BYTES = 256 * 1024;
/** What an entry costs besides its body and key: the object, the ETag, the map slot. */
const ENTRY_OVERHEAD_BYTES = 200;

interface Entry {
  version: string;
  status: number;
  body: Buffer;
  etag: string;
  /** The answer did not depend on who asked: any caller may get it, signed in or not. */
  shared: boolean;
  /**
   * The answer as a value, frozen, for endpoints that build a signed-in caller's answer from it (their own flags set on
   * a copy: server/viewer/shared-answers.ts); absent for the others.
   */
  value?: unknown;
  bytes: number;
}

/** What the kept value of an answer costs besides its JSON, roughly: JavaScript objects take about twice its bytes. */
const VALUE_BYTES_PER_JSON_BYTE = 2;

/** Frozen all the way down: a kept value is shared by every caller, and a write to it would be a bug that leaks. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export interface ResponseCacheOptions {
  /** How many responses to keep (least recently used go first); 0 turns the cache off. */
  maxEntries: number;
  /** How many bytes of answers (and keys) to keep at most; default 32 MB. */
  maxBytes?: number;
  /** Where the data version lives: this process (default) or Redis, shared by every instance. */
  versions?: DataVersionStore;
}

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
const JSON_TYPE = "application/json; charset=utf-8";
/** Longer request targets are never remembered for the early answer (they take the normal path). */
const MAX_EARLY_URL_LENGTH = 1024;

/**
 * A request target answered from the cache before (`answerEarly`): the entry's key, and the headers every middleware
 * before the handler had set on that normal answer (Helmet's, CORS's), as raw [name, value, ...] pairs in their order.
 * An image's: the key of its bytes in the image byte cache, every header of its answer but the ETag and the length,
 * and the Accept header it was asked with (which picks WebP or not) and the type it was answered in.
 */
interface KnownUrl {
  key: string;
  headers: OutgoingHttpHeader[];
  image?: { accept: string | undefined; contentType: string };
}

/** Kept image bytes, public and checked at the data version given; undefined otherwise (server/images). */
type KeptImageLookup = (key: string, version: string) => { bytes: Buffer; etag: string; contentType: string } | undefined;

/** The headers an image answer ends with (conditional-send.ts): left out of what is remembered, written anew. */
const IMAGE_ANSWER_OWN = new Set(["etag", "content-length"]);

/** The headers already set on `res` (but those named in `except`, lower case), in the order they are written, with their names as set. */
function headersSoFar(res: Response, except?: Set<string>): KnownUrl["headers"] {
  const flat: KnownUrl["headers"] = [];
  // getRawHeaderNames (Node 15.13+): the names as set, which is how they are written; not in this @types/node.
  for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames())
    if (!except?.has(name.toLowerCase())) flat.push(name, res.getHeader(name)!);
  return flat;
}

/**
 * Serialized JSON answers to GETs, keyed by the route and its validated params and query, reused
 * until the next write. One data version moves when a write endpoint's handler has resolved (its
 * transaction is committed), and an entry counts only while its version is current, so no reader
 * is served data older than an answered write (docs/decisions/006-response-cache.md). An answer
 * that read the caller (likedByMe, joinedByMe, their email) is kept for guests only and never built
 * for a signed-in caller; an answer of a public call that never looked at the caller (the lists) is
 * shared by everyone. Endpoints whose answers differ between callers only in the caller's own flags build a
 * signed-in caller's answer from the guest's kept value (`keptValue`) and flags read for them, and keep nothing of
 * theirs (docs/decisions/028-shared-answers-with-own-flags.md). With several instances the version lives in Redis:
 * every cached read first asks it (one round trip), so an answered write on one instance is never followed by an
 * older answer from another.
 */
export function createResponseCache({
  maxEntries,
  maxBytes = DEFAULT_CACHE_BYTES,
  versions = memorySharedState().dataVersion,
}: ResponseCacheOptions) {
  // The data version this process last saw; "" until it has asked.
  let version = "";
  const entries = new Map<string, Entry>();
  let totalBytes = 0;
  /** Guests' GET targets (the URL as sent) whose answer was served from the cache: what `answerEarly` knows. */
  const knownUrls = new Map<string, KnownUrl>();
  let keptImage: KeptImageLookup | undefined;
  const enabled = maxEntries > 0 && maxBytes > 0;

  /** Set by the bearer-token middleware, which runs first (server/http/auth.ts). */
  const signedIn = (res: Response) => res.locals.user != null;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  }

  /** The entry of an answer, kept under `key` when it may be reused (see sendJson). */
  function keep(
    key: string | null,
    status: number,
    value: unknown,
    startVersion: string,
    { shared, keepValue, guest }: { shared: boolean; keepValue: boolean; guest: boolean },
  ): Entry {
    const body = Buffer.from(JSON.stringify(value));
    const etag = `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
    const valueBytes = keepValue ? body.length * VALUE_BYTES_PER_JSON_BYTE : 0;
    const bytes = body.length + valueBytes + (key?.length ?? 0) * 2 + ENTRY_OVERHEAD_BYTES;
    const entry: Entry = { version: startVersion, status, body, etag, shared, bytes };
    const kept =
      key !== null && (shared || guest) && status === 200 && body.length <= MAX_BODY_BYTES && bytes <= maxBytes && startVersion === version;
    if (kept) {
      if (keepValue) entry.value = deepFreeze(value);
      remove(key);
      entries.set(key, entry);
      totalBytes += bytes;
      while (entries.size > maxEntries || totalBytes > maxBytes) remove(entries.keys().next().value!);
    }
    return entry;
  }

  function send(req: Request, res: Response, entry: Entry) {
    res.status(entry.status);
    res.setHeader("Content-Type", JSON_TYPE);
    sendWithEtag(req, res, entry.etag, entry.body);
  }

  /**
   * Remembers a guest's GET served from the cache by the normal path, with the headers set before the answer, so that
   * the next request for the same target can be answered before routing (`answerEarly`). Only requests that nothing
   * but their target decides: no Authorization header (no token to check), and only for endpoints that run nothing of
   * their own before the handler (`remember`: no rate limit, no upload). Bounded like the entries.
   */
  function rememberUrl(req: Request, res: Response, key: string, image?: KnownUrl["image"]) {
    const url = req.originalUrl;
    if (req.method !== "GET" || req.headers.authorization !== undefined || url.length > MAX_EARLY_URL_LENGTH) return;
    const known = knownUrls.get(url);
    if (known?.key === key && known.image?.accept === image?.accept && known.image?.contentType === image?.contentType) return;
    knownUrls.set(url, { key, headers: headersSoFar(res, image ? IMAGE_ANSWER_OWN : undefined), image });
    if (knownUrls.size > maxEntries) knownUrls.delete(knownUrls.keys().next().value!);
  }

  /** The early answer: what `send` and `sendWithEtag` write, as one writeHead with the remembered headers first. */
  function sendEarly(req: Request, res: Response, known: KnownUrl, entry: Entry) {
    const headers = [...known.headers, "Content-Type", JSON_TYPE, "ETag", entry.etag];
    if (req.headers["if-none-match"] === entry.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers.push("Content-Length", entry.body.length);
    res.writeHead(entry.status, headers);
    res.end(entry.body);
  }

  /**
   * An image's early answer, as the image endpoint and sendWithEtag write it, when its bytes are kept, public and
   * checked at this request's version, and asked for with the same Accept header; false otherwise.
   */
  function sendImageEarly(req: Request, res: Response, known: KnownUrl, image: NonNullable<KnownUrl["image"]>, startVersion: string) {
    if (req.headers.accept !== image.accept) return false;
    const kept = keptImage?.(known.key, startVersion);
    if (!kept || kept.contentType !== image.contentType) return false;
    const headers = [...known.headers, "ETag", kept.etag];
    if (req.headers["if-none-match"] === kept.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    headers.push("Content-Length", kept.bytes.length);
    res.writeHead(200, headers);
    res.end(kept.bytes);
    return true;
  }

  /** Nothing kept is current any more: free it now rather than when it falls out of the LRU order. */
  function moveTo(next: string) {
    if (next === version) return;
    version = next;
    entries.clear();
    totalBytes = 0;
  }

  async function refresh(): Promise<string> {
    moveTo(await versions.current());
    return version;
  }

  return {
    /** The cache key of a GET: its route and its validated params and query (not the URL as sent). */
    keyOf: (path: string, params: unknown, query: unknown): string | null =>
      enabled ? `${path}\n${JSON.stringify(params ?? null)}\n${JSON.stringify(query ?? null)}` : null,

    /**
     * Answers from the cache when it can; false when the caller must compute the answer. `startVersion` is what
     * this request's refresh answered: an entry of any other version is never served, whatever a concurrent
     * refresh left in `version`.
     */
    serve(key: string, req: Request, res: Response, startVersion: string, remember = false): boolean {
      const entry = entries.get(key);
      if (!entry || entry.version !== startVersion || startVersion !== version || (signedIn(res) && !entry.shared)) return false;
      // Most recently used last.
      entries.delete(key);
      entries.set(key, entry);
      if (remember) rememberUrl(req, res, key);
      send(req, res, entry);
      return true;
    },

    /**
     * Answers a guest's GET from the cache before anything else runs (Helmet, CORS, the token check, routing,
     * validation), when the same target was answered from the cache before (`serve` with `remember`) and its entry is
     * current: the same bytes and headers as the normal path's answer (docs/api.md "The response cache"). False: the
     * request goes on as usual. The data version is read first, as the normal path does.
     */
    async answerEarly(req: Request, res: Response): Promise<boolean> {
      if (req.method !== "GET" || req.headers.authorization !== undefined) return false;
      const known = knownUrls.get(req.url);
      if (!known) return false;
      let startVersion: string;
      try {
        startVersion = await refresh();
      } catch {
        // Redis away: the normal path meets the same failure and answers it as usual.
        return false;
      }
      if (known.image) return sendImageEarly(req, res, known, known.image, startVersion);
      const entry = entries.get(known.key);
      if (!entry || entry.version !== startVersion || startVersion !== version) return false;
      entries.delete(known.key);
      entries.set(known.key, entry);
      sendEarly(req, res, known, entry);
      return true;
    },

    /**
     * Where `answerEarly` finds image bytes: the image byte cache's public entries, checked at the version (app.ts).
     */
    answerImagesFrom(lookup: KeptImageLookup): void {
      keptImage = lookup;
    },

    /**
     * After a guest's public image answer (`key`: its bytes' key in the image byte cache), remembers its target for
     * `answerEarly`, with the Accept header it was asked with. Call once the answer is sent (mountEndpoints).
     */
    rememberImage(req: Request, res: Response, key: string): void {
      const contentType = res.getHeader("Content-Type");
      if (!enabled || (res.statusCode !== 200 && res.statusCode !== 304) || typeof contentType !== "string") return;
      rememberUrl(req, res, key, { accept: req.headers.accept, contentType });
    },

    /**
     * Sends a JSON answer, keeping it under `key` when it may be reused (null: never). `startVersion`
     * is the version when the request started: an answer computed across a write is sent but not
     * kept. `shared`: the answer is the same whoever asks (a public call that never read the caller).
     * `keepValue`: keep the value too, for `keptValue` (it is frozen then).
     */
    sendJson(
      key: string | null,
      req: Request,
      res: Response,
      status: number,
      value: unknown,
      startVersion: string,
      shared = false,
      keepValue = false,
    ): void {
      send(req, res, keep(key, status, value, startVersion, { shared, keepValue, guest: !signedIn(res) }));
    },

    /**
     * Keeps a guest's answer computed for a signed-in caller's request (the base of their own answer), as if a guest had
     * asked: under `key`, with its value, while `startVersion` is current.
     */
    keepGuestAnswer(key: string, value: unknown, startVersion: string): void {
      keep(key, 200, value, startVersion, { shared: false, keepValue: true, guest: true });
    },

    /**
     * The value of the guest's answer kept under `key` (frozen: copy before changing), when it is of `startVersion` and
     * was kept with its value; undefined otherwise. Counts as a use.
     */
    keptValue(key: string, startVersion: string): unknown {
      const entry = entries.get(key);
      if (!entry || entry.value === undefined || entry.version !== startVersion || startVersion !== version) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },

    /** Catches up with the data version (another instance may have written); answers it. Call before serve. */
    refresh,

    /**
     * `refresh` for one signed-in user: the data version with their own counter appended (shared-state.ts), which
     * also moves with their writes that keep cached answers. For clients that keep that user's rendered pages.
     */
    async refreshFor(userId: number): Promise<string> {
      const own = await versions.currentFor(userId);
      moveTo(own.slice(0, own.lastIndexOf(".")));
      return own;
    },

    /** A write that no kept answer shows was committed (reading progress): only its user's own counter moves. */
    async ownDataChanged(userId: number): Promise<void> {
      await versions.bumpFor(userId);
    },

    /** A write was committed: every kept answer, here and on every instance, is out of date. */
    async dataChanged(): Promise<void> {
      moveTo(await versions.bump());
    },

    /** For writes that bypass the API (tests, maintenance scripts run in-process): the next refresh sees them. */
    invalidate() {
      moveTo("");
      void versions.bump().catch(() => {});
    },

    /** What is kept (tests, monitoring). */
    stats: () => ({ entries: entries.size, bytes: totalBytes, knownUrls: knownUrls.size }),
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;
