// Reading progress in the web app's loaders and actions (docs/web.md "Reading progress"): the background saves of
// POST /progress, the chapter loader's chapter-level save and the paged reader's resume redirect, the series page's
// and home's continue links.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as homeLoader } from "../../app/routes/_index.tsx";
import { action as progressAction } from "../../app/routes/progress.tsx";
import { action as chapterAction, loader as chapterLoader } from "../../app/routes/series.$seriesName.$chapterNumber.tsx";
import { loader as seriesLoader } from "../../app/routes/series.$seriesName._index.tsx";
import { continueHref } from "../../app/lib/progress.ts";
import { isPrefetch } from "../../app/lib/progress.server.ts";
import type { TestUser } from "../helpers/api.ts";
import { args, request, run, startWebTestApi, type WebTestApi } from "../helpers/web.ts";
import { seedComics } from "../helpers/web-seed.ts";

let web: WebTestApi;
let comics: Awaited<ReturnType<typeof seedComics>>;
let reader: TestUser;
let cookie: string;

beforeAll(async () => {
  web = await startWebTestApi();
  comics = await seedComics(web.api);
  reader = await web.api.register(`progress_${process.pid}`);
  cookie = await web.cookieFor(reader);
});
afterAll(() => web.close());

const RONIN = "Moonlit Ronin";
const chapter = (n: number, query = "", init: { cookie?: string; headers?: Record<string, string> } = {}) => {
  const req = request(`/series/Moonlit%20Ronin/${n}${query}`, { cookie: init.cookie });
  for (const [k, v] of Object.entries(init.headers ?? {})) req.headers.set(k, v);
  return args(req, web.context, { seriesName: RONIN, chapterNumber: String(n) });
};
const progress = async () => (await web.api.request.get(`/me/progress/${comics.ronin.id}`).set(reader.auth)).body.progress;
/** Through POST /progress, as the signed-in reader, or as a guest (`asGuest`). */
const save = (form: Record<string, string | number>, asGuest = false) =>
  run(() => progressAction(args(request("/progress", { cookie: asGuest ? undefined : cookie, form }), web.context)));

describe("POST /progress", () => {
  it("saves the position for a signed-in reader (204), does nothing for a guest (204), refuses bad fields (400)", async () => {
    expect((await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: 3 })).status).toBe(204);
    expect(await progress()).toMatchObject({ chapterNumber: 1, page: 3 });
    expect((await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: 1 }, true)).status).toBe(204);
    expect(await progress()).toMatchObject({ chapterNumber: 1, page: 3 });
    expect((await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: "x" })).status).toBe(400);
    expect((await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: 99 })).status).toBe(400);
    expect((await save({ seriesId: comics.ronin.id, chapterNumber: 9, page: 1 })).status).toBe(404);
    expect(await progress()).toMatchObject({ chapterNumber: 1, page: 3 });
  });
});

describe("the chapter loader", () => {
  it("saves the opened chapter without moving back within it, and passes this chapter's saved page", async () => {
    await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: 3 });
    const opened = await run(() => chapterLoader(chapter(1, "", { cookie })));
    expect(opened.status).toBe(200);
    expect(opened.data.progress).toEqual({ page: 3 });
    expect(await progress()).toMatchObject({ chapterNumber: 1, page: 3 });

    // Another chapter: it is now the one in progress, at `?page=` (or 1).
    const next = await run(() => chapterLoader(chapter(2, "?page=2", { cookie })));
    expect(next.data.progress).toEqual({ page: 2 });
    expect(await progress()).toMatchObject({ chapterNumber: 2, page: 2 });
    // A `?page=` past the end opens the chapter at page 1.
    await run(() => chapterLoader(chapter(3, "?page=40", { cookie })));
    expect(await progress()).toMatchObject({ chapterNumber: 3, page: 1 });
  });

  it("only reads on a link prefetch, and saves nothing for a guest", async () => {
    await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: 2 });
    const prefetched = await run(() => chapterLoader(chapter(2, "", { cookie, headers: { "Sec-Purpose": "prefetch" } })));
    expect(prefetched.data.progress).toBeNull();
    expect(await progress()).toMatchObject({ chapterNumber: 1, page: 2 });
    const guest = await run(() => chapterLoader(chapter(2)));
    expect(guest.data.progress).toBeNull();
    expect(await progress()).toMatchObject({ chapterNumber: 1, page: 2 });
    expect(isPrefetch(new Request("http://x/", { headers: { Purpose: "prefetch" } }))).toBe(true);
  });

  it("sends the paged reader to the saved page when opened without ?page=", async () => {
    await save({ seriesId: comics.ronin.id, chapterNumber: 1, page: 3 });
    // The reader picks left to right for this series (the mode cookie the chapter's action sets).
    const form = { intent: "mode", mode: "ltr", seriesId: comics.ronin.id };
    const picked = await run(() =>
      chapterAction(args(request("/series/Moonlit%20Ronin/1", { cookie, form }), web.context, { seriesName: RONIN, chapterNumber: "1" })),
    );
    const modeCookie = (picked.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    expect(modeCookie).not.toBe("");
    const both = `${cookie}; ${modeCookie}`;
    const paged = await run(() => chapterLoader(chapter(1, "", { cookie: both })));
    expect(paged.status).toBe(302);
    expect(paged.location).toBe("/series/Moonlit%20Ronin/1?page=3#reader");
    // With `?page=` it opens there.
    expect((await run(() => chapterLoader(chapter(1, "?page=2", { cookie: both })))).status).toBe(200);
  });
});

describe("continue links", () => {
  it("the series page and home say where to continue", async () => {
    await save({ seriesId: comics.ronin.id, chapterNumber: 2, page: 2 });
    const series = await run(() => seriesLoader(args(request("/series/Moonlit%20Ronin", { cookie }), web.context, { seriesName: RONIN })));
    expect(series.data.progress).toMatchObject({ chapterNumber: 2, page: 2 });
    const guestSeries = await run(() => seriesLoader(args(request("/series/Moonlit%20Ronin"), web.context, { seriesName: RONIN })));
    expect(guestSeries.data.progress).toBeNull();
    const home = await run(() => homeLoader(args(request("/", { cookie }), web.context)));
    expect(home.data.continueReading?.[0]).toMatchObject({ series: { name: RONIN }, chapterNumber: 2, page: 2, unreadChapters: 1 });
    // Only what the list shows is sent with the page.
    expect(home.data.continueReading?.[0]).toEqual({
      series: { id: comics.ronin.id, name: RONIN, profileImageId: expect.toBeOneOf([null, expect.any(Number)]) },
      chapterNumber: 2,
      page: 2,
      unreadChapters: 1,
    });
    expect((await run(() => homeLoader(args(request("/"), web.context)))).data.continueReading).toBeNull();
    expect(continueHref(RONIN, 2, 2)).toBe("/series/Moonlit%20Ronin/2?page=2#page-2");
    expect(continueHref(RONIN, 2, 1)).toBe("/series/Moonlit%20Ronin/2");
  });
});
