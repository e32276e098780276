// Deep pages of a hub's posts start from remembered sort keys instead of a long OFFSET
// (server/posts/post-page-keys.ts). Whatever the path, every page must equal the plain sort.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { createHub, joinHub } from "../helpers/fixtures.ts";

const POSTS = 1234; // crosses a dozen remembered keys
const PER_PAGE = 7;

let api: TestApi;
let alice: TestUser;
let hub: { id: number; name: string };

interface Row {
  id: number;
  date: number;
  likes: number;
}

function allPosts(): Promise<Row[]> {
  return api.db.kysely.selectFrom("Post").select(["id", "date", "likes"]).where("hubId", "=", hub.id).execute();
}

const expected = {
  latest: async () => (await allPosts()).sort((a, b) => b.date - a.date || b.id - a.id).map((r) => r.id),
  "by-likes": async () => (await allPosts()).sort((a, b) => b.likes - a.likes || b.id - a.id).map((r) => r.id),
};

async function everyPage(order: "latest" | "by-likes"): Promise<number[]> {
  const ids: number[] = [];
  const pages = Math.ceil(POSTS / PER_PAGE) + 2; // and past the end
  for (let page = 1; page <= pages; page++) {
    const res = await api.request.get(`/hubs/${encodeURIComponent(hub.name)}/posts/${order}?page=${page}&per_page=${PER_PAGE}`);
    expect(res.status).toBe(200);
    ids.push(...res.body.content.map((p: { id: number }) => p.id));
  }
  return ids;
}

beforeAll(async () => {
  api = await startTestApi({ responseCacheEntries: 0 }); // measure the queries, not the cache
  alice = await api.register();
  hub = await createHub(api, alice, { name: `Deep pages ${process.pid}` });
  // Many ties: dates repeat every 10 posts, most likes are 0, a few share small counts.
  const posts = Array.from({ length: POSTS }, (_, i) => ({
    title: "Deep post",
    content: "Body of a deep post",
    description: "",
    date: 1_700_000_000_000 + Math.floor(i / 10) * 1000,
    likes: i % 13 === 0 ? i % 5 : 0,
    authorId: alice.id,
    hubId: hub.id,
  }));
  await api.db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto("Post").values(posts).execute();
    await trx
      .updateTable("Hub")
      .set((eb) => ({ postCount: eb("postCount", "+", POSTS) }))
      .where("id", "=", hub.id)
      .execute();
  });
  api.dataChanged();
});
afterAll(() => api.close());

describe("deep pages of a hub's posts", () => {
  it("list every post once, in the latest order, across all pages", async () => {
    expect(await everyPage("latest")).toEqual(await expected.latest());
  });

  it("list every post once, in the most-liked order with ties broken by id", async () => {
    expect(await everyPage("by-likes")).toEqual(await expected["by-likes"]());
  });

  it("follow a like that moves a deep post to the top of the most-liked order", async () => {
    await everyPage("by-likes"); // remember the keys first
    const deepPost = (await expected["by-likes"]()).at(-5)!;
    const likers = await Promise.all([api.register(), api.register(), api.register(), api.register(), api.register(), api.register()]);
    for (const user of likers) {
      await api.request
        .post(`/hubs/${encodeURIComponent(hub.name)}/${deepPost}/like`)
        .set(user.auth)
        .expect(200);
    }

    const ids = await everyPage("by-likes");

    expect(ids[0]).toBe(deepPost);
    expect(ids).toEqual(await expected["by-likes"]());
  });

  it("follow a new post, which shifts every position of the latest order", async () => {
    await everyPage("latest");
    await joinHub(api, alice, hub.id);
    const created = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ title: "Newest of all", content: "A post that shifts every page", hubId: hub.id });

    const ids = await everyPage("latest");

    expect(ids[0]).toBe(created.body.id);
    expect(ids).toEqual(await expected.latest());
  });
});
