// Loaders and actions of the reading side: series list and page, the chapter reader (modes,
// likes, follows), the image page, and the redirects of the first product's dangling links.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as createKindLoader } from "../../app/redirects/create-form.ts";
import { loader as createLoader } from "../../app/redirects/create-menu.ts";
import { loader as hubPostRedirect } from "../../app/redirects/post-by-id.ts";
import { loader as hubRedirect } from "../../app/redirects/hub-by-id.ts";
import { loader as imageLoader } from "../../app/routes/media.image.$id.tsx";
import { action as chapterAction, loader as chapterLoader, shouldRevalidate } from "../../app/routes/series.$seriesName.$chapterNumber.tsx";
import { action as seriesAction, loader as seriesLoader } from "../../app/routes/series.$seriesName._index.tsx";
import { loader as seriesListLoader } from "../../app/routes/series._index.tsx";
import type { TestUser } from "../helpers/api.ts";
import { args, cookieHeader, request, run, startWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";
import { createHub, createPost, seedComics } from "../helpers/web-seed.ts";

let web: WebTestApi;
let comics: Awaited<ReturnType<typeof seedComics>>;

beforeAll(async () => {
  web = await startWebTestApi();
  comics = await seedComics(web.api);
  // Enough series for two pages of the list.
  for (let i = 1; i <= 9; i++)
    await web.api.request
      .post("/series")
      .set(comics.reader.auth)
      .send({ name: `Filler series ${i}` });
});
afterAll(() => web.close());

const RONIN = "Moonlit Ronin";
const get = (path: string, cookie?: string, params: Record<string, string> = {}) => args(request(path, { cookie }), web.context, params);
const post = (path: string, form: Record<string, string | number>, cookie?: string, params: Record<string, string> = {}) =>
  args(request(path, { cookie, form }), web.context, params);
const chapterParams = (n: string | number) => ({ seriesName: RONIN, chapterNumber: String(n) });

describe("series list", () => {
  it("pages all series ten at a time, with the top series", async () => {
    const out = await run(() => seriesListLoader(get("/series")));
    expect(out.data.list?.content).toHaveLength(10);
    expect(out.data.list?.totalPages).toBe(2);
    expect(out.data.topSeries?.[0]).toMatchObject({ name: RONIN, followersCount: 1 });
    const page2 = await run(() => seriesListLoader(get("/series?page=2")));
    expect(page2.data.list?.content).toHaveLength(2);
  });

  it("searches by name without the top series", async () => {
    const out = await run(() => seriesListLoader(get("/series?q=%20dragons%20")));
    expect(out.data.query).toBe("dragons");
    expect(out.data.list?.content.map((s: { name: string }) => s.name)).toEqual(["Paper Dragons"]);
    expect(out.data.topSeries).toBeNull();
  });

  it("keeps the page when the API is down (the screen says 'Failed to load series')", async () => {
    const out = await run(() => seriesListLoader(args(request("/series"), webContext("http://127.0.0.1:9"))));
    expect(out.status).toBe(200);
    expect(out.data.list).toBeNull();
  });
});

describe("series page", () => {
  it("loads the series, its creator, the latest chapters and the first chapter", async () => {
    const out = await run(() => seriesLoader(get("/series/Moonlit%20Ronin", undefined, { seriesName: RONIN })));
    expect(out.data.series).toMatchObject({ name: RONIN, followersCount: 1, chapterCount: 3, followedByMe: false });
    expect(out.data.creator).toMatchObject({ username: comics.artist.username });
    expect(out.data.chapters?.content.map((c: { number: number }) => c.number)).toEqual([3, 2, 1]);
    expect(out.data.firstChapter).toEqual({ number: 1, title: "The Night Market" });
  });

  it("sorts chapters by likes", async () => {
    const out = await run(() => seriesLoader(get("/series/Moonlit%20Ronin?sort=likes", undefined, { seriesName: RONIN })));
    expect(out.data.sort).toBe("likes");
    expect(out.data.chapters?.content[0]).toMatchObject({ number: 1, likes: 1 });
  });

  it("says 'No series found.' with a 404", async () => {
    const out = await run(() => seriesLoader(get("/series/nope", undefined, { seriesName: "nope" })));
    expect(out.status).toBe(404);
    expect(out.data.seriesError).toBe("No series found.");
  });

  it("shows the viewer's follow state, and follows and unfollows", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    const act = (intent: string, extra: Record<string, string> = {}) =>
      run(() =>
        seriesAction(post("/series/Moonlit%20Ronin?index", { intent, seriesId: comics.ronin.id, ...extra }, cookie, { seriesName: RONIN })),
      );
    expect((await act("follow")).data).toEqual({ ok: true });
    let page = await run(() => seriesLoader(get("/series/Moonlit%20Ronin", cookie, { seriesName: RONIN })));
    expect(page.data.series).toMatchObject({ followedByMe: true, followersCount: 2 });
    const noJs = await act("unfollow", { noscript: "1" });
    expect(noJs.status).toBe(303);
    expect(noJs.location).toBe("/series/Moonlit%20Ronin");
    page = await run(() => seriesLoader(get("/series/Moonlit%20Ronin", cookie, { seriesName: RONIN })));
    expect(page.data.series).toMatchObject({ followedByMe: false, followersCount: 1 });
  });

  it("sends a guest who follows to the login page", async () => {
    const out = await run(() =>
      seriesAction(post("/series/Moonlit%20Ronin", { intent: "follow", seriesId: comics.ronin.id }, undefined, { seriesName: RONIN })),
    );
    expect(out.location).toBe("/login?redirectTo=%2Fseries%2FMoonlit%2520Ronin");
  });
});

