// Discovery in the web app (docs/api.md "Series metadata and browsing", docs/web.md §12) against the real API: the series form's tags,
// status, rating and direction; the series list's filters and orders from the URL; the tag pages; the mature
// notice on a series and its chapters, its Continue, and the "Show mature series" setting.
import { describe, expect, it } from "vitest";
import { loader as matureLoader } from "../../app/routes/mature.tsx";
import { action as formAction, loader as formLoader } from "../../app/routes/publish.series.($id).tsx";
import { loader as chapterLoader } from "../../app/routes/series.$seriesName.$chapterNumber.tsx";
import { loader as seriesLoader } from "../../app/routes/series.$seriesName._index.tsx";
import { loader as listLoader } from "../../app/routes/series._index.tsx";
import { action as settingsAction, loader as settingsLoader } from "../../app/routes/settings.tsx";
import { loader as tagLoader } from "../../app/routes/tags.$tag.tsx";
import { loader as tagsLoader } from "../../app/routes/tags._index.tsx";
import { parseTags, seriesFilters, withoutTag } from "../../app/lib/series-meta.ts";
import type { TestUser } from "../helpers/api.ts";
import { args, cookieHeader, multipartRequest, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";
import { createSeriesWithChapter } from "../helpers/web-seed.ts";

let web: WebTestApi;
let artist: TestUser;
let reader: TestUser;
let artistCookie: string;
let readerCookie: string;

const BLADE = "Blade of Dawn";
const GARDEN = "Quiet Garden";
const NIGHT = "Night Ink";

setUpSharedWebTestApi(["artist_disc", "reader_disc", "fan_disc"], async (started, [a, r, fan]) => {
  web = started;
  [artist, reader] = [a, r];
  artistCookie = await web.cookieFor(artist);
  readerCookie = await web.cookieFor(reader);
  const create = async (name: string, body: Record<string, unknown>) => {
    const res = await web.api.request
      .post("/series")
      .set(artist.auth)
      .send({ name, description: "", ...body });
    if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number };
  };
  const blade = await create(BLADE, { tags: ["samurai", "action"], status: "ongoing", contentRating: "general" });
  await create(GARDEN, { tags: ["slice of life"], status: "completed", contentRating: "teen", readingDirection: "rtl" });
  const night = await createSeriesWithChapter(web.api, artist, NIGHT, "The First Stain", 300, false);
  const res = await web.api.request
    .put(`/series/${night.id}`)
    .set(artist.auth)
    .send({ name: NIGHT, tags: ["samurai", "horror"], status: "hiatus", contentRating: "mature" });
  if (res.status !== 200) throw new Error(`edit ${NIGHT}: ${res.status} ${JSON.stringify(res.body)}`);
  // Blade of Dawn is the most followed.
  await web.api.request.post(`/user/${fan.id}/followed-series/${blade.id}`).set(fan.auth);
});

const get = (path: string, cookie?: string, params: Record<string, string> = {}) => args(request(path, { cookie }), web.context, params);
const names = (page: { content: { name: string }[] } | null | undefined) => page?.content.map((s) => s.name) ?? null;

describe("the filters in the URL", () => {
  it("reads tags (repeated or comma-separated), status, rating and order, ignoring unknown values", () => {
    const f = seriesFilters(new URLSearchParams("tag=Samurai,%20action&tag=samurai&tag=&status=bogus&rating=teen&sort=sideways"));
    expect(f).toEqual({ tags: ["samurai", "action"], status: null, rating: "teen", sort: "new" });
    expect(seriesFilters(new URLSearchParams(`tag=${"x".repeat(31)}&sort=popular`))).toEqual({
      tags: [],
      status: null,
      rating: null,
      sort: "popular",
    });
    expect(parseTags(" Fantasy, ,samurai ,fantasy,,")).toEqual(["fantasy", "samurai"]);
    expect(withoutTag("?tag=a%2C+b&status=ongoing&rating=&page=3", ["a", "b"], "a")).toBe("?status=ongoing&tag=b");
  });
});

