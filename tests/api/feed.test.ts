// The following feed (docs/api.md §11, docs/decisions/017-discussion.md): new chapters of followed series and new
// posts of joined hubs, newest first, as the chapter and post lists show them, the newest 1,000 at most.
import { beforeAll, describe, expect, it } from "vitest";
import { sqliteOf } from "../../server/db/database.ts";
import { createFeedQueries } from "../../server/feed/feed.queries.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, hubPath, insertPost, joinHub, uniqueName } from "../helpers/fixtures.ts";
import { testEngine } from "../helpers/test-data-dir.ts";

let api: TestApi;
let author: TestUser;
let reader: TestUser;

setUpSharedTestApi(["feed_author", "feed_reader"], (started, users) => {
  api = started;
  [author, reader] = users;
});

interface Item {
  type: "chapter" | "post";
  date: string;
  chapter?: { id: number; seriesName: string; number: number; date: string };
  post?: { id: number; hubName: string; date: string };
}
interface FeedPage {
  content: Item[];
  page: number;
  perPage: number;
  totalPages: number;
  totalElements: number;
}

const feed = async (user: TestUser, query = ""): Promise<FeedPage> => {
  const res = await api.request.get(`/me/feed${query}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as FeedPage;
};

async function newSeries(owner: TestUser) {
  const res = await api.request
    .post("/series")
    .set(owner.auth)
    .send({ name: uniqueName("Feed series"), description: "" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
}

/** A chapter row with a chosen date, counted in its series' chapterCount. */
async function insertChapter(seriesId: number, number: number, date: number): Promise<number> {
  const id = await api.db.kysely.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("Chapter")
      .values({ seriesId, number, title: `Chapter ${number}`, date, coverId: null, authorId: author.id })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("Series")
      .set((eb) => ({ chapterCount: eb("chapterCount", "+", 1) }))
      .where("id", "=", seriesId)
      .execute();
    return id;
  });
  api.dataChanged();
  return id;
}

const label = (item: Item) => `${item.type}:${item.type === "chapter" ? item.chapter!.id : item.post!.id}`;

describe("GET /me/feed", () => {
  const t = Date.UTC(2026, 2, 1);
  const expected: string[] = [];
  let followed: { id: number; name: string };

  beforeAll(async () => {
    followed = await newSeries(author);
    const alsoFollowed = await newSeries(author);
    const notFollowed = await newSeries(author);
    const joined = await createHub(api, author);
    const notJoined = await createHub(api, author);
    for (const s of [followed, alsoFollowed]) {
      expect((await api.request.post(`/user/${reader.id}/followed-series/${s.id}`).set(reader.auth)).status).toBe(200);
    }
    await joinHub(api, reader, joined.id);
    // Interleaved by date; at t + 50 a chapter and a post tie (the chapter first), as do two posts (the newest id first).
    const c1 = await insertChapter(followed.id, 1, t + 10);
    const p1 = await insertPost(api, { hubId: joined.id, authorId: author.id, title: "Post one", date: t + 20 });
    const c2 = await insertChapter(alsoFollowed.id, 1, t + 30);
    const c3 = await insertChapter(followed.id, 2, t + 50);
    const p2 = await insertPost(api, { hubId: joined.id, authorId: author.id, title: "Post two", date: t + 50 });
    const p3 = await insertPost(api, { hubId: joined.id, authorId: author.id, title: "Post three", date: t + 50 });
    const p4 = await insertPost(api, { hubId: joined.id, authorId: author.id, title: "Post four", date: t + 70 });
    await insertChapter(notFollowed.id, 1, t + 60);
    await insertPost(api, { hubId: notJoined.id, authorId: author.id, title: "Elsewhere", date: t + 80 });
    expected.push(`post:${p4}`, `chapter:${c3}`, `post:${p3}`, `post:${p2}`, `chapter:${c2}`, `post:${p1}`, `chapter:${c1}`);
  });

  it("is for signed-in callers only (401)", async () => {
    expectError(await api.request.get("/me/feed"), 401);
  });

  it("interleaves the chapters of followed series and the posts of joined hubs, newest first", async () => {
    const page = await feed(reader);
    expect(page.content.map(label)).toEqual(expected);
    expect(page).toMatchObject({ page: 1, perPage: 10, totalPages: 1, totalElements: 7 });
    for (const item of page.content) expect(item.date).toBe((item.chapter ?? item.post)!.date);
    expect(page.content.map((i) => Date.parse(i.date) - t)).toEqual([70, 50, 50, 50, 30, 20, 10]);
  });

  it("holds the items of the chapter and post lists, exactly as they show them to the caller", async () => {
    // The caller likes one post: likedByMe is theirs.
    const items = (await feed(reader)).content;
    const post = items.find((i) => i.type === "post")!.post!;
    expect((await api.request.post(`${hubPath(post.hubName)}/${post.id}/like`).set(reader.auth)).status).toBe(200);
    for (const item of (await feed(reader)).content) {
      if (item.type === "chapter") {
        const c = item.chapter!;
        const list = await api.request.get(`/series/${encodeURIComponent(c.seriesName)}/chapters?per_page=100`).set(reader.auth);
        expect(item.chapter).toEqual(list.body.content.find((x: { id: number }) => x.id === c.id));
      } else {
        const p = item.post!;
        const list = await api.request.get(`${hubPath(p.hubName)}/posts/latest?per_page=100`).set(reader.auth);
        expect(item.post).toEqual(list.body.content.find((x: { id: number }) => x.id === p.id));
      }
    }
    expect((await feed(reader)).content.find((i) => i.post?.id === post.id)!.post).toMatchObject({ likedByMe: true, likes: 1 });
  });

  it("pages the same order, with true totals and an empty page past the end", async () => {
    const pages = [await feed(reader, "?per_page=3"), await feed(reader, "?page=2&per_page=3"), await feed(reader, "?page=3&size=3")];
    expect(pages.flatMap((p) => p.content.map(label))).toEqual(expected);
    for (const p of pages) expect(p).toMatchObject({ perPage: 3, totalPages: 3, totalElements: 7 });
    expect(await feed(reader, "?page=4&per_page=3")).toMatchObject({ content: [], totalPages: 3, totalElements: 7 });
    expectFieldError(await api.request.get("/me/feed?page=0").set(reader.auth), "page");
  });

  it("is empty for someone who follows and joined nothing", async () => {
    const loner = await api.register();
    expect(await feed(loner)).toEqual({ content: [], page: 1, perPage: 10, totalPages: 1, totalElements: 0 });
  });

  it("follows a series' new chapter at once, unfollowing takes its chapters out", async () => {
    const newest = await insertChapter(followed.id, 3, t + 100);
    expect((await feed(reader, "?per_page=1")).content.map(label)).toEqual([`chapter:${newest}`]);
    expect((await api.request.delete(`/user/${reader.id}/followed-series/${followed.id}`).set(reader.auth)).status).toBe(200);
    const page = await feed(reader);
    expect(page.content.every((i) => i.chapter?.seriesName !== followed.name)).toBe(true);
    expect(page.totalElements).toBe(5); // four posts and the other series' chapter
  });

  it("holds the newest 1,000 items at most", async () => {
    const member = await api.register();
    const big = await createHub(api, author, { name: uniqueName("Big hub") });
    await joinHub(api, member, big.id);
    const rows = Array.from({ length: 1005 }, (_, i) => ({
      title: `Post ${i}`,
      content: "Body",
      description: "",
      date: t + i,
      authorId: author.id,
      hubId: big.id,
    }));
    await api.db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto("Post")
          .values(rows.slice(i, i + 200))
          .execute();
      await trx.updateTable("Hub").set({ postCount: rows.length }).where("id", "=", big.id).execute();
    });

    const first = await feed(member, "?per_page=1000");
    expect(first).toMatchObject({ totalElements: 1000, totalPages: 1 });
    expect(first.content).toHaveLength(1000);
    expect(first.content[0]!.date).toBe(new Date(t + 1004).toISOString());
    expect(first.content.at(-1)!.date).toBe(new Date(t + 5).toISOString());
    const last = await feed(member, "?page=34&per_page=30");
    expect(last).toMatchObject({ totalElements: 1000, totalPages: 34 });
    expect(last.content.map((i) => i.date)).toEqual(first.content.slice(990).map((i) => i.date));
    expect((await feed(member, "?page=35&per_page=30")).content).toEqual([]);
  });

  it("reads, for many followed series and joined hubs, every page as the plain merge of all their rows", async () => {
    // Only the links whose newest rows are past the page's cut are read for rows (feed.queries.ts): sources here have
    // from none to many rows, old and new, with ties across them, so a wrong cut shows on some page.
    const many = await api.register();
    const chapterIds: number[] = [];
    for (let s = 0; s < 24; s++) {
      const series = await newSeries(author);
      expect((await api.request.post(`/user/${many.id}/followed-series/${series.id}`).set(many.auth)).status).toBe(200);
      for (let c = 0; c < s % 7; c++) chapterIds.push(await insertChapter(series.id, c + 1, t + ((s * 37 + c * 101) % 400)));
    }
    const postIds: number[] = [];
    for (let h = 0; h < 4; h++) {
      const hub = await createHub(api, author, { name: uniqueName("Feed hub") });
      await joinHub(api, many, hub.id);
      for (let i = 0; i < h * 6; i++) {
        postIds.push(
          await insertPost(api, { hubId: hub.id, authorId: author.id, title: `P${h}.${i}`, date: t + ((h * 53 + i * 29) % 400) }),
        );
      }
    }
    const rows = [
      ...(await api.db.kysely.selectFrom("Chapter").select(["id", "date"]).where("id", "in", chapterIds).execute()).map((r) => ({
        ...r,
        type: "chapter",
      })),
      ...(await api.db.kysely.selectFrom("Post").select(["id", "date"]).where("id", "in", postIds).execute()).map((r) => ({
        ...r,
        type: "post",
      })),
    ];
    const all = rows
      .sort((a, b) => b.date - a.date || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || b.id - a.id)
      .map((r) => `${r.type}:${r.id}`);
    for (const perPage of [4, 7]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
        const body = await feed(many, `?page=${page}&per_page=${perPage}`);
        expect(body.totalElements).toBe(all.length);
        seen.push(...body.content.map(label));
      }
      expect(seen).toEqual(all);
    }
  });
});

// The bench measures the feed's speed; this keeps the shape that makes it fast on SQLite, whose planner once put the
// post table outside the user's links (a scan of every post per request: over 10 s on the large set).
if (testEngine === "sqlite") {
  describe("the feed's query plan on SQLite", () => {
    it("reads posts and chapters only by index lookups from the user's links, never by a scan", () => {
      const query = createFeedQueries(api.db).pageSql;
      const values = Array.from(query.matchAll(/\?/g), () => 1);
      const plan = sqliteOf(api.db, "The plan test")
        .prepare<number[], { detail: string }>(`EXPLAIN QUERY PLAN ${query}`)
        .all(...values)
        .map((row) => row.detail);

      expect(plan.filter((line) => line.startsWith("SEARCH")).length).toBeGreaterThan(4);
      expect(plan.filter((line) => /^SCAN (s|n)\b/.test(line))).toEqual([]);
    });
  });
}
