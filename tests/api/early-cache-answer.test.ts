// The response cache's early answer (docs/api.md "The response cache"): a guest's GET whose target was answered from
// the cache before is answered before Helmet, CORS, the token check and routing run. What a client receives must be
// exactly what the normal path sends, byte for byte (the Date line aside), and it must never skip a check the normal
// path makes: a token, a write, a HEAD.
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ResponseCache } from "../../server/http/response-cache.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { createHub } from "../helpers/fixtures.ts";
import { imageBytes, uploadImage } from "../helpers/images.ts";

let api: TestApi;
let alice: TestUser;
let server: http.Server;
let cache: ResponseCache;
let hubName: string;
let postId: number;
let imageId: number;

beforeAll(async () => {
  api = await startTestApi();
  cache = api.app.locals.responseCache as ResponseCache;
  alice = await api.register();
  hubName = `Early Hub ${process.pid}`;
  const hub = await api.request.post("/hubs").set(alice.auth).send({ name: hubName });
  const post = await api.request
    .post("/hub-posts")
    .set(alice.auth)
    .send({ title: "Early post", content: "Its content", hubId: hub.body.id });
  postId = post.body.id;
  imageId = await uploadImage(api, alice, await imageBytes("jpeg", 900, 500), "wide.jpg");
  // Published (an avatar): public, so its bytes may be answered early.
  await api.request.put(`/user/${alice.id}`).set(alice.auth).send({ profileImageID: imageId }).expect(200);
  server = http.createServer(api.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await api.close();
});

/** One request on its own connection, and every byte of the answer as received; the Date line blanked. */
async function rawRequest(target: string, headers: Record<string, string> = {}, method = "GET"): Promise<string> {
  const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
  const lines = Object.entries({ Host: "localhost", Connection: "close", ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`${method} ${target} HTTP/1.1\r\n${lines.join("")}\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("latin1")
    .replace(/\r\nDate: [^\r]*\r\n/, "\r\nDate: (now)\r\n");
}

/** Counts the early answers given from now on. */
function earlyAnswers() {
  const spy = vi.spyOn(cache, "answerEarly");
  return {
    async count() {
      let n = 0;
      for (const result of spy.mock.results) if (result.type === "return" && (await result.value)) n++;
      return n;
    },
    restore: () => spy.mockRestore(),
  };
}

describe("the early answer of a guest's cached read", () => {
  const targets = () => [
    "/hubs?page=1",
    `/hubs/${encodeURIComponent(hubName)}/posts/latest?page=1&size=10`,
    `/hubs/${encodeURIComponent(hubName)}/${postId}`,
    "/series?tag=fantasy",
    "/data-version",
  ];

  it("is byte for byte the normal path's answer: computed, served from the cache, and early", async () => {
    for (const target of targets()) {
      const early = earlyAnswers();
      try {
        const computed = await rawRequest(target);
        const fromCache = await rawRequest(target);
        const answeredEarly = await rawRequest(target);
        expect(computed.startsWith("HTTP/1.1 200 OK\r\n"), target).toBe(true);
        expect(computed).toContain("\r\nContent-Security-Policy: ");
        expect(computed).toContain("\r\nAccess-Control-Allow-Origin: *\r\n");
        expect(fromCache, target).toBe(computed);
        expect(answeredEarly, target).toBe(computed);
        expect(await early.count(), target).toBe(1);
      } finally {
        early.restore();
      }
    }
  });

  it("answers If-None-Match with the normal path's 304, and a cross-origin request with its CORS headers", async () => {
    // A key of its own (per_page 7), so the first request computes the answer.
    const target = "/hubs?page=1&per_page=7";
    const first = await rawRequest(target);
    const etag = /\r\nETag: ([^\r]*)\r\n/.exec(first)![1]!;
    const early = earlyAnswers();
    try {
      const normal304 = await rawRequest(target, { "If-None-Match": etag });
      const early304 = await rawRequest(target, { "If-None-Match": etag });
      expect(normal304.startsWith("HTTP/1.1 304 Not Modified\r\n")).toBe(true);
      expect(early304).toBe(normal304);
      const cross = await rawRequest(target, { Origin: "https://elsewhere.example" });
      expect(cross).toBe(first);
      expect(await early.count()).toBe(2);
    } finally {
      early.restore();
    }
  });

  it("never answers a request with a token: a bad token is still a 401 on a target answered early before", async () => {
    const target = "/hubs?page=1";
    await rawRequest(target);
    await rawRequest(target);
    const early = earlyAnswers();
    try {
      const bad = await rawRequest(target, { Authorization: "Bearer not.a.token" });
      expect(bad.startsWith("HTTP/1.1 401 ")).toBe(true);
      const good = await rawRequest(target, alice.auth);
      expect(good.startsWith("HTTP/1.1 200 OK\r\n")).toBe(true);
      // HEAD takes the normal path.
      const head = await rawRequest(target, {}, "HEAD");
      expect(head.startsWith("HTTP/1.1 200 OK\r\n")).toBe(true);
      expect(await early.count()).toBe(0);
    } finally {
      early.restore();
    }
  });

  it("shows a write right after it is answered", async () => {
    const target = "/hubs?page=1&size=50";
    await rawRequest(target);
    await rawRequest(target);
    const before = await rawRequest(target);
    const name = `Early New ${process.pid}`;
    expect(before).not.toContain(name);
    await api.request.post("/hubs").set(alice.auth).send({ name });
    const early = earlyAnswers();
    try {
      // The entry the target was remembered with is of the old version: the normal path computes the answer again,
      // and keeps it under the same key, which the next requests are answered early from.
      const after = await rawRequest(target);
      expect(after).toContain(name);
      expect(await early.count()).toBe(0);
      expect(await rawRequest(target)).toBe(after);
      expect(await rawRequest(target)).toBe(after);
      expect(await early.count()).toBe(2);
    } finally {
      early.restore();
    }
  });

  it("answers a public image's bytes as the image endpoint does, per Accept header, and 304 to its ETag", async () => {
    for (const target of [`/images/${imageId}`, `/images/${imageId}?w=300`]) {
      for (const accept of [undefined, "image/avif,image/webp,*/*"]) {
        const headers: Record<string, string> = accept ? { Accept: accept } : {};
        // Another target of the same bytes (an ignored parameter): its first request takes the normal path.
        const other = `${target}${target.includes("?") ? "&" : "?"}v=${accept ? 1 : 2}`;
        const early = earlyAnswers();
        try {
          // An image's public answer is remembered from the first one (the byte cache keeps it).
          const first = await rawRequest(target, headers);
          expect(await early.count()).toBe(0);
          expect(first.startsWith("HTTP/1.1 200 OK\r\n"), target).toBe(true);
          expect(first).toContain("\r\nCache-Control: public, max-age=300, must-revalidate\r\n");
          expect(await rawRequest(target, headers), `${target} ${accept}`).toBe(first);
          expect(await early.count()).toBe(1);
          const etag = /\r\nETag: ([^\r]*)\r\n/.exec(first)![1]!;
          const normal304 = await rawRequest(other, { ...headers, "If-None-Match": etag });
          expect(normal304.startsWith("HTTP/1.1 304 Not Modified\r\n")).toBe(true);
          expect(await early.count()).toBe(1);
          expect(await rawRequest(target, { ...headers, "If-None-Match": etag })).toBe(normal304);
          expect(await early.count()).toBe(2);
        } finally {
          early.restore();
        }
      }
    }
    // The WebP rendition and the JPEG one are told apart by the Accept header they were asked with.
    const webp = await rawRequest(`/images/${imageId}?w=300`, { Accept: "image/webp" });
    expect(webp).toContain("\r\nContent-Type: image/webp\r\n");
    expect(await rawRequest(`/images/${imageId}?w=300`)).toContain("\r\nContent-Type: image/jpeg\r\n");
  });

  it("stops answering an image early once it is withdrawn", async () => {
    const id = await uploadImage(api, alice, await imageBytes("png", 60, 40), "logo.png");
    const hub = await createHub(api, alice, { profileImageId: id });
    const early = earlyAnswers();
    try {
      await rawRequest(`/images/${id}`);
      expect((await rawRequest(`/images/${id}`)).startsWith("HTTP/1.1 200 OK\r\n")).toBe(true);
      expect(await early.count()).toBe(1);
      // Its hub deleted, nothing publishes it: its uploader's only, a 404 for guests.
      await api.request.delete(`/hubs/${hub.id}`).set(alice.auth).expect(200);
      expect((await rawRequest(`/images/${id}`)).startsWith("HTTP/1.1 404 ")).toBe(true);
      expect(await early.count()).toBe(1);
    } finally {
      early.restore();
    }
  });

  it("remembers no more targets than the cache keeps entries", async () => {
    const small = await startTestApi({ responseCacheEntries: 3 });
    try {
      const smallCache = small.app.locals.responseCache as ResponseCache;
      for (let page = 1; page <= 6; page++) {
        await small.request.get(`/hubs?page=${page}`);
        await small.request.get(`/hubs?page=${page}`);
      }
      expect(smallCache.stats().knownUrls).toBe(3);
    } finally {
      await small.close();
    }
  });
});
