// The sitemap's data (docs/api.md "Sitemap"): GET /sitemap names the pages of each kind that list
// something; GET /sitemap/{kind}?page=N lists the live things whose ids are in ((N-1)*50000, N*50000], with the parts
// of their paths and their last change. Removed things, things in removed series or hubs and suspended users are left out.
import { CompiledQuery } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { nowMs } from "../../server/db/dates.ts";
import { SITEMAP_KINDS } from "../../server/rules/sitemap.ts";
import { createSitemapQueries } from "../../server/sitemap/sitemap.queries.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, insertHub, joinHub, uniqueName } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi, alice: TestUser, bob: TestUser, root: TestUser;
setUpSharedTestApi(
  ["alice", "bob"],
  async (started, users) => {
    api = started;
    [alice, bob] = users;
    root = await api.register("Site_Root");
  },
  { adminUsernames: ["site_root"] },
);

interface Entry {
  parts: string[];
  lastmod: string | null;
}

const remove = async (type: string, id: number, user: TestUser) => {
  const res = await api.request.post("/moderation/remove").set(user.auth).send({ subject: { type, id }, reason: "Off topic" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const sitemapPage = async (kind: string, page = 1) => {
  const res = await api.request.get(`/sitemap/${kind}?page=${page}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ kind, page });
  return res.body.items as Entry[];
};

const pagesOf = async (kind: string) => {
  const res = await api.request.get("/sitemap");
  expect(res.status).toBe(200);
  expect(res.body.idsPerPage).toBe(50_000);
  return (res.body.kinds as { kind: string; pages: number[] }[]).find((k) => k.kind === kind)!.pages;
};

let live: { hub: string; post: number; series: string; chapter: number };
let gone: { hub: string; post: number; hubPost: number; series: string; chapterOfRemoved: number; chapter: number };
let suspended: TestUser;

beforeAll(async () => {
  const hub = await createHub(api, alice);
  await joinHub(api, bob, hub.id);
  const post = await createPost(api, bob, hub.id, { title: "Kept post" });
  const removedPost = await createPost(api, bob, hub.id, { title: "Removed post" });
  await remove("post", removedPost.id, alice);
  const removedHub = await createHub(api, alice);
  const inRemovedHub = await createPost(api, alice, removedHub.id, { title: "In a removed hub" });
  await remove("hub", removedHub.id, root);

  const page = await uploadPng(api, alice, 30, 60);
  const newSeries = async () => {
    const res = await api.request
      .post("/series")
      .set(alice.auth)
      .send({ name: uniqueName("Series") });
    expect(res.status).toBe(201);
    return res.body as { id: number; name: string };
  };
  const chapterOf = async (series: { name: string }, title: string) => {
    const res = await api.request
      .post(`/series/${encodeURIComponent(series.name)}/chapters`)
      .set(alice.auth)
      .send({ title, pages: [page] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; number: number };
  };
  const series = await newSeries();
  const chapter = await chapterOf(series, "One");
  const removedChapter = await chapterOf(series, "Two");
  await remove("chapter", removedChapter.id, root);
  const removedSeries = await newSeries();
  const chapterOfRemoved = await chapterOf(removedSeries, "Lost");
  await remove("series", removedSeries.id, root);

  suspended = await api.register();
  const ban = await api.request.put(`/admin/users/${suspended.id}/ban`).set(root.auth).send({ reason: "Spam" });
  expect(ban.status, JSON.stringify(ban.body)).toBe(200);

  live = { hub: hub.name, post: post.id, series: series.name, chapter: chapter.number };
  gone = {
    hub: removedHub.name,
    post: removedPost.id,
    hubPost: inRemovedHub.id,
    series: removedSeries.name,
    chapterOfRemoved: chapterOfRemoved.number,
    chapter: removedChapter.number,
  };
});

describe("GET /sitemap/{kind}", () => {
  it("lists live posts by hub name and id with their date, leaving out removed posts and posts of removed hubs", async () => {
    const items = await sitemapPage("posts");
    const parts = items.map((i) => i.parts);
    expect(parts).toContainEqual([live.hub, String(live.post)]);
    expect(parts).not.toContainEqual([live.hub, String(gone.post)]);
    expect(parts).not.toContainEqual([gone.hub, String(gone.hubPost)]);
    for (const item of items) expect(item.lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it("lists live hubs, series and chapters, leaving out removed ones and the chapters of removed series", async () => {
    const hubs = (await sitemapPage("hubs")).map((i) => i.parts);
    expect(hubs).toContainEqual([live.hub]);
    expect(hubs).not.toContainEqual([gone.hub]);
    const series = (await sitemapPage("series")).map((i) => i.parts);
    expect(series).toContainEqual([live.series]);
    expect(series).not.toContainEqual([gone.series]);
    const chapters = (await sitemapPage("chapters")).map((i) => i.parts);
    expect(chapters).toContainEqual([live.series, String(live.chapter)]);
    expect(chapters).not.toContainEqual([live.series, String(gone.chapter)]);
    expect(chapters).not.toContainEqual([gone.series, String(gone.chapterOfRemoved)]);
  });

  it("gives a series the date of its newest chapter as its last change", async () => {
    const items = await sitemapPage("series");
    const entry = items.find((i) => i.parts[0] === live.series)!;
    const detail = (await api.request.get(`/series/${encodeURIComponent(live.series)}`)).body as { createdAt: string };
    expect(Date.parse(entry.lastmod!)).toBeGreaterThanOrEqual(Date.parse(detail.createdAt));
    const newest = (await api.request.get(`/series/${encodeURIComponent(live.series)}/chapters`)).body.content[0] as { date: string };
    expect(entry.lastmod).toBe(newest.date);
  });

  it("lists users by username, leaving out suspended ones", async () => {
    const users = (await sitemapPage("users")).map((i) => i.parts[0]);
    expect(users).toEqual(expect.arrayContaining([alice.username, bob.username]));
    expect(users).not.toContain(suspended.username);
  });

  it("pages by id: page 2 holds ids 50,001 to 100,000 only, and a page past the last is empty", async () => {
    const name = uniqueName("Far hub");
    await insertHub(api, { id: 50_001, name, authorId: alice.id, createdAt: nowMs() });
    expect((await sitemapPage("hubs", 2)).map((i) => i.parts)).toEqual([[name]]);
    expect((await sitemapPage("hubs", 1)).map((i) => i.parts)).not.toContainEqual([name]);
    expect(await sitemapPage("hubs", 3)).toEqual([]);
    expect(await pagesOf("hubs")).toEqual([1, 2]);
  });

  it("refuses an unknown kind or a page that is not a positive whole number", async () => {
    expectError(await api.request.get("/sitemap/comments"), 400);
    for (const page of ["0", "-1", "x", "1.5", "100001"]) expectError(await api.request.get(`/sitemap/posts?page=${page}`), 400);
  });
});

describe("GET /sitemap", () => {
  it("names, for every kind, the pages that list something", async () => {
    const res = await api.request.get("/sitemap");
    expect(res.status).toBe(200);
    const kinds = Object.fromEntries((res.body.kinds as { kind: string; pages: number[] }[]).map((k) => [k.kind, k.pages]));
    expect(Object.keys(kinds).sort()).toEqual(["chapters", "hubs", "posts", "series", "users"]);
    expect(kinds.posts).toEqual([1]);
    expect(kinds.users).toEqual([1]);
  });
});

describe("sitemap queries", () => {
  it("read each page as a range of the primary key, never the whole table", async () => {
    const queries = createSitemapQueries(api.db);
    const params = [50_000, 100_000, nowMs()];
    for (const kind of SITEMAP_KINDS) {
      const text = queries.sqlOf(kind);
      // The users' query names `now`; the others only the range: as many values as placeholders.
      const count = (text.match(/\?|\$\d+/g) ?? []).length;
      if (api.db.engine === "sqlite") {
        const plan = await api.db.kysely.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, params.slice(0, count)),
        );
        const details = plan.rows.map((r) => r.detail);
        expect(details[0], `${kind}: ${details.join(" / ")}`).toMatch(/^SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/);
        expect(
          details.filter((d) => /^SCAN|TEMP B-TREE/.test(d)),
          kind,
        ).toEqual([]);
      } else {
        // PostgreSQL picks a sequential scan for a small table: without it, the primary key's range must be read (a bitmap
        // scan and a sort of the page's rows, or an index scan in order).
        const plan = await api.db.kysely.transaction().execute(async (trx) => {
          await trx.executeQuery(CompiledQuery.raw("SET LOCAL enable_seqscan = off"));
          return trx.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`EXPLAIN ${text}`, params.slice(0, count)));
        });
        const lines = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
        // enable_seqscan = off only makes a sequential scan dear: with no usable index, the plan would still show one.
        expect(lines, kind).toContain("_pkey");
        expect(lines, kind).toContain("Index Cond: ((id > 50000) AND (id <= 100000))");
        expect(lines, kind).not.toContain("Seq Scan");
      }
    }
  });
});
