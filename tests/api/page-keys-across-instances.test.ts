// Two API instances on one database (issue 12): the sort keys one instance remembers for deep pages of a hub's
// posts (server/posts/post-page-keys.ts) must not outlive a like or a new post taken by the other.
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { testConfig } from "../helpers/api.ts";
import { freshTestStore, type TestStore } from "../helpers/test-data-dir.ts";

const POSTS = 450; // four remembered keys per order
const PER_PAGE = 10;
const DEEP_PAGE = 31; // offset 300: starts from the third remembered key

let store: TestStore;
let dbA: Database;
let dbB: Database;
let appA: supertest.Agent;
let appB: supertest.Agent;
let hub: { id: number; name: string };
const users: { id: number; auth: { Authorization: string } }[] = [];

async function register(username: string) {
  const res = await appA.post("/auth/register").send({ username, email: `${username}@example.com`, password: "secret123" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const auth = { Authorization: `Bearer ${res.body.accessToken as string}` };
  const me = await appA.get(`/user/${username}`).set(auth);
  return { id: me.body.id as number, auth };
}

async function expected(order: "latest" | "by-likes"): Promise<number[]> {
  const rows = await dbA.kysely.selectFrom("Post").select(["id", "date", "likes"]).where("hubId", "=", hub.id).execute();
  return rows
    .sort(order === "latest" ? (a, b) => b.date - a.date || b.id - a.id : (a, b) => b.likes - a.likes || b.id - a.id)
    .map((r) => r.id);
}

async function deepPage(app: supertest.Agent, order: "latest" | "by-likes"): Promise<number[]> {
  const res = await app.get(`/hubs/${encodeURIComponent(hub.name)}/posts/${order}?page=${DEEP_PAGE}&per_page=${PER_PAGE}`);
  expect(res.status).toBe(200);
  return res.body.content.map((p: { id: number }) => p.id);
}

const expectedDeepPage = async (order: "latest" | "by-likes") =>
  (await expected(order)).slice((DEEP_PAGE - 1) * PER_PAGE, DEEP_PAGE * PER_PAGE);

beforeAll(async () => {
  store = await freshTestStore();
  dbA = await store.open();
  dbB = await store.open();
  // No response cache: each instance's cache is its own concern (shared-state.ts); this is about the keys.
  const config = testConfig(store.dataDir, { responseCacheEntries: 0 });
  appA = supertest.agent(createApp({ db: dbA, config }));
  appB = supertest.agent(createApp({ db: dbB, config }));
  const author = await register(`keys_author_${process.pid}`);
  users.push(author);
  const created = await appA
    .post("/hubs")
    .set(author.auth)
    .send({ name: `Page keys ${process.pid}`, description: "Two instances" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  hub = created.body as { id: number; name: string };
  // Dates repeat every 10 posts; no likes yet, so "by-likes" is by id.
  const posts = Array.from({ length: POSTS }, (_, i) => ({
    title: "Deep post",
    content: "Body of a deep post",
    description: "",
    date: 1_700_000_000_000 + Math.floor(i / 10) * 1000,
    authorId: author.id,
    hubId: hub.id,
  }));
  await dbA.kysely.transaction().execute(async (trx) => {
    await trx.insertInto("Post").values(posts).execute();
    await trx
      .updateTable("Hub")
      .set((eb) => ({ postCount: eb("postCount", "+", POSTS) }))
      .where("id", "=", hub.id)
      .execute();
  });
});
afterAll(async () => {
  await dbA?.close();
  await dbB?.close();
  await store?.remove();
});

describe("deep-page keys across two API instances", () => {
  it("instance A's next deep page follows a like taken by instance B", async () => {
    expect(await deepPage(appA, "by-likes")).toEqual(await expectedDeepPage("by-likes")); // A remembers its keys
    // The last post of the order jumps to the top: every position in between moves down by one.
    const last = (await expected("by-likes")).at(-1)!;
    const liker = await register(`keys_liker_${process.pid}`);
    const like = await appB.post(`/hubs/${encodeURIComponent(hub.name)}/${last}/like`).set(liker.auth);
    expect(like.status, JSON.stringify(like.body)).toBe(200);

    const page = await deepPage(appA, "by-likes");

    expect((await expected("by-likes"))[0]).toBe(last);
    expect(page).toEqual(await expectedDeepPage("by-likes"));
  });

  it("instance A's next deep page follows a post added through instance B", async () => {
    expect(await deepPage(appA, "latest")).toEqual(await expectedDeepPage("latest"));
    const created = await appB
      .post("/hub-posts")
      .set(users[0]!.auth)
      .send({ title: "Newest of all", content: "A post that shifts every page", hubId: hub.id });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const page = await deepPage(appA, "latest");

    expect((await expected("latest"))[0]).toBe(created.body.id);
    expect(page).toEqual(await expectedDeepPage("latest"));
  });

  it("instance A's next deep page of the most-liked order follows a post added through instance B", async () => {
    expect(await deepPage(appA, "by-likes")).toEqual(await expectedDeepPage("by-likes"));
    // A new post has no likes and the highest id: first among the posts without likes, ahead of the deep page.
    const created = await appB
      .post("/hub-posts")
      .set(users[0]!.auth)
      .send({ title: "Another new one", content: "A post among those without likes", hubId: hub.id });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    expect(await deepPage(appA, "by-likes")).toEqual(await expectedDeepPage("by-likes"));
  });
});