describe("chapter reader", () => {
  it("loads the chapter with its pages, neighbours, series and author, in the strip by default", async () => {
    const out = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/2", undefined, chapterParams(2))));
    expect(out.data.chapter).toMatchObject({ number: 2, title: "Lanterns", previousNumber: 1, nextNumber: 3, likedByMe: false });
    expect(out.data.chapter?.pages).toHaveLength(3);
    expect(out.data.chapter?.pages[0]).toMatchObject({ width: 800, height: 1200 });
    expect(out.data.series).toMatchObject({ id: comics.ronin.id, name: RONIN });
    expect(out.data.author).toMatchObject({ username: comics.artist.username });
    expect(out.data.mode).toBe("strip");
  });

  it("has no previous chapter at the start and no next one at the end", async () => {
    const first = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/1", undefined, chapterParams(1))));
    expect(first.data.chapter).toMatchObject({ previousNumber: null, nextNumber: 2 });
    const last = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/3", undefined, chapterParams(3))));
    expect(last.data.chapter).toMatchObject({ previousNumber: 2, nextNumber: null });
    expect(last.data.chapter?.contentHtml).toContain("Chapter 4"); // the notes, rendered on the server
  });

  it("says 'Chapter not found' with a 404", async () => {
    for (const n of ["99", "abc", "0"]) {
      const out = await run(() => chapterLoader(get(`/series/Moonlit%20Ronin/${n}`, undefined, chapterParams(n))));
      expect(out.status).toBe(404);
      expect(out.data.chapterError).toBe("Chapter not found");
    }
  });

  it("shows the reader's own like", async () => {
    const cookie = await web.cookieFor(comics.reader);
    const out = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/1", cookie, chapterParams(1))));
    expect(out.data.chapter).toMatchObject({ likes: 1, likedByMe: true });
    expect(out.data.series?.followedByMe).toBe(true);
  });

  it("likes and unlikes a chapter", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    const fields = { seriesName: RONIN, chapterNumber: 2 };
    const act = (intent: string) =>
      run(() => chapterAction(post("/series/Moonlit%20Ronin/2", { intent, ...fields }, cookie, chapterParams(2))));
    expect((await act("like")).data).toEqual({ ok: true });
    let out = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/2", cookie, chapterParams(2))));
    expect(out.data.chapter).toMatchObject({ likes: 1, likedByMe: true });
    await act("unlike");
    out = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/2", cookie, chapterParams(2))));
    expect(out.data.chapter).toMatchObject({ likes: 0, likedByMe: false });
  });

  it("remembers the reading mode in a cookie, for guests too", async () => {
    // The mode is remembered per series (docs/web.md §14).
    const seriesId = (await run(() => chapterLoader(get("/series/Moonlit%20Ronin/1", undefined, chapterParams(1))))).data.series!.id;
    const act = (form: Record<string, string | number>) =>
      run(() => chapterAction(post("/series/Moonlit%20Ronin/1", { intent: "mode", seriesId, ...form }, undefined, chapterParams(1))));
    const js = await act({ mode: "ltr", page: 1 });
    expect(js.data).toEqual({ ok: true });
    const cookie = cookieHeader(js.headers.get("Set-Cookie")!);
    expect(js.headers.get("Set-Cookie")).toMatch(/Max-Age=31536000/);
    const out = await run(() => chapterLoader(get("/series/Moonlit%20Ronin/1", cookie, chapterParams(1))));
    expect(out.data.mode).toBe("ltr");

    // Without JavaScript: back to the same place (the page kept; the strip scrolls to it).
    const noJs = await act({ mode: "strip", page: 3, noscript: 1 });
    expect(noJs.status).toBe(303);
    expect(noJs.location).toBe("/series/Moonlit%20Ronin/1?page=3#page-3");
    const toPages = await act({ mode: "rtl", page: 2, noscript: 1 });
    expect(toPages.location).toBe("/series/Moonlit%20Ronin/1?page=2#reader");

    expect((await act({ mode: "sideways" }).catch((e) => e)).status).toBe(400);
  });

  it("does not reload the chapter when only the page changes", () => {
    const base = { formMethod: undefined, defaultShouldRevalidate: true } as Parameters<typeof shouldRevalidate>[0];
    const at = (u: string) => new URL(`http://x${u}`);
    expect(shouldRevalidate({ ...base, currentUrl: at("/series/a/1"), nextUrl: at("/series/a/1?page=2") })).toBe(false);
    expect(shouldRevalidate({ ...base, currentUrl: at("/series/a/1?page=2"), nextUrl: at("/series/a/1?page=3") })).toBe(false);
    expect(shouldRevalidate({ ...base, currentUrl: at("/series/a/1?page=3"), nextUrl: at("/series/a/2") })).toBe(true);
    expect(shouldRevalidate({ ...base, formMethod: "POST", currentUrl: at("/series/a/1"), nextUrl: at("/series/a/1") })).toBe(true);
  });
});

