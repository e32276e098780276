import { createHash } from "node:crypto";
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
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    sendWithEtag(req, res, entry.etag, entry.body);
  }

  /** Nothing kept is current any more: free it now rather than when it falls out of the LRU order. */
  function moveTo(next: string) {
    if (next === version) return;
    version = next;
    entries.clear();
    totalBytes = 0;
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
    serve(key: string, req: Request, res: Response, startVersion: string): boolean {
      const entry = entries.get(key);
      if (!entry || entry.version !== startVersion || startVersion !== version || (signedIn(res) && !entry.shared)) return false;
      // Most recently used last.
      entries.delete(key);
      entries.set(key, entry);
      send(req, res, entry);
      return true;
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
    async refresh(): Promise<string> {
      moveTo(await versions.current());
      return version;
    },

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
    stats: () => ({ entries: entries.size, bytes: totalBytes }),
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;
