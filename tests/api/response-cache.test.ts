import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";

let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let hubName: string;
let postId: number;

beforeAll(async () => {
  api = await startTestApi();
  alice = await api.register();
  bob = await api.register();
  hubName = `Cache Hub ${process.pid}`;
  const hub = await api.request.post("/hubs").set(alice.auth).send({ name: hubName });
  const post = await api.request.post("/hub-posts").set(alice.auth).send({ title: "Cached post", content: "Content of the cached post", hubId: hub.body.id });
  postId = post.body.id;
});
afterAll(() => api.close());

const postPath = () => `/hubs/${encodeURIComponent(hubName)}/${postId}`;

describe("anonymous GET answers are reused until the next write", () => {
  it("answers the same body and ETag twice, and 304 to If-None-Match", async () => {
    const first = await api.request.get("/hubs?page=1");
    const second = await api.request.get("/hubs?page=1");
    expect(second.body).toEqual(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);

    const revalidated = await supertest(api.app).get("/hubs?page=1").set("If-None-Match", first.headers.etag!);
    expect(revalidated.status).toBe(304);
  });

  it("shows a new hub right after it is created", async () => {
    const before = await api.request.get("/hubs?page=1");
    const created = await api.request.post("/hubs").set(bob.auth).send({ name: `Fresh ${process.pid}` });

    const after = await api.request.get("/hubs?page=1");

    expect(after.body.totalElements).toBe(before.body.totalElements + 1);
    expect(after.body.content[0].id).toBe(created.body.id);
  });

  it("shows a like to a guest right after it is made, and its removal after it is undone", async () => {
    const before = (await api.request.get(postPath())).body.likes;

    await api.request.post(`${postPath()}/like`).set(bob.auth);
    expect((await api.request.get(postPath())).body.likes).toBe(before + 1);

    await api.request.delete(`${postPath()}/like`).set(bob.auth);
    expect((await api.request.get(postPath())).body.likes).toBe(before);
  });

  it("never shares an answer that read the caller: likedByMe stays per user, whoever asks first", async () => {
    await api.request.post(`${postPath()}/like`).set(alice.auth);

    // Each asks twice, in turns, so a kept answer would be handed to the next one.
    for (let round = 0; round < 2; round++) {
      expect((await api.request.get(postPath())).body.likedByMe).toBe(false);
      expect((await api.request.get(postPath()).set(alice.auth)).body.likedByMe).toBe(true);
      expect((await api.request.get(postPath()).set(bob.auth)).body.likedByMe).toBe(false);
    }
    const hub = `/hubs/${encodeURIComponent(hubName)}`;
    for (let round = 0; round < 2; round++) {
      expect((await api.request.get(hub)).body.joinedByMe).toBe(false);
      expect((await api.request.get(hub).set(alice.auth)).body.joinedByMe).toBe(true);
      expect((await api.request.get(hub).set(bob.auth)).body.joinedByMe).toBe(false);
    }
  });

  it("does not keep error answers", async () => {
    const missing = `/hubs/${encodeURIComponent(`Later ${process.pid}`)}`;
    expect((await api.request.get(missing)).status).toBe(404);

    await api.request.post("/hubs").set(alice.auth).send({ name: `Later ${process.pid}` });

    expect((await api.request.get(missing)).status).toBe(200);
  });
});

describe("answers that never read the caller are shared with signed-in callers", () => {
  // A row changed behind the API's back (no dataChanged()) shows whether an answer came from the cache.
  const renameBehindTheApi = (id: number, name: string) => api.db.sqlite.prepare("UPDATE Hub SET name = ? WHERE id = ?").run(name, id);

  it("serves a list a guest loaded to a signed-in caller from the cache, and the reverse", async () => {
    const created = await api.request.post("/hubs").set(alice.auth).send({ name: `Shared ${process.pid}` });
    const guestFirst = await api.request.get("/hubs?page=1&size=5");
    renameBehindTheApi(created.body.id, `Renamed ${process.pid}`);

    const signedIn = await api.request.get("/hubs?page=1&size=5").set(bob.auth);
    expect(signedIn.body).toEqual(guestFirst.body);
    expect(signedIn.headers.etag).toBe(guestFirst.headers.etag);

    api.dataChanged();
    const aliceFirst = await api.request.get("/hubs?page=1&size=5").set(alice.auth);
    expect(aliceFirst.body.content.map((h: { name: string }) => h.name)).toContain(`Renamed ${process.pid}`);
    renameBehindTheApi(created.body.id, `Shared ${process.pid}`);
    expect((await api.request.get("/hubs?page=1&size=5")).body).toEqual(aliceFirst.body);
    api.dataChanged();
  });

  it("still answers 401 to a bad token for a cached list", async () => {
    expect((await api.request.get("/hubs/top?per_page=3")).status).toBe(200);
    const tampered = await api.request.get("/hubs/top?per_page=3").set("Authorization", `${alice.auth.Authorization}x`);
    expect(tampered.status).toBe(401);
  });

  it("keeps the caller's own answer out of the cache: a user's email is never shown to others", async () => {
    const own = await api.request.get(`/user/${alice.username}`).set(alice.auth);
    const asGuest = await api.request.get(`/user/${alice.username}`);
    const asBob = await api.request.get(`/user/${alice.username}`).set(bob.auth);
    expect(JSON.stringify(own.body)).toContain(alice.email);
    expect(JSON.stringify(asGuest.body)).not.toContain(alice.email);
    expect(JSON.stringify(asBob.body)).not.toContain(alice.email);
  });
});

describe("with the cache turned off", () => {
  it("still answers correctly", async () => {
    const uncached = await startTestApi({ responseCacheEntries: 0 });
    try {
      const user = await uncached.register();
      const empty = await uncached.request.get("/hubs");
      await uncached.request.post("/hubs").set(user.auth).send({ name: "Uncached hub" });
      const after = await uncached.request.get("/hubs");
      expect(after.body.totalElements).toBe(empty.body.totalElements + 1);
    } finally {
      await uncached.close();
    }
  });
});

describe("GET /data-version", () => {
  it("stays the same across reads and changes with every write", async () => {
    const first = (await api.request.get("/data-version")).body.version;
    await api.request.get("/hubs");
    expect((await api.request.get("/data-version")).body.version).toBe(first);

    await api.request.post("/hubs").set(alice.auth).send({ name: `Versioned ${process.pid}` });

    expect((await api.request.get("/data-version")).body.version).not.toBe(first);
  });

  it("changes even for a refused write (the version is conservative)", async () => {
    const before = (await api.request.get("/data-version")).body.version;
    await api.request.post("/hubs").set(alice.auth).send({ name: "" });
    expect((await api.request.get("/data-version")).body.version).not.toBe(before);
  });

  it("differs between two runs of the API", async () => {
    const other = await startTestApi();
    try {
      const a = (await api.request.get("/data-version")).body.version;
      const b = (await other.request.get("/data-version")).body.version;
      expect(a.split(".")[0]).not.toBe(b.split(".")[0]);
    } finally {
      await other.close();
    }
  });
});