describe("the series list", () => {
  it("filters by tag, status and rating from the URL, without the top rows", async () => {
    const byTag = await run(() => listLoader(get("/series?tag=samurai")));
    expect(names(byTag.data.list)).toEqual([BLADE]);
    expect(byTag.data.topSeries).toBeNull();
    expect(byTag.data.popularTags).toBeNull();
    const both = await run(() => listLoader(get("/series?tag=samurai&tag=action&status=ongoing")));
    expect(names(both.data.list)).toEqual([BLADE]);
    const none = await run(() => listLoader(get("/series?tag=samurai&status=completed")));
    expect(names(none.data.list)).toEqual([]);
    const teen = await run(() => listLoader(get("/series?rating=teen")));
    expect(names(teen.data.list)).toEqual([GARDEN]);
  });

  it("sorts New, Popular and Updated, and keeps the filters with a search", async () => {
    const fresh = await run(() => listLoader(get("/series")));
    expect(fresh.data.filters.sort).toBe("new");
    expect(names(fresh.data.list)).toEqual([GARDEN, BLADE]);
    const popular = await run(() => listLoader(get("/series?sort=popular")));
    expect(names(popular.data.list)).toEqual([BLADE, GARDEN]);
    const search = await run(() => listLoader(get("/series?q=garden&status=ongoing")));
    expect(search.data.query).toBe("garden");
    expect(names(search.data.list)).toEqual([]);
    const found = await run(() => listLoader(get("/series?q=garden&status=completed&sort=updated")));
    expect(names(found.data.list)).toEqual([GARDEN]);
  });

  it("shows the popular tags on the plain list", async () => {
    const out = await run(() => listLoader(get("/series")));
    expect(out.data.popularTags?.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["action", "slice of life"]));
  });

  it("leaves mature series out for guests and readers who did not opt in", async () => {
    expect(names((await run(() => listLoader(get("/series?tag=horror")))).data.list)).toEqual([]);
    expect(names((await run(() => listLoader(get("/series?tag=horror", readerCookie)))).data.list)).toEqual([]);
  });
});

