// The web app's two ways to the API (docs/web.md §1): in memory into the API's app when both
// run in one process (npm start, the image), over HTTP when the web app runs alone (compose.scale.yml).
// The API must see the same call either way, and the client must fail the same way (timeout, 401, abort).
import { getEventListeners } from "node:events";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createApi, TIMEOUT_MESSAGE, type ApiOptions } from "../../app/lib/api.server.ts";
import type { WebContext } from "../../app/lib/context.ts";
import { inProcessApi, IN_PROCESS_PEER } from "../../web/api-in-process.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { listenOnFreePort, type ListeningApp } from "../helpers/listening-app.ts";
import { postForm, startWebServer, type WebServer } from "../helpers/web-server.ts";
import { webContext } from "../helpers/web.ts";

const TIMEOUT_MS = 300;
const VISITOR = "203.0.113.7";

/** An Express app that answers what it was sent, as the API reads requests (trust proxy "loopback", JSON bodies). */
function probeApp() {
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(express.json());
  app.get("/never", () => {
    // Never answers: the client's timeout must end the call.
  });
  app.get("/expired", (_req, res) => {
    res.status(401).json({ message: "Token expired" });
  });
  app.get("/invalid", (_req, res) => {
    res.status(400).json({ message: "Invalid input", errors: [{ field: "name", message: "Too long" }] });
  });
  app.all("/{*path}", (req, res) => {
    const {
      authorization,
      accept,
      "content-type": contentType,
      "content-length": length,
      "x-forwarded-for": forwarded,
      host,
    } = req.headers;
    res.json({
      method: req.method,
      url: req.originalUrl,
      ip: req.ip,
      peer: req.socket.remoteAddress,
      headers: { authorization, accept, contentType, length, forwarded, host },
      body: req.body as unknown,
    });
  });
  return app;
}

let probe: ReturnType<typeof probeApp>;
let listening: ListeningApp;
let overHttp: WebContext;
let inMemory: WebContext;

beforeAll(async () => {
  probe = probeApp();
  listening = await listenOnFreePort(probe);
  const url = `http://127.0.0.1:${listening.port}`;
  overHttp = { ...webContext(url), clientAddress: VISITOR };
  inMemory = { ...overHttp, apiTransport: inProcessApi(probe) };
});
afterAll(() => listening?.close());

describe("what the API sees", () => {
  const calls = (context: WebContext) => {
    const api = createApi(context, { token: "the-token" });
    return Promise.all([
      api.call("/hubs/Ink%20%26%20Brushes/posts/latest", { query: { tag: ["a b", "c&d"], page: 2, empty: "", none: undefined } }),
      api.call("/hub-posts/7", { method: "PUT", body: { title: "Über", tags: ["x"], nested: { n: 1 } } }),
      api.call("/user/1/member-hubs/2", { method: "DELETE" }),
      api.call("/auth/logout", { method: "POST" }),
      createApi(context).call("/hubs/top"),
    ]);
  };

  it("is the same call in memory as over HTTP: method, path and query, headers, body, the visitor's address", async () => {
    const viaHttp = await calls(overHttp);
    const viaMemory = await calls(inMemory);
    expect(viaMemory).toEqual(viaHttp);

    const [read, write, remove, emptyPost, anonymous] = viaMemory as Record<string, unknown>[];
    expect(read).toMatchObject({
      method: "GET",
      url: "/hubs/Ink%20%26%20Brushes/posts/latest?tag=a+b&tag=c%26d&page=2",
      ip: VISITOR,
      peer: "127.0.0.1",
      headers: { authorization: "Bearer the-token", accept: "application/json", forwarded: VISITOR, host: `127.0.0.1:${listening.port}` },
    });
    expect(read).not.toHaveProperty("body");
    expect(write).toMatchObject({
      method: "PUT",
      headers: { contentType: "application/json" },
      body: { title: "Über", tags: ["x"], nested: { n: 1 } },
    });
    expect(remove).toMatchObject({ method: "DELETE", url: "/user/1/member-hubs/2" });
    expect(emptyPost).toMatchObject({ method: "POST", headers: { length: "0" } });
    expect(anonymous).toMatchObject({ ip: VISITOR });
    expect((anonymous as { headers: object }).headers).not.toHaveProperty("authorization");
    expect(IN_PROCESS_PEER).toBe("127.0.0.1");
  });

  it("answers an error status as over HTTP: the API's message and field errors", async () => {
    const errors = await Promise.all(
      [overHttp, inMemory].map((context) =>
        createApi(context)
          .call("/invalid")
          .catch((e: unknown) => e),
      ),
    );
    for (const err of errors) {
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 400, message: "Invalid input", errors: [{ field: "name", message: "Too long" }] });
    }
  });
});

/** The context with API_TIMEOUT_MS short. */
const impatient = (context: WebContext): WebContext => ({ ...context, config: { ...context.config, apiTimeoutMs: TIMEOUT_MS } });

