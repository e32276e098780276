import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ResponseCache } from "../../server/http/response-cache.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { countRows, createHub } from "../helpers/fixtures.ts";
import { noisePng } from "../helpers/images.ts";

/** A hub renamed behind the API's back (no dataChanged()) shows whether an answer came from the cache. */
const renameHub = (on: TestApi, id: number, name: string) => on.db.kysely.updateTable("Hub").set({ name }).where("id", "=", id).execute();

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
  const post = await api.request
    .post("/hub-posts")
    .set(alice.auth)
    .send({ title: "Cached post", content: "Content of the cached post", hubId: hub.body.id });
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
    const created = await api.request
      .post("/hubs")
      .set(bob.auth)
      .send({ name: `Fresh ${process.pid}` });

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

    await api.request
      .post("/hubs")
      .set(alice.auth)
      .send({ name: `Later ${process.pid}` });

    expect((await api.request.get(missing)).status).toBe(200);
  });
});

describe("answers that never read the caller are shared with signed-in callers", () => {
  it("serves a list a guest loaded to a signed-in caller from the cache, and the reverse", async () => {
    const created = await api.request
      .post("/hubs")
      .set(alice.auth)
      .send({ name: `Shared ${process.pid}` });
    const guestFirst = await api.request.get("/hubs?page=1&size=5");
    await renameHub(api, created.body.id, `Renamed ${process.pid}`);

    const signedIn = await api.request.get("/hubs?page=1&size=5").set(bob.auth);
    expect(signedIn.body).toEqual(guestFirst.body);
    expect(signedIn.headers.etag).toBe(guestFirst.headers.etag);

    api.dataChanged();
    const aliceFirst = await api.request.get("/hubs?page=1&size=5").set(alice.auth);
    expect(aliceFirst.body.content.map((h: { name: string }) => h.name)).toContain(`Renamed ${process.pid}`);
    await renameHub(api, created.body.id, `Shared ${process.pid}`);
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

    await api.request
      .post("/hubs")
      .set(alice.auth)
      .send({ name: `Versioned ${process.pid}` });

    expect((await api.request.get("/data-version")).body.version).not.toBe(first);
  });

  it("with a token, also moves with the caller's own reading progress, which moves nobody else's", async () => {
    const image = await api.request
      .post("/images")
      .set(alice.auth)
      .attach("file", await noisePng(40, 60), "page.png");
    const series = await api.request
      .post("/series")
      .set(alice.auth)
      .send({ name: `Versioned ${process.pid}`, description: "Progress" });
    const chapter = await api.request
      .post(`/series/${series.body.id}/chapters`)
      .set(alice.auth)
      .send({ title: "One", pages: [image.body.id] });
    expect([image.status, series.status, chapter.status]).toEqual([201, 201, 201]);
    // The chapter's notification job moves the version when it is done: let it finish first.
    await vi.waitFor(async () => expect(await api.db.kysely.selectFrom("Job").select("id").execute()).toEqual([]), { timeout: 10_000 });
    const versionOf = async (user?: TestUser) =>
      (await (user ? api.request.get("/data-version").set(user.auth) : api.request.get("/data-version"))).body.version as string;
    const [guest, mine, theirs] = [await versionOf(), await versionOf(bob), await versionOf(alice)];
    expect(mine.startsWith(`${guest}.`)).toBe(true);

    const saved = await api.request.put(`/me/progress/${series.body.id}`).set(bob.auth).send({ chapterNumber: 1, page: 1 });
    expect(saved.status).toBe(200);

    expect(await versionOf(bob)).not.toBe(mine);
    expect(await versionOf(alice)).toBe(theirs);
    expect(await versionOf()).toBe(guest);
  });

  it("moves once a write is committed, also when its client went away before the answer", async () => {
    const server = http.createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const name = `Abandoned ${process.pid}`;
      const body = JSON.stringify({ name });
      const before = (await api.request.get("/data-version")).body.version;
      const requestSeen = new Promise<http.IncomingMessage>((resolve) => server.once("request", resolve));
      const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(
        `POST /hubs HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${alice.auth.Authorization}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      const req = await requestSeen;
      const bodyRead = new Promise((resolve) => req.once("end", resolve));

      // A read while the write is under way (its body not yet sent) is kept: it is older than the write.
      const during = await api.request.get("/hubs?page=1&size=50");
      socket.end(body);
      await bodyRead;
      socket.destroy();
      await until(
        async () => (await api.db.kysely.selectFrom("Hub").select("id").where("name", "=", name).executeTakeFirst()) !== undefined,
      );
      await until(async () => (await api.request.get("/data-version")).body.version !== before);

      const after = await api.request.get("/hubs?page=1&size=50");
      expect(during.body.content.map((h: { name: string }) => h.name)).not.toContain(name);
      expect(after.body.content.map((h: { name: string }) => h.name)).toContain(name);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("moves when an upload is committed after its client reset the connection (no answer was ever finished)", async () => {
    const server = http.createServer(api.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      // Noise does not compress: sharp works long enough on it for the reset to arrive first.
      const png = await noisePng(1600, 1600);
      const boundary = "----inkwell-abort";
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const images = () => countRows(api, "Image");
      const imagesBefore = await images();
      let finished = false;
      let closed = false;
      const requestSeen = new Promise<http.IncomingMessage>((resolve) =>
        server.once("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
          res.once("finish", () => (finished = true));
          res.once("close", () => (closed = true));
          resolve(req);
        }),
      );
      const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(
        `POST /images HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${alice.auth.Authorization}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      const req = await requestSeen;
      // The version once the write has started (the old scheme bumped here, and again on "finish").
      const started = (await api.request.get("/data-version")).body.version;
      const bodyRead = new Promise((resolve) => req.once("end", resolve));
      socket.write(body);
      await bodyRead;
      socket.resetAndDestroy();
      await until(() => closed);
      await until(async () => (await images()) > imagesBefore);

      await until(async () => (await api.request.get("/data-version")).body.version !== started);
      expect(finished).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
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

/** Polls until `done` holds, for at most two seconds. */
async function until(done: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 2000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("only a committed write moves the data version", () => {
  // A row changed behind the API's back shows whether an answer still comes from the cache.
  const hubNames = async (url: string) => (await api.request.get(url)).body.content.map((h: { name: string }) => h.name) as string[];
  let hubId: number;
  beforeAll(async () => {
    hubId = (await createHub(api, alice, { name: `Steady ${process.pid}` })).id;
  });

  const refused: [string, () => PromiseLike<{ status: number }>, number][] = [
    ["a junk POST to no route", () => supertest(api.app).post("/nope").send({ a: 1 }), 404],
    ["a junk DELETE to no route", () => supertest(api.app).delete("/hubs/x/y/z/w"), 404],
    ["a write without a token", () => api.request.post("/hubs").send({ name: "No token" }), 401],
    [
      "a write with a tampered token",
      () => api.request.post("/hubs").set("Authorization", `${alice.auth.Authorization}x`).send({ name: "Bad" }),
      401,
    ],
    ["an invalid write", () => api.request.post("/hubs").set(alice.auth).send({ name: "" }), 400],
    ["malformed JSON", () => api.request.post("/hubs").set(alice.auth).set("Content-Type", "application/json").send("{"), 400],
    ["a write someone may not make", () => api.request.put(`/hubs/${hubId}`).set(bob.auth).send({ name: "Taken over" }), 403],
    ["a write to something that does not exist", () => api.request.post("/hubs/No%20such%20hub/999999/like").set(bob.auth), 404],
    [
      "a name taken",
      () =>
        api.request
          .post("/hubs")
          .set(bob.auth)
          .send({ name: `Steady ${process.pid}` }),
      409,
    ],
  ];

  it.each(refused)("%s moves neither GET /data-version nor a cached answer", async (_label, send, status) => {
    const url = "/hubs?page=1&size=100";
    const version = (await api.request.get("/data-version")).body.version;
    await api.request.get(url);
    await renameHub(api, hubId, `Hidden ${process.pid}`);
    try {
      expect((await send()).status).toBe(status);

      expect((await api.request.get("/data-version")).body.version).toBe(version);
      const names = await hubNames(url);
      expect(names).toContain(`Steady ${process.pid}`);
      expect(names).not.toContain(`Hidden ${process.pid}`);
    } finally {
      await renameHub(api, hubId, `Steady ${process.pid}`);
    }
  });

  it("a successful write moves both", async () => {
    const url = "/hubs?page=1&size=100";
    const version = (await api.request.get("/data-version")).body.version;
    await api.request.get(url);

    await api.request
      .post(`/hubs/${encodeURIComponent(hubName)}/${postId}/like`)
      .set(bob.auth)
      .expect(200);

    expect((await api.request.get("/data-version")).body.version).not.toBe(version);
    await api.request
      .delete(`/hubs/${encodeURIComponent(hubName)}/${postId}/like`)
      .set(bob.auth)
      .expect(200);
  });
});

describe("the cache key is the validated request, and the cache is bounded by bytes", () => {
  let hubId: number;
  beforeAll(async () => {
    hubId = (await createHub(api, alice, { name: `Keyed ${process.pid}` })).id;
  });

  it.each([
    ["/hubs?page=1&size=100", "/hubs?page=1&size=100&junk=x&other=1"],
    ["/hubs?page=1&size=100", "/hubs?size=100"],
    ["/hubs?per_page=100", "/hubs?size=100"],
    ["/hubs?per_page=100&size=3", "/hubs?size=100&page=1"],
    ["/hubs", "/hubs?per_page=10&page=1&utm_source=spam"],
  ])("%s and %s are one entry", async (first, second) => {
    const cached = await api.request.get(first);
    await renameHub(api, hubId, `Moved ${process.pid}`);
    try {
      const again = await api.request.get(second);
      expect(again.body).toEqual(cached.body);
      expect(again.headers.etag).toBe(cached.headers.etag);
    } finally {
      await renameHub(api, hubId, `Keyed ${process.pid}`);
      api.dataChanged();
    }
  });

  it("keeps different pages apart", async () => {
    const one = await api.request.get("/hubs?page=1&size=1");
    const two = await api.request.get("/hubs?page=2&size=1");
    expect(two.body.page).toBe(2);
    expect(two.body.content[0].id).not.toBe(one.body.content[0].id);
  });

  it("does not grow with junk query parameters", async () => {
    const stats = () => (api.app.locals.responseCache as ResponseCache).stats();
    api.dataChanged();
    for (let i = 0; i < 50; i++) await api.request.get(`/hubs?page=1&junk${i}=${i}`);
    expect(stats().entries).toBe(1);
  });

  it("keeps at most API_CACHE_BYTES of answers, dropping the least recently used", async () => {
    const small = await startTestApi({ responseCacheBytes: 8 * 1024 });
    try {
      const user = await small.register();
      for (let i = 0; i < 20; i++)
        await small.request
          .post("/hubs")
          .set(user.auth)
          .send({ name: `Small ${i}` });
      const stats = () => (small.app.locals.responseCache as ResponseCache).stats();
      let largest = 0;
      for (let size = 1; size <= 20; size++) {
        const res = await small.request.get(`/hubs?size=${size}`);
        largest = Math.max(largest, Number(res.headers["content-length"]));
        expect(stats().bytes).toBeLessThanOrEqual(8 * 1024);
      }
      expect(largest).toBeGreaterThan(4 * 1024);
      expect(stats().entries).toBeGreaterThan(0);
      expect(stats().entries).toBeLessThan(20);
      // The newest answer is still kept (it shows the old name), the oldest went first (recomputed).
      await small.db.kysely.updateTable("Hub").set({ name: "Renamed" }).where("name", "=", "Small 19").execute();
      expect((await small.request.get("/hubs?size=20")).body.content[0].name).toBe("Small 19");
      expect((await small.request.get("/hubs?size=1")).body.content[0].name).toBe("Renamed");
    } finally {
      await small.close();
    }
  });
});
