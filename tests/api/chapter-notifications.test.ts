// New-chapter notifications are a job (docs/decisions/017-discussion.md): publishing answers with a Job row and no
// per-follower work; the job runners of two API instances on one database tell every follower exactly once.
import { pino } from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, stopJobRunner } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import type { JobRunner } from "../../server/jobs/job-runner.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { testConfig } from "../helpers/api.ts";
import { imageBytes } from "../helpers/images.ts";
import { NO_COUNTER_MISMATCHES } from "../helpers/seeded-folder.ts";
import { freshTestStore, type TestStore } from "../helpers/test-data-dir.ts";

const FOLLOWERS = 1200;

let store: TestStore;
let dbA: Database;
let dbB: Database;
let appA: ReturnType<typeof createApp>;
let appB: ReturnType<typeof createApp>;
let a: supertest.Agent;
const runnerOf = (app: ReturnType<typeof createApp>) => app.locals.jobRunner as JobRunner;

interface User {
  id: number;
  username: string;
  auth: { Authorization: string };
}
let author: User;
let follower: User;
let series: { id: number; name: string };
let followerIds: number[];

async function register(username: string): Promise<User> {
  const res = await a.post("/auth/register").send({ username, email: `${username}@example.com`, password: "secret123" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const auth = { Authorization: `Bearer ${res.body.accessToken as string}` };
  return { id: (await a.get(`/user/${username}`).set(auth)).body.id as number, username, auth };
}

async function publish(title: string) {
  const image = await a
    .post("/images")
    .set(author.auth)
    .attach("file", await imageBytes(), "page.png");
  expect(image.status, JSON.stringify(image.body)).toBe(201);
  const res = await a
    .post(`/series/${series.id}/chapters`)
    .set(author.auth)
    .send({ title, pages: [image.body.id] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; number: number; date: string };
}

/** Followers written straight into the tables (fast), with the series' followersCount kept equal to them. */
async function insertFollowers(count: number, followedAt: number): Promise<number[]> {
  const users = Array.from({ length: count }, (_, i) => {
    const username = `cn${process.pid}_${followedAt % 100000}_${i}`;
    return {
      username,
      usernameKey: username,
      email: `${username}@example.com`,
      emailKey: `${username}@example.com`,
      passwordHash: "x",
      joinedAt: followedAt,
    };
  });
  return dbA.kysely.transaction().execute(async (trx) => {
    const ids = (await trx.insertInto("User").values(users).returning("id").execute()).map((r) => r.id);
    await trx
      .insertInto("Follow")
      .values(ids.map((userId) => ({ userId, seriesId: series.id, createdAt: followedAt })))
      .execute();
    await trx
      .updateTable("Series")
      .set((eb) => ({ followersCount: eb("followersCount", "+", count) }))
      .where("id", "=", series.id)
      .execute();
    return ids;
  });
}

const chapterNotifications = (chapterId: number) =>
  dbA.kysely.selectFrom("Notification").select(["userId", "actorId", "createdAt"]).where("chapterId", "=", chapterId).execute();
const jobs = () => dbA.kysely.selectFrom("Job").selectAll().orderBy("id").execute();
const waitForNoJobs = () => vi.waitFor(async () => expect(await jobs()).toEqual([]), { timeout: 20_000, interval: 25 });

beforeAll(async () => {
  store = await freshTestStore();
  dbA = await store.open();
  dbB = await store.open();
  const config = testConfig(store.dataDir, { s3: store.s3, responseCacheEntries: 0 });
  // A only wakes on its own publishing (its poll is far off); B polls often. Leases of 0 ms and batches of 100:
  // both runners claim the same job again and again and work it at once, batch by batch, taking turns on its row.
  appA = createApp({ db: dbA, config, jobs: { pollMs: 600_000, leaseMs: 0, batchSize: 100 } });
  appB = createApp({ db: dbB, config, jobs: { pollMs: 10, leaseMs: 0, batchSize: 100 } });
  a = supertest.agent(appA);
  author = await register(`cn_author_${process.pid}`);
  follower = await register(`cn_follower_${process.pid}`);
  const created = await a
    .post("/series")
    .set(author.auth)
    .send({ name: `Jobs ${process.pid}`, description: "Many followers" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  series = created.body as { id: number; name: string };
  expect((await a.post(`/user/${follower.id}/followed-series/${series.id}`).set(follower.auth)).status).toBe(200);
  // The author follows their own series: never told of their own chapter.
  expect((await a.post(`/user/${author.id}/followed-series/${series.id}`).set(author.auth)).status).toBe(200);
  followerIds = [follower.id, ...(await insertFollowers(FOLLOWERS - 1, Date.now() - 60_000))];
});

afterAll(async () => {
  if (appA) await stopJobRunner(appA);
  if (appB) await stopJobRunner(appB);
  await dbA?.close();
  await dbB?.close();
  await store?.remove();
});

describe("new-chapter notifications", () => {
  it("publishing answers with a job and no notification yet; two runners then tell each follower exactly once", async () => {
    await stopJobRunner(appA);
    await stopJobRunner(appB);

    const chapter = await publish("To everyone");

    expect(await jobs()).toMatchObject([{ kind: "chapter-notifications", subjectId: chapter.id, cursor: 0 }]);
    expect(await chapterNotifications(chapter.id)).toEqual([]);
    // Followed after the chapter: not told of it.
    const late = await insertFollowers(3, Date.parse(chapter.date) + 1);

    runnerOf(appB).start();
    runnerOf(appA).start();
    await waitForNoJobs();

    const made = await chapterNotifications(chapter.id);
    expect(made.map((n) => n.userId).sort((x, y) => x - y)).toEqual([...followerIds].sort((x, y) => x - y));
    expect(new Set(made.map((n) => n.actorId))).toEqual(new Set([author.id]));
    expect(new Set(made.map((n) => Number(n.createdAt)))).toEqual(new Set([Date.parse(chapter.date)]));
    const counts = await dbA.kysely
      .selectFrom("User")
      .select(["id", "unreadNotifications"])
      .where("id", "in", [...followerIds, ...late])
      .execute();
    for (const { id, unreadNotifications } of counts) expect(unreadNotifications, `user ${id}`).toBe(followerIds.includes(id) ? 1 : 0);

    const mine = await a.get("/me/notifications").set(follower.auth);
    expect(mine.body.content).toEqual([
      {
        id: expect.any(Number),
        kind: "chapter",
        read: false,
        createdAt: chapter.date,
        actor: { id: author.id, username: author.username, profileImageID: null },
        subject: {
          type: "chapter",
          id: chapter.id,
          title: `${series.name} – Chapter ${chapter.number}: To everyone`,
          url: `/series/${encodeURIComponent(series.name)}/${chapter.number}`,
        },
      },
    ]);
    followerIds.push(...late); // they follow from now on
  });

  it("wakes the publishing instance's runner at once, without waiting for a poll", async () => {
    await stopJobRunner(appB);
    try {
      const chapter = await publish("Woken");
      await waitForNoJobs();
      expect(await chapterNotifications(chapter.id)).toHaveLength(followerIds.length);
    } finally {
      runnerOf(appB).start();
    }
  });

  it("moves the data version once a chapter's notifications are all made (kept signed-in pages show unread counts)", async () => {
    await stopJobRunner(appA);
    await stopJobRunner(appB);
    try {
      const chapter = await publish("Counted");
      const published = (await a.get("/data-version")).body.version as string;
      expect((await a.get("/data-version")).body.version).toBe(published);

      runnerOf(appA).start();
      await waitForNoJobs();

      expect(await chapterNotifications(chapter.id)).toHaveLength(followerIds.length);
      expect((await a.get("/data-version")).body.version).not.toBe(published);
    } finally {
      runnerOf(appA).start();
      runnerOf(appB).start();
    }
  });

  it("takes over a job whose lease expired from its cursor, and leaves a job that is still held", async () => {
    await stopJobRunner(appA);
    await stopJobRunner(appB);
    const crashed = await publish("Left half done");
    const held = await publish("Held by a live instance");
    const everyone = [...followerIds].sort((x, y) => x - y);
    const cursor = everyone[599]!;
    // The first job's instance died after its sixth batch; the second is held for another minute.
    await dbA.kysely
      .updateTable("Job")
      .set({ cursor, runAfter: Date.now() - 1 })
      .where("subjectId", "=", crashed.id)
      .execute();
    await dbA.kysely
      .updateTable("Job")
      .set({ runAfter: Date.now() + 60_000 })
      .where("subjectId", "=", held.id)
      .execute();

    runnerOf(appB).start();
    await vi.waitFor(async () => expect((await jobs()).map((j) => j.subjectId)).toEqual([held.id]), { timeout: 20_000, interval: 25 });
    await new Promise((resolve) => setTimeout(resolve, 200)); // a few more polls of B

    expect((await chapterNotifications(crashed.id)).map((n) => n.userId).sort((x, y) => x - y)).toEqual(
      everyone.filter((id) => id > cursor),
    );
    expect(await chapterNotifications(held.id)).toEqual([]);
    expect(await jobs()).toMatchObject([{ subjectId: held.id, cursor: 0 }]);

    // The held job's lease ends: taken over and finished.
    await dbA.kysely.updateTable("Job").set({ runAfter: Date.now() }).where("subjectId", "=", held.id).execute();
    await waitForNoJobs();
    expect(await chapterNotifications(held.id)).toHaveLength(followerIds.length);
    expect(await counterMismatches(dbA.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });
});

describe("the job runner's lifecycle", () => {
  it("stops by itself, quietly, once its app's database is closed without stopping it", async () => {
    const own = await freshTestStore();
    const db = await own.open();
    const logged: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => logged.push(line) });
    const app = createApp({ db, config: testConfig(own.dataDir), logger, jobs: { pollMs: 10 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await db.close();
    await new Promise((resolve) => setTimeout(resolve, 200)); // many polls' worth

    expect(logged).toEqual([]);
    await stopJobRunner(app);
    await own.remove();
  });
});