describe.each([
  ["over HTTP", () => impatient(overHttp)],
  ["in memory", () => impatient(inMemory)],
])("the client's failures %s", (_name, context) => {
  it("turns a call the API never answers into an ApiError 504 after API_TIMEOUT_MS", async () => {
    const started = performance.now();
    const err = await createApi(context())
      .call("/never")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 504, message: TIMEOUT_MESSAGE });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
  });

  it("ends at once when the browser goes away, with the abort itself (not an ApiError)", async () => {
    const browser = new AbortController();
    const call = createApi(context(), { signal: browser.signal })
      .call("/never")
      .catch((e: unknown) => e);
    browser.abort();
    const err = await call;
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as Error).name).toBe("AbortError");

    const gone = await createApi(context(), { signal: AbortSignal.abort() })
      .call("/hubs")
      .catch((e: unknown) => e);
    expect((gone as Error).name).toBe("AbortError");
  });

  it("hands a 401 to a call that carried a token to onUnauthorized, whose throw ends the call", async () => {
    const ended = new Error("session ended");
    let seen = 0;
    const options: ApiOptions = {
      token: "stale",
      onUnauthorized: () => {
        seen++;
        return Promise.reject(ended);
      },
    };
    await expect(createApi(context(), options).call("/expired")).rejects.toBe(ended);
    expect(seen).toBe(1);
    // Without a token, a 401 is the call's own error.
    await expect(createApi(context(), { ...options, token: undefined }).call("/expired")).rejects.toMatchObject({ status: 401 });
    expect(seen).toBe(1);
  });
});

describe("in memory", () => {
  it("leaves nothing listening on the call's signal once it is answered", async () => {
    const signal = AbortSignal.timeout(60_000);
    const answer = await inProcessApi(probe)(new URL("http://api.test/hubs"), { method: "GET", headers: {}, body: undefined, signal });
    expect(answer).toMatchObject({ status: 200, ok: true });
    expect(JSON.parse(await answer.text())).toMatchObject({ method: "GET", url: "/hubs" });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});

describe("the real API in memory", () => {
  const LIMIT = 3;
  let api: TestApi;
  let apiHttp: ListeningApp;
  let context: (clientAddress: string) => WebContext;

  beforeAll(async () => {
    api = await startTestApi({ authRateLimit: LIMIT });
    apiHttp = await listenOnFreePort(api.app);
    const transport = inProcessApi(api.app);
    context = (clientAddress) => ({ ...webContext(`http://127.0.0.1:${apiHttp.port}`), clientAddress, apiTransport: transport });
  });
  afterAll(async () => {
    await apiHttp?.close();
    await api?.close();
  });

  it("counts the visitor's address for its login limit, not the web server's", async () => {
    const user = await api.register("in_memory_user");
    const login = (visitor: string, password: string) =>
      createApi(context(visitor))
        .login({ username: user.username, password })
        .catch((e: unknown) => e);
    for (let i = 0; i < LIMIT; i++) expect(await login(VISITOR, "wrong-password")).toMatchObject({ status: 401 });
    expect(await login(VISITOR, user.password)).toMatchObject({ status: 429, message: expect.stringContaining("Too many") });
    expect(await login("198.51.100.20", user.password)).toMatchObject({ accessToken: expect.any(String) });
  });

  it("keeps serving real HTTP requests, its own and another Express app's, after calls in memory", async () => {
    const user = await api.register("still_http");
    const me = await createApi(context("198.51.100.30"), { token: user.token }).user(user.username);
    expect(me.username).toBe(user.username);

    // light-my-request, given an Express app, would have swapped the prototypes every Express app shares.
    const health = await fetch(`http://127.0.0.1:${apiHttp.port}/health`);
    expect(health.status).toBe(200);
    const posted = await fetch(`http://127.0.0.1:${apiHttp.port}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.40" },
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ accessToken: expect.any(String) });
    const echoed = await fetch(`http://127.0.0.1:${listening.port}/x`, {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(await echoed.json()).toMatchObject({ method: "POST", url: "/x", body: {} });
  });
});

describe.each(["in-process", "http"] as const)("the web app with API calls %s", (apiCalls) => {
  const LIMIT = 3;
  let site: WebServer;

  beforeAll(async () => {
    site = await startWebServer({ api: { authRateLimit: LIMIT }, apiCalls });
  });
  afterAll(() => site?.close());

  it("says how it calls the API, signs a visitor in and shows a signed-in page, and throttles per visitor", async () => {
    expect(site.apiCalls).toBe(apiCalls === "http" ? `over HTTP to ${site.apiUrl}` : "in process (no HTTP)");
    const user = await site.api.register(`web_${apiCalls.replace("-", "_")}`);
    const loginFrom = (visitor: string, password: string) =>
      postForm(site, "/login", { username: user.username, password, redirectTo: "/" }, { "X-Forwarded-For": visitor });

    for (let i = 0; i < LIMIT; i++) expect((await loginFrom(VISITOR, "wrong-password")).status).toBe(400);
    expect((await loginFrom(VISITOR, user.password)).status).toBe(429);

    const signedIn = await loginFrom("198.51.100.20", user.password);
    expect(signedIn.status).toBe(302);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    let overHttp = 0;
    const count = () => overHttp++;
    site.apiServer.on("request", count);
    try {
      const page = await fetch(`${site.url}/hubs`, { headers: { Cookie: cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(user.username);
    } finally {
      site.apiServer.off("request", count);
    }
    // The page's calls (the viewer, the hubs, the unread count...) came in memory or over HTTP, not both.
    if (apiCalls === "http") expect(overHttp).toBeGreaterThanOrEqual(2);
    else expect(overHttp).toBe(0);
  });
});
