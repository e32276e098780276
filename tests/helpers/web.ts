// Calling the web app's loaders and actions directly, with real Request objects, against the
// real API listening on a free port over a fresh database.
import jwt from "jsonwebtoken";
import { afterAll, beforeAll } from "vitest";
import type { WebContext } from "../../app/lib/context.ts";
import { commitToken } from "../../app/lib/session.server.ts";
import { registerUsers, startTestApi, type TestApi, type TestUser, type UsersNamed } from "./api.ts";
import { listenOnFreePort } from "./listening-app.ts";

export const WEB_ORIGIN = "http://web.test";

export interface WebTestApi {
  api: TestApi;
  context: WebContext;
  /** A Cookie header holding this user's session. */
  cookieFor(user: TestUser | { token: string }): Promise<string>;
  close(): Promise<void>;
}

export function webContext(apiUrl: string, overrides: Partial<WebContext["config"]> = {}): WebContext {
  return {
    config: {
      env: "test",
      port: 0,
      apiUrl,
      publicApiUrl: apiUrl,
      publicUrl: WEB_ORIGIN,
      imagePublicUrl: apiUrl,
      sessionSecret: "web-test-session-secret-0123456789",
      contactEmail: "hello@inkwell.test",
      uploadMaxBytes: 10 * 1024 * 1024,
      secureCookies: false,
      pageCacheEntries: 0,
      trustProxy: "loopback",
      formMaxBytes: 256 * 1024,
      apiTimeoutMs: 10_000,
      ...overrides,
    },
    nonce: "",
  };
}

export async function startWebTestApi(): Promise<WebTestApi> {
  const api = await startTestApi();
  const listening = await listenOnFreePort(api.app);
  const context = webContext(`http://127.0.0.1:${listening.port}`);
  return {
    api,
    context,
    async cookieFor(user) {
      return cookieHeader(await commitToken(context, user.token));
    },
    async close() {
      await listening.close();
      await api.close();
    },
  };
}

/** "name=value" from a Set-Cookie header. */
export const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;

/** A token like the API's, signed with `secret`, for a chosen expiry (seconds from now). */
export function tokenFor(user: TestUser, secret: string, expiresInSeconds: number): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign({ uid: user.id, email: user.email, sub: user.username, iat: now - 3600, exp: now + expiresInSeconds }, secret, {
    algorithm: "HS256",
  });
}

export function request(path: string, init: { cookie?: string; form?: Record<string, string | number> } = {}): Request {
  const headers = new Headers();
  if (init.cookie) headers.set("Cookie", init.cookie);
  if (!init.form) return new Request(WEB_ORIGIN + path, { headers });
  const body = new URLSearchParams(Object.entries(init.form).map(([k, v]) => [k, String(v)]));
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  return new Request(WEB_ORIGIN + path, { method: "POST", headers, body });
}

export interface Outcome<T> {
  status: number;
  data: T;
  /** Location of a redirect. */
  location: string | null;
  headers: Headers;
}

type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isDataWithInit = (v: unknown): v is DataWithInit =>
  typeof v === "object" && v !== null && (v as { type?: string }).type === "DataWithResponseInit";

/** What a loader or action's answer carries as data: the body of `data(...)`, nothing for a Response. */
type DataOf<V> = V extends Response ? undefined : V extends { data: infer D; init: ResponseInit | null } ? D : V;

type KeysOfUnion<U> = U extends unknown ? keyof U : never;
type ValueInUnion<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;
/**
 * The answers a loader or action can give, seen as one object so a test can read any of their fields:
 * a field every answer has keeps its type, one that only some have is optional.
 */
export type AnyAnswer<U> = [U] extends [object]
  ? { [K in keyof U]: ValueInUnion<U, K> } & { [K in Exclude<KeysOfUnion<U>, keyof U>]?: ValueInUnion<U, K> }
  : U;

/** Runs a loader or action and tells what Remix would send: data, status, or a (thrown) redirect. */
export async function run<R>(fn: () => R): Promise<Outcome<AnyAnswer<DataOf<Awaited<R>>>>> {
  type Data = AnyAnswer<DataOf<Awaited<R>>>;
  let value: unknown;
  try {
    value = await fn();
  } catch (err) {
    value = err;
    if (!(err instanceof Response) && !isDataWithInit(err)) throw err;
  }
  if (value instanceof Response) {
    return { status: value.status, data: undefined as Data, location: value.headers.get("Location"), headers: value.headers };
  }
  if (isDataWithInit(value)) {
    return { status: value.init?.status ?? 200, data: value.data as Data, location: null, headers: new Headers(value.init?.headers) };
  }
  return { status: 200, data: value as Data, location: null, headers: new Headers() };
}

/**
 * A web test file's shared set-up: before its tests, the API on a free port with a user registered under
 * each name, handed to `ready` (which may add the file's own set-up); after them, closed.
 */
export function setUpSharedWebTestApi<const Usernames extends readonly string[]>(
  usernames: Usernames,
  ready: (web: WebTestApi, users: UsersNamed<Usernames>) => void | Promise<void>,
): void {
  let web: WebTestApi | undefined;
  beforeAll(async () => {
    web = await startWebTestApi();
    await ready(web, await registerUsers(web.api, usernames));
  });
  afterAll(() => web?.close());
}

export const args = (req: Request, context: WebContext, params: Record<string, string> = {}) => ({ request: req, context, params });

/** A multipart POST like a form with files sends (`files`: field, bytes, file name, type). */
export function multipartRequest(
  path: string,
  init: {
    cookie?: string;
    fields?: Record<string, string | number | (string | number)[]>;
    files?: { field: string; bytes: Buffer | string; name: string; type?: string }[];
  } = {},
): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(init.fields ?? {})) for (const one of Array.isArray(v) ? v : [v]) form.append(k, String(one));
  for (const f of init.files ?? [])
    form.append(f.field, new Blob([f.bytes as BlobPart], { type: f.type ?? "application/octet-stream" }), f.name);
  const headers = new Headers();
  if (init.cookie) headers.set("Cookie", init.cookie);
  return new Request(WEB_ORIGIN + path, { method: "POST", headers, body: form });
}