describe("image page", () => {
  it("shows the file's facts and its author", async () => {
    const id = comics.chapters[0]!.pages[0]!.imageId;
    const out = await run(() => imageLoader(get(`/media/image/${id}`, undefined, { id: String(id) })));
    // A guest gets a neutral file name; the original is its uploader's to see (docs/decisions/009).
    expect(out.data.image).toMatchObject({ id, fileName: `image-${id}.jpg`, contentType: "image/jpeg", width: 800, height: 1200 });
    expect(out.data.author).toMatchObject({ username: comics.artist.username, email: null });
    expect(out.data.own).toBe(false);
  });

  it("shows the uploader the original file name, and their own image through the web app", async () => {
    const id = comics.chapters[0]!.pages[0]!.imageId;
    const out = await run(async () => imageLoader(get(`/media/image/${id}`, await web.cookieFor(comics.artist), { id: String(id) })));
    expect(out.data.image).toMatchObject({ id, fileName: "page-1.jpg" });
    expect(out.data.own).toBe(true);
  });

  it("shows the author's email to the author only", async () => {
    const id = comics.logo;
    const out = await run(async () => imageLoader(get(`/media/image/${id}`, await web.cookieFor(comics.artist), { id: String(id) })));
    expect(out.data.author).toMatchObject({ email: comics.artist.email });
  });

  it("says 'Image not found' (404) and 'Failed to load image data' (API down)", async () => {
    const missing = await run(() => imageLoader(get("/media/image/999999", undefined, { id: "999999" })));
    expect(missing.status).toBe(404);
    expect(missing.data.error).toBe("Image not found");
    const down = await run(() => imageLoader(args(request("/media/image/1"), webContext("http://127.0.0.1:9"), { id: "1" })));
    expect(down.data.error).toBe("Failed to load image data");
  });
});

describe("dangling routes of the first product (docs/web.md §7)", () => {
  let author: TestUser;
  let hub: { id: number; name: string };
  let postId: number;
  beforeAll(async () => {
    author = await web.api.register();
    hub = await createHub(web.api, author, { name: "Ink & Brush" });
    postId = (await createPost(web.api, author, hub.id, { title: "Brush pens", content: "Five brush pens compared." })).id;
  });

  it("sends /create to the publish menu and /create/hub, /create/series to the forms", async () => {
    expect((await run(() => createLoader())).location).toBe("/publish");
    expect((await run(() => createKindLoader(get("/create/hub", undefined, { kind: "hub" })))).location).toBe("/publish/hub");
    expect((await run(() => createKindLoader(get("/create/Series?x=1", undefined, { kind: "Series" })))).location).toBe(
      "/publish/series?x=1",
    );
    expect((await run(() => createKindLoader(get("/create/nothing", undefined, { kind: "nothing" })))).status).toBe(404);
  });

  it("sends /hub/{id} to the hub's page and /hub-posts/{id} to the post's", async () => {
    expect((await run(() => hubRedirect(get(`/hub/${hub.id}`, undefined, { id: String(hub.id) })))).location).toBe(
      "/hubs/Ink%20%26%20Brush",
    );
    expect((await run(() => hubPostRedirect(get(`/hub-posts/${postId}`, undefined, { id: String(postId) })))).location).toBe(
      `/hubs/Ink%20%26%20Brush/${postId}`,
    );
    expect((await run(() => hubRedirect(get("/hub/999999", undefined, { id: "999999" })))).status).toBe(404);
    expect((await run(() => hubPostRedirect(get("/hub-posts/x", undefined, { id: "x" })))).status).toBe(404);
  });
});
