// Two API instances on one database and one Redis (REDIS_URL): what one writes, the other's caches drop at once,
// and they count attempts together (issue 12, docs/decisions/015-shared-state.md).
import supertest from "supertest";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { sharedRead } from "../../common/shared-read.ts";
import { redisSharedState, type SharedState } from "../../server/shared-state.ts";
import { testConfig } from "../helpers/api.ts";
import { freshTestStore, type TestStore } from "../helpers/test-data-dir.ts";
import { startRedis, type RunningRedis } from "../services/redis.ts";

let redis: RunningRedis;
let store: TestStore;
const databases: Database[] = [];
const states: SharedState[] = [];
let a: supertest.Agent;
let b: supertest.Agent;
let token: string;

/** One instance: its own database connection and its own Redis client, as a separate process would have. */
async function instance(): Promise<supertest.Agent> {
  const db = await store.open();
  const shared = redisSharedState(redis.url);
  databases.push(db);
  states.push(shared);
  return supertest.agent(createApp({ db, config: testConfig(store.dataDir), shared }));
}

beforeAll(async () => {
  redis = await startRedis();
  store = await freshTestStore();
  a = await instance();
  b = await instance();
  const res = await a.post("/auth/register").send({ username: "sharer", email: "sharer@example.com", password: "secret123" });
  expect(res.status).toBe(201);
  token = res.body.accessToken as string;
});

afterAll(async () => {
  for (const db of databases) await db.close();
  for (const shared of states) await shared.close();
  await store?.remove();
  await redis?.stop();
});

describe("the data version in Redis", () => {
  it("is the same on both instances and moves on both with a write through either", async () => {
    const before = (await a.get("/data-version")).body.version as string;
    expect((await b.get("/data-version")).body.version).toBe(before);

    const hub = await b.post("/hubs").set("Authorization", `Bearer ${token}`).send({ name: "Shared Version Hub" });
    expect(hub.status).toBe(201);

    const after = (await a.get("/data-version")).body.version as string;
    expect(after).not.toBe(before);
    expect((await b.get("/data-version")).body.version).toBe(after);
  });

  it("keeps each user's own counter there too: one user's progress moves their version on both, and nobody else's", async () => {
    const [one, two] = states.map((state) => state.dataVersion);
    const [mine, theirs] = [await one!.currentFor(41), await one!.currentFor(42)];
    expect(await two!.currentFor(41)).toBe(mine);

    await two!.bumpFor(41);

    expect(await one!.currentFor(41)).not.toBe(mine);
    expect(await one!.currentFor(41)).toBe(await two!.currentFor(41));
    expect(await one!.currentFor(42)).toBe(theirs);
    expect(mine.startsWith(`${await one!.current()}.`)).toBe(true);
  });

  it("drops the other instance's cached answers: a write on A is read on B at once", async () => {
    const cached = await b.get("/hubs?per_page=50");
    expect(cached.status).toBe(200);
    expect(cached.body.content.map((h: { name: string }) => h.name)).not.toContain("Written On A");
    // The same request again comes from B's cache (same ETag, same body).
    expect((await b.get("/hubs?per_page=50")).headers.etag).toBe(cached.headers.etag);

    const created = await a.post("/hubs").set("Authorization", `Bearer ${token}`).send({ name: "Written On A" });
    expect(created.status).toBe(201);

    const fresh = await b.get("/hubs?per_page=50");
    expect(fresh.body.content.map((h: { name: string }) => h.name)).toContain("Written On A");
  });

  it("starts a new epoch when Redis loses its data, so an old version string never comes back", async () => {
    const before = (await a.get("/data-version")).body.version as string;
    const client = new Redis(redis.url);
    await client.flushall();
    await client.quit();
    const after = (await b.get("/data-version")).body.version as string;
    expect(after.split(".")[0]).not.toBe(before.split(".")[0]);
    expect((await a.get("/data-version")).body.version).toBe(after);
  });
});

describe("reading the version under load", () => {
  /** The Lua script calls Redis has run so far (EVALSHA, or EVAL the first time). */
  async function scriptCalls(): Promise<number> {
    const client = new Redis(redis.url);
    const stats = await client.info("commandstats");
    await client.quit();
    let calls = 0;
    for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
    return calls;
  }

  it("asks Redis once for the requests that arrive together, and each gets the version", async () => {
    const [one] = states;
    const expected = await one!.dataVersion.current();
    const before = await scriptCalls();
    const versions = await Promise.all(Array.from({ length: 50 }, () => one!.dataVersion.current()));
    expect(versions).toEqual(Array(50).fill(expected));
    // The first call goes at once; the 49 that came while it was out share the next one.
    expect((await scriptCalls()) - before).toBe(2);
  });

  it("answers a caller who came after a write with the version after it", async () => {
    const [one, two] = states.map((state) => state.dataVersion);
    for (let i = 0; i < 20; i++) {
      const early = one!.current();
      const written = await two!.bump();
      expect(await one!.current()).toBe(written);
      await early;
    }
  });
});

describe("sharedRead", () => {
  function deferredReads() {
    const calls: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
    const read = () => new Promise<string>((resolve, reject) => calls.push({ resolve, reject }));
    return { calls, read };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("sends one call at once, and one more for everyone who came while it was out", async () => {
    const { calls, read } = deferredReads();
    const shared = sharedRead(read);
    const first = shared();
    const [second, third] = [shared(), shared()];
    expect(calls).toHaveLength(1);

    calls[0]!.resolve("v1");
    expect(await first).toBe("v1");
    await settle();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve("v2");
    expect(await second).toBe("v2");
    expect(await third).toBe("v2");

    // Nothing out: the next caller sends its own call at once.
    const fourth = shared();
    expect(calls).toHaveLength(3);
    calls[2]!.resolve("v3");
    expect(await fourth).toBe("v3");
  });

  it("fails only the callers of a failed call", async () => {
    const { calls, read } = deferredReads();
    const shared = sharedRead(read);
    const first = shared();
    const second = shared();
    calls[0]!.reject(new Error("Redis went away"));
    await expect(first).rejects.toThrow("Redis went away");
    await settle();
    calls[1]!.resolve("v2");
    expect(await second).toBe("v2");
  });
});

describe("attempt counts in Redis", () => {
  it("are shared: attempts on two instances count against one limit", async () => {
    const [one, two] = states;
    const onA = one!.attemptCounter("shared-test", 3, 60);
    const onB = two!.attemptCounter("shared-test", 3, 60);
    expect(await onA.take("visitor")).toBeNull();
    expect(await onB.take("visitor")).toBeNull();
    expect(await onA.take("visitor")).toBeNull();
    // The fourth attempt, wherever it lands, is refused, with the seconds to wait.
    const wait = await onB.take("visitor");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await onA.blockedFor("visitor")).toBeGreaterThan(0);
    await onB.forget("visitor");
    expect(await onA.blockedFor("visitor")).toBeNull();
  });

  it("count one account's data exports on both instances against one limit (docs/api.md §12)", async () => {
    const res = await a.post("/auth/register").send({ username: "exporter", email: "exporter@example.com", password: "secret123" });
    const auth = { Authorization: `Bearer ${res.body.accessToken as string}` };
    const path = `/user/${(await a.get("/user/exporter")).body.id as number}/export`;
    for (const instance of [a, b, a]) expect((await instance.get(path).set(auth)).status).toBe(200);

    const refused = await b.get(path).set(auth);

    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });
});