describe("the tag pages", () => {
  it("lists one tag's series, any letter case", async () => {
    const out = await run(() => tagLoader(get("/tags/Samurai", undefined, { tag: "Samurai" })));
    expect(out.data.tag).toBe("samurai");
    expect(names(out.data.list)).toEqual([BLADE]);
    const spaced = await run(() => tagLoader(get("/tags/slice%20of%20life?sort=popular", undefined, { tag: "slice of life" })));
    expect(spaced.data).toMatchObject({ tag: "slice of life", sort: "popular" });
    expect(names(spaced.data.list)).toEqual([GARDEN]);
  });

  it("answers 404 for what cannot be a tag", async () => {
    for (const tag of ["a,b", " ", "x".repeat(31)]) {
      const out = await run(() => tagLoader(get(`/tags/${encodeURIComponent(tag)}`, undefined, { tag })));
      expect(out.status).toBe(404);
      expect(out.data.tag).toBeNull();
    }
  });

  it("lists the tags with their counts, most used first", async () => {
    const out = await run(() => tagsLoader(get("/tags")));
    const tags = out.data.tags?.content ?? [];
    expect(tags.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["samurai", "action", "slice of life"]));
    const counts = tags.map((t: { seriesCount: number }) => t.seriesCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe("the series page", () => {
  it("shows the status, rating, direction and tags", async () => {
    const out = await run(() => seriesLoader(get(`/series/${encodeURIComponent(GARDEN)}`, undefined, { seriesName: GARDEN })));
    expect(out.data.series).toMatchObject({ tags: ["slice of life"], status: "completed", contentRating: "teen", readingDirection: "rtl" });
    expect(out.data.matureNotice).toBeNull();
  });
});

describe("the mature notice", () => {
  const nightPath = `/series/${encodeURIComponent(NIGHT)}`;
  const open = (cookie?: string, query = "") => run(() => seriesLoader(get(`${nightPath}${query}`, cookie, { seriesName: NIGHT })));

  it("comes first for a guest and for a reader without the setting; never for the author", async () => {
    expect((await open()).data.matureNotice).toEqual({ continueTo: `/mature?next=${encodeURIComponent(nightPath)}` });
    expect((await open(readerCookie)).data.matureNotice).not.toBeNull();
    expect((await open(artistCookie)).data.matureNotice).toBeNull();
  });

  it("guards the chapters: to the series' notice, which leads back to the chapter", async () => {
    const chapter = await run(() => chapterLoader(get(`${nightPath}/1?page=2`, undefined, { seriesName: NIGHT, chapterNumber: "1" })));
    expect(chapter.status).toBe(302);
    expect(chapter.location).toBe(`${nightPath}?next=${encodeURIComponent(`${nightPath}/1?page=2`)}`);
    const notice = await open(undefined, `?next=${encodeURIComponent(`${nightPath}/1?page=2`)}`);
    expect(notice.data.matureNotice?.continueTo).toBe(`/mature?next=${encodeURIComponent(`${nightPath}/1?page=2`)}`);
    // A `next` that is not one of this series' pages is not followed.
    const elsewhere = await open(undefined, `?next=${encodeURIComponent("https://evil.example/")}`);
    expect(elsewhere.data.matureNotice?.continueTo).toBe(`/mature?next=${encodeURIComponent(nightPath)}`);
  });

  it("Continue sets a browser-session cookie and goes on; the page and the chapter then open", async () => {
    const out = await run(() => matureLoader(get(`/mature?next=${encodeURIComponent(`${nightPath}/1`)}`)));
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${nightPath}/1`);
    const setCookie = out.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^inkwell_mature=/);
    expect(setCookie.toLowerCase()).not.toContain("max-age");
    expect(setCookie.toLowerCase()).not.toContain("expires");
    const cookie = cookieHeader(setCookie);
    expect((await open(cookie)).data.matureNotice).toBeNull();
    const chapter = await run(() => chapterLoader(get(`${nightPath}/1`, cookie, { seriesName: NIGHT, chapterNumber: "1" })));
    expect(chapter.status).toBe(200);
    expect(chapter.data.chapter).toMatchObject({ number: 1 });
    // Only paths on this site.
    expect((await run(() => matureLoader(get("/mature?next=%2F%2Fevil.example")))).location).toBe("/series");
  });

  it("is skipped, and mature series are listed, once a reader turns on 'Show mature series'", async () => {
    const user = await web.api.register(`mature_opt_${process.pid}`);
    const cookie = await web.cookieFor(user);
    const save = (form: Record<string, string>) => run(() => settingsAction(args(request("/settings", { cookie, form }), web.context)));
    const on = await save({ intent: "mature", showMature: "on" });
    expect(on.data).toMatchObject({ form: "mature", ok: true, message: "Mature series are now shown in lists." });
    expect((await run(() => settingsLoader(get("/settings", cookie)))).data.showMature).toBe(true);
    expect((await open(cookie)).data.matureNotice).toBeNull();
    expect(names((await run(() => listLoader(get("/series?tag=horror", cookie)))).data.list)).toEqual([NIGHT]);
    // Unticked: the checkbox is absent from the form.
    const off = await save({ intent: "mature" });
    expect(off.data).toMatchObject({ ok: true, message: "Mature series are now hidden from lists." });
    expect((await run(() => settingsLoader(get("/settings", cookie)))).data.showMature).toBe(false);
    expect(names((await run(() => listLoader(get("/series?tag=horror", cookie)))).data.list)).toEqual([]);
  });
});

describe("the series form", () => {
  const form = (path: string, fields: Record<string, string>, params: Record<string, string> = {}) =>
    args(multipartRequest(path, { cookie: artistCookie, fields }), web.context, params);

  it("creates a series with its tags, status, rating and direction", async () => {
    const out = await run(() =>
      formAction(
        form("/publish/series", {
          name: "Form Made",
          description: "",
          tags: " Fantasy, samurai ,, fantasy",
          status: "completed",
          contentRating: "teen",
          readingDirection: "ltr",
        }),
      ),
    );
    expect(out.data).toMatchObject({ ok: true, message: "Series created successfully!" });
    const saved = (await web.api.request.get("/series/Form%20Made")).body;
    expect(saved).toMatchObject({ tags: ["fantasy", "samurai"], status: "completed", contentRating: "teen", readingDirection: "ltr" });
    const edit = await run(() => formLoader(get(`/publish/series/${saved.id}`, artistCookie, { id: String(saved.id) })));
    expect(edit.data.entity?.meta).toEqual({
      tags: ["fantasy", "samurai"],
      status: "completed",
      contentRating: "teen",
      readingDirection: "ltr",
    });
  });

  it("shows a bad tag and a bad choice on their fields, keeping what was typed", async () => {
    const fields = { name: "Form Refused", description: "", tags: `fine, ${"x".repeat(31)}`, status: "paused", contentRating: "general" };
    const out = await run(() => formAction(form("/publish/series", { ...fields, readingDirection: "vertical" })));
    expect(out.status).toBe(400);
    expect(out.data.ok).toBe(false);
    expect(Object.keys(out.data.fieldErrors ?? {}).sort()).toEqual(["status", "tags"]);
    expect(out.data.values).toMatchObject({ tags: fields.tags, status: "paused" });
    const eleven = Array.from({ length: 11 }, (_, i) => `tag${i}`).join(", ");
    const many = await run(() => formAction(form("/publish/series", { ...fields, status: "ongoing", tags: eleven })));
    expect(Object.keys(many.data.fieldErrors ?? {})).toEqual(["tags"]);
    expect((await web.api.request.get("/series/Form%20Refused")).status).toBe(404);
  });
});
