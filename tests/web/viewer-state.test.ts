// The viewer's state on the web (docs/web.md §1 and §13): GET /me/state read once per request for the root loader and
// the route's loaders, never another user's, and the chapter loader's save left out when the latest position is
// already there. The loaders call the real API through a proxy that writes down each call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebContext } from "../../app/lib/context.ts";
import { loader as rootLoader } from "../../app/root.tsx";
import { loader as homeLoader } from "../../app/routes/_index.tsx";
import { loader as chapterLoader } from "../../app/routes/series.$seriesName.$chapterNumber.tsx";
import { loader as seriesLoader } from "../../app/routes/series.$seriesName._index.tsx";
import type { TestUser } from "../helpers/api.ts";
import { listenOnFreePort, type ListeningApp } from "../helpers/listening-app.ts";
import { args, request, run, startWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";
import { seedComics } from "../helpers/web-seed.ts";

let web: WebTestApi;
let proxy: ListeningApp;
let comics: Awaited<ReturnType<typeof seedComics>>;
let reader: TestUser;
let other: TestUser;
/** "METHOD /path" of every call the loaders made through the proxy. */
const calls: string[] = [];

beforeAll(async () => {
  web = await startWebTestApi();
  comics = await seedComics(web.api);
  reader = await web.api.register(`state_${process.pid}`);
  other = await web.api.register(`state_other_${process.pid}`);
  const target = web.context.config.apiUrl;
  proxy = await listenOnFreePort((req, res) => {
    calls.push(`${req.method} ${(req.url ?? "").split("?")[0]}`);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<
        string,
        string
      >;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      void fetch(target + req.url, { method: req.method, headers, body }).then(async (answer) => {
        res.writeHead(answer.status, { "Content-Type": answer.headers.get("Content-Type") ?? "application/json" });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
});
afterAll(async () => {
  await proxy?.close();
  await web?.close();
});

/** A load context as web/main.ts makes one per request: through the proxy, with its own `perRequest`. */
const perRequest = (): WebContext => ({ ...webContext(`http://127.0.0.1:${proxy.port}`), perRequest: new Map() });
const as = async (user: TestUser, path: string) => request(path, { cookie: await web.cookieFor(user) });
const RONIN = "Moonlit Ronin";
const chapterArgs = async (user: TestUser, n: number, context: WebContext, query = "") =>
  args(await as(user, `/series/Moonlit%20Ronin/${n}${query}`), context, { seriesName: RONIN, chapterNumber: String(n) });
const saveProgress = async (user: TestUser, seriesId: number, chapterNumber: number, page: number) =>
  expect((await web.api.request.put(`/me/progress/${seriesId}`).set(user.auth).send({ chapterNumber, page })).status).toBe(200);
const storedProgress = async (user: TestUser) =>
  (await web.api.request.get(`/me/progress/${comics.ronin.id}`).set(user.auth)).body.progress;

/** The root loader and a route's loader of one request, run at once as Remix runs them. */
async function page<T>(context: WebContext, req: () => Promise<Request>, route: (request: Request) => Promise<T>) {
  calls.length = 0;
  const [root, routeOut] = await Promise.all([
    run(async () => rootLoader(args(await req(), context))),
    run(async () => route(await req())),
  ]);
  return { root, route: routeOut, calls: [...calls] };
}

describe("the viewer's state", () => {
  it("is read once per request for the root and the route's loaders (the bell, the Welcome panel)", async () => {
    const context = perRequest();
    const out = await page(
      context,
      () => as(reader, "/"),
      (req) => homeLoader(args(req, context)),
    );
    expect(out.calls.filter((c) => c === "GET /me/state")).toHaveLength(1);
    expect(out.calls).not.toContain("GET /me/notifications/unread-count");
    expect(out.calls).not.toContain(`GET /user/${reader.username}`);
    expect(out.root.data.unreadCount).toBe(0);
    expect(out.route.data.me).toMatchObject({ id: reader.id, username: reader.username, email: reader.email });
  });

  it("is the signed-in user's own: two users on the same page, even sharing one per-request map, each get theirs", async () => {
    // The reader has a notification (someone followed their series); the other user has none.
    const own = await web.api.request
      .post("/series")
      .set(reader.auth)
      .send({ name: `State ${process.pid}` });
    expect(own.status).toBe(201);
    expect((await web.api.request.post(`/user/${other.id}/followed-series/${own.body.id}`).set(other.auth)).status).toBe(200);
    const shared = perRequest();
    for (const [user, unread] of [
      [reader, 1],
      [other, 0],
      [reader, 1],
    ] as const) {
      for (const context of [perRequest(), shared]) {
        const out = await page(
          context,
          () => as(user, "/"),
          (req) => homeLoader(args(req, context)),
        );
        expect(out.root.data.user?.id).toBe(user.id);
        expect(out.root.data.unreadCount).toBe(unread);
        expect(out.route.data.me).toMatchObject({ id: user.id, email: user.email });
      }
    }
    // A guest's page makes no call for it.
    const guest = perRequest();
    const out = await page(
      guest,
      () => Promise.resolve(request("/")),
      (req) => homeLoader(args(req, guest)),
    );
    expect(out.calls).not.toContain("GET /me/state");
    expect(out.root.data.unreadCount).toBeNull();
    expect(out.route.data.me).toBeNull();
  });
});

describe("the chapter loader's save", () => {
  const open = async (user: TestUser, n: number, query = "") => {
    const context = perRequest();
    return page(
      context,
      () => chapterArgs(user, n, context, query).then((a) => a.request),
      (req) => chapterLoader(args(req, context, { seriesName: RONIN, chapterNumber: String(n) })),
    );
  };

  it("is left out when the latest position is already this chapter at or past the page", async () => {
    await saveProgress(reader, comics.ronin.id, 2, 3);
    const before = await storedProgress(reader);
    for (const query of ["", "?page=2", "?page=3"]) {
      const out = await open(reader, 2, query);
      expect(out.route.status).toBe(200);
      expect(out.route.data.progress).toEqual({ page: 3 });
      expect(out.calls.filter((c) => c.startsWith("PUT /me/progress"))).toEqual([]);
      expect(out.calls.filter((c) => c === "GET /me/state")).toHaveLength(1);
    }
    expect(await storedProgress(reader)).toEqual(before);
  });

  it("still saves a page further on, another chapter (an older one too), and after another series was read", async () => {
    await saveProgress(reader, comics.ronin.id, 2, 1);
    const further = await open(reader, 2, "?page=2");
    expect(further.calls).toContain(`PUT /me/progress/${comics.ronin.id}`);
    expect(await storedProgress(reader)).toMatchObject({ chapterNumber: 2, page: 2 });
    // Latest write wins: back to chapter 1.
    await open(reader, 1);
    expect(await storedProgress(reader)).toMatchObject({ chapterNumber: 1, page: 1 });
    // Another series read since: opening chapter 1 again moves it back to the top of "Continue reading".
    await saveProgress(reader, comics.dragons.id, 1, 1);
    const before = await storedProgress(reader);
    const again = await open(reader, 1);
    expect(again.calls).toContain(`PUT /me/progress/${comics.ronin.id}`);
    const after = await storedProgress(reader);
    expect(after).toMatchObject({ chapterNumber: 1, page: 1 });
    expect(after.updatedAt >= before.updatedAt).toBe(true);
    const list = await web.api.request.get("/me/progress?per_page=1").set(reader.auth);
    expect(list.body.content[0].series.id).toBe(comics.ronin.id);
  });
});

describe("the series page's Continue", () => {
  const open = async (user: TestUser, name: string) => {
    const context = perRequest();
    const path = `/series/${encodeURIComponent(name)}`;
    return page(
      context,
      () => as(user, path),
      (req) => seriesLoader(args(req, context, { seriesName: name })),
    );
  };

  it("comes with the viewer's state when the latest position is in this series, else from one call", async () => {
    await saveProgress(other, comics.dragons.id, 1, 1);
    await saveProgress(other, comics.ronin.id, 3, 2);
    const latest = await open(other, RONIN);
    expect(latest.route.data.progress).toMatchObject({ seriesId: comics.ronin.id, chapterNumber: 3, page: 2 });
    expect(latest.calls.filter((c) => c.startsWith("GET /me/progress"))).toEqual([]);
    const earlier = await open(other, "Paper Dragons");
    expect(earlier.route.data.progress).toMatchObject({ seriesId: comics.dragons.id, chapterNumber: 1, page: 1 });
    expect(earlier.calls).toContain(`GET /me/progress/${comics.dragons.id}`);
    // Another reader's page: their own position, never this one's.
    expect((await open(reader, "Paper Dragons")).route.data.progress).toMatchObject({ chapterNumber: 1, page: 1 });
    const fresh = await web.api.register(`state_fresh_${process.pid}`);
    expect((await open(fresh, RONIN)).route.data.progress).toBeNull();
  });
});
