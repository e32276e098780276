// Two API instances on one database and one Redis (REDIS_URL): each keeps hot image bytes in its own memory
// (server/images/image-bytes-cache.ts). A deletion or a removal through one must make both answer 404 at once, not
// only the one that took the write (issue 27, docs/decisions/025-withdrawable-images.md).
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, stopJobRunner } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { redisSharedState, type SharedState } from "../../server/shared-state.ts";
import { testConfig } from "../helpers/api.ts";
import { imageBytes } from "../helpers/images.ts";
import { freshTestStore, type TestStore } from "../helpers/test-data-dir.ts";
import { startRedis, type RunningRedis } from "../services/redis.ts";

let redis: RunningRedis;
let store: TestStore;
const databases: Database[] = [];
const states: SharedState[] = [];
const apps: ReturnType<typeof createApp>[] = [];
let a: supertest.Agent;
let b: supertest.Agent;
let auth: { Authorization: string };
let admin: { Authorization: string };

/** One instance: its own database connection, Redis client and image byte cache, as a separate process would have. */
async function instance(): Promise<supertest.Agent> {
  const db = await store.open();
  const shared = redisSharedState(redis.url, { keyPrefix: `images-${process.pid}:` });
  databases.push(db);
  states.push(shared);
  const app = createApp({ db, config: testConfig(store.dataDir, { s3: store.s3, adminUsernames: ["cache_root"] }), shared });
  apps.push(app);
  return supertest.agent(app);
}

async function register(username: string) {
  const res = await a.post("/auth/register").send({ username, email: `${username}@example.com`, password: "secret123" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { Authorization: `Bearer ${res.body.accessToken as string}` };
}

async function upload(): Promise<number> {
  const res = await a
    .post("/images")
    .set(auth)
    .attach("file", await imageBytes("png", 900, 1200), "page.png");
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** A new series with one chapter of two new pages: the chapter's path and id, and the pages. */
async function chapterOfTwoPages(name: string) {
  const series = await a.post("/series").set(auth).send({ name, description: "Two instances" });
  expect(series.status, JSON.stringify(series.body)).toBe(201);
  const pages = [await upload(), await upload()];
  const chapter = await a
    .post(`/series/${encodeURIComponent(name)}/chapters`)
    .set(auth)
    .send({ title: "One", pages });
  expect(chapter.status, JSON.stringify(chapter.body)).toBe(201);
  return { path: `/series/${encodeURIComponent(name)}/1`, id: chapter.body.id as number, pages };
}

/** Both instances read every page (original and a rendition), so each has them in its byte cache. */
async function readOnBoth(pages: number[]) {
  for (const app of [a, b]) {
    for (const id of pages) {
      for (const path of [`/images/${id}`, `/images/${id}?w=800`]) expect((await app.get(path)).status, path).toBe(200);
    }
  }
}

async function expectGoneOnBoth(pages: number[]) {
  for (const app of [a, b]) {
    for (const id of pages) {
      for (const path of [`/images/${id}`, `/images/${id}?w=800`, `/images/metadata/${id}`]) {
        expect((await app.get(path)).status, path).toBe(404);
      }
    }
  }
}

beforeAll(async () => {
  redis = await startRedis();
  store = await freshTestStore();
  a = await instance();
  b = await instance();
  auth = await register("cache_artist");
  admin = await register("cache_root");
});

afterAll(async () => {
  for (const app of apps) await stopJobRunner(app);
  for (const db of databases) await db.close();
  for (const shared of states) await shared.close();
  await store?.remove();
  await redis?.stop();
});

describe("image bytes kept by two instances", () => {
  it("a chapter deleted through one instance: both answer 404 for its pages at once", async () => {
    const chapter = await chapterOfTwoPages("Deleted On A");
    await readOnBoth(chapter.pages);

    expect((await a.delete(chapter.path).set(auth)).status).toBe(200);

    await expectGoneOnBoth(chapter.pages);
  });

  it("a chapter removed through one instance: both answer 404 to guests at once, and 200 again after the restore", async () => {
    const chapter = await chapterOfTwoPages("Removed On B");
    await readOnBoth(chapter.pages);

    const removed = await b
      .post("/moderation/remove")
      .set(admin)
      .send({ subject: { type: "chapter", id: chapter.id }, reason: "Takedown request" });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    await expectGoneOnBoth(chapter.pages);
    for (const app of [a, b])
      expect((await app.get(`/images/${chapter.pages[0]}?w=800`).set(auth)).headers["cache-control"]).toBe("private, no-store");

    const restored = await a
      .post("/moderation/restore")
      .set(admin)
      .send({ subject: { type: "chapter", id: chapter.id }, reason: "Cleared" });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    await readOnBoth(chapter.pages);
  });
});
