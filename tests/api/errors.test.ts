import { createHash, randomBytes } from "node:crypto";
import net from "node:net";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allEndpoints } from "../../server/app.ts";
import { answeredStatuses } from "../../server/http/endpoint.ts";
import { Random } from "../../seed/random.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { countRows } from "../helpers/fixtures.ts";
import { listenOnFreePort } from "../helpers/listening-app.ts";
import { uploadImage } from "../helpers/images.ts";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.ts";
import { totpCode } from "../helpers/totp-codes.ts";
import { unsubscribeSecret, unsubscribeToken } from "../../server/mail/unsubscribe.ts";
import { EMAIL_SETTINGS, MAIL_KINDS } from "../../server/rules/email-preferences.ts";

let api: TestApi;
let me: TestUser;
let hub: { id: number; name: string };
let postId: number;
let removablePostId: number;
let seriesId: number;
let imageId: number;
setUpSharedTestApi(["errors_me"], async (started, users) => {
  api = started;
  [me] = users;
  hub = (await api.request.post("/hubs").set(me.auth).send({ name: "Errors Hub", description: "for errors" })).body;
  postId = (await api.request.post("/hub-posts").set(me.auth).send({ title: "First post", content: "Some content here.", hubId: hub.id }))
    .body.id;
  removablePostId = (
    await api.request.post("/hub-posts").set(me.auth).send({ title: "To remove", content: "Some content here.", hubId: hub.id })
  ).body.id;
  seriesId = (await api.request.post("/series").set(me.auth).send({ name: "Errors Series" })).body.id;
  imageId = await uploadImage(api, me);
  const chapter = await api.request
    .post("/series/Errors%20Series/chapters")
    .set(me.auth)
    .send({ title: "One", pages: [imageId] });
  expect(chapter.status).toBe(201);
});

const TABLES = [
  "User",
  "Hub",
  "Post",
  "Series",
  "Chapter",
  "ChapterPage",
  "Image",
  "Membership",
  "Follow",
  "PostLike",
  "ChapterLike",
  "Comment",
  "CommentLike",
  "Notification",
] as const;
/** Row counts of every table: a rejected request must leave them all as they were. */
const rowCounts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await countRows(api, t)] as const)));

const postJson = (url: string, text: string, auth = me.auth) =>
  api.request.post(url).set(auth).set("Content-Type", "application/json").send(text);

describe("malformed and oversized bodies", () => {
  it.each(["{bad", '{"name": "x",}', "{'name': 'x'}", '{"name": "x"', "nul", '"just a string"', "12", "null"])(
    "answers 400 'Malformed JSON body' for %s",
    async (text) => {
      const res = await postJson("/hubs", text);

      expectError(res, 400, "Malformed JSON body");
    },
  );

  it("answers 400 with a body error for a JSON array", async () => {
    const res = await postJson("/hubs", '[{"name": "Array Hub"}]');

    expectFieldError(res, "body");
  });

  it("answers 413 for a JSON body over 1 MB, creating nothing", async () => {
    const before = await rowCounts();

    const res = await api.request
      .post("/hubs")
      .set(me.auth)
      .send({ name: "Huge Hub", description: "x".repeat(1_100_000) });

    expectError(res, 413);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 413 for an oversized body before looking at the credentials", async () => {
    const res = await api.request.post("/auth/login").send({ username: "x".repeat(1_100_000), password: "secret123" });

    expectError(res, 413);
  });

  it("answers 415 for a JSON body in an unsupported charset", async () => {
    const res = await api.request.post("/auth/login").set("Content-Type", "application/json; charset=klingon").send("{}");

    expectError(res, 415);
  });

  it("answers 400 for a body that claims gzip but is not", async () => {
    const res = await api.request.post("/auth/login").set("Content-Type", "application/json").set("Content-Encoding", "gzip").send("{}");

    expectError(res, 400);
  });

  it("answers 400 with field errors, not 5xx, for deeply nested JSON", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;

    const res = await postJson("/hubs", `{"name": ${deep}, "description": {"a": ${deep}}}`);

    expectFieldError(res, "name");
  });

  it("ignores a __proto__ key and answers field errors", async () => {
    const res = await postJson("/hubs", '{"__proto__": {"name": "Polluted"}, "constructor": {"prototype": {"x": 1}}}');

    expectFieldError(res, "name", "Hub name is required");
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it("answers field errors for a form-encoded body on a JSON endpoint", async () => {
    const res = await api.request.post("/auth/login").type("form").send({ username: "errors_me", password: "secret123" });

    expectFieldError(res, "username", "Username is required");
  });
});

const raw = (bytes: unknown) => bytes as string;

describe("a body is read only by operations that take one", () => {
  const bogus = (req: import("supertest").Test) => req.set("Content-Type", "application/json; charset=bogus").send('{"a":1}');

  it("ignores a body in a bogus charset on a GET, a like and a join (no undeclared 415)", async () => {
    expect((await bogus(api.request.get("/hubs"))).status).toBe(200);
    expect((await bogus(api.request.post(`/hubs/${encodeURIComponent(hub.name)}/${postId}/like`).set(me.auth))).status).toBe(200);
    expect((await bogus(api.request.delete(`/user/${me.id}/member-hubs/${hub.id}`).set(me.auth))).status).toBe(200);
    await api.request.post(`/user/${me.id}/member-hubs/${hub.id}`).set(me.auth).expect(200);
  });

  it("ignores a body over 1 MB and a gzip bomb on a GET (no undeclared 413)", async () => {
    const big = await api.request
      .get("/hubs")
      .set("Content-Type", "application/json")
      .send(`{"a":"${"x".repeat(2_000_000)}"}`);
    expect(big.status).toBe(200);
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, " "));
    const res = await api.request
      .get(`/hub-posts/${postId}`)
      .set("Content-Type", "application/json")
      .set("Content-Encoding", "gzip")
      .serialize(raw)
      .send(bomb);
    expect(res.status).toBe(200);
  });

  it("answers 404, not 413, to a large body sent to no route", async () => {
    const res = await api.request
      .post("/no-such-route")
      .set("Content-Type", "application/json")
      .send(`{"a":"${"x".repeat(2_000_000)}"}`);

    expectError(res, 404);
  });
});

describe("compressed JSON bodies", () => {
  const compressed = (encoding: string, bytes: Buffer, type = "application/json") =>
    // serialize: superagent would send a Buffer under a JSON type as JSON ({"type":"Buffer",...}).
    api.request.post("/hubs").set(me.auth).set("Content-Type", type).set("Content-Encoding", encoding).serialize(raw).send(bytes);

  it.each([
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
  ] as const)("reads a %s body", async (encoding, compress) => {
    const name = `Compressed ${encoding}`;
    const res = await compressed(encoding, compress(Buffer.from(JSON.stringify({ name, description: "é 漫画" }))));

    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name, description: "é 漫画" });
  });

  it("answers 413 at once to a gzip bomb (a few KB that inflate past 1 MB), creating nothing", async () => {
    const before = await rowCounts();
    const bomb = zlib.gzipSync(Buffer.concat([Buffer.from('{"name":"'), Buffer.alloc(8 * 1024 * 1024, "a"), Buffer.from('"}')]));
    expect(bomb.length).toBeLessThan(16 * 1024);

    const started = performance.now();
    const res = await compressed("gzip", bomb);

    expectError(res, 413);
    expect(performance.now() - started).toBeLessThan(500);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers 413 to a compressed body over 1 MB as sent", async () => {
    const res = await compressed("gzip", zlib.gzipSync(Buffer.from(`{"name":"${"x".repeat(3_000_000)}"}`), { level: 0 }));

    expectError(res, 413);
  });

  it.each(["compress", "x-custom", "gzip, gzip", "identity, br"])("answers 415 to the encoding %s", async (encoding) => {
    expectError(await compressed(encoding, Buffer.from("{}")), 415);
  });

  it("answers 415 to a compressed body in a charset other than UTF-8", async () => {
    expectError(await compressed("gzip", zlib.gzipSync(Buffer.from("{}")), "application/json; charset=latin1"), 415);
  });

  it.each([
    ["not JSON", zlib.gzipSync(Buffer.from("{bad"))],
    ["a bare string", zlib.gzipSync(Buffer.from('"x"'))],
    ["truncated gzip", zlib.gzipSync(Buffer.from('{"name":"x"}')).subarray(0, 10)],
  ])("answers 400 to %s", async (_label, bytes) => {
    expectError(await compressed("gzip", bytes), 400);
  });
});

describe("requests Node's parser refuses before the app", () => {
  /** Sends raw bytes to the app behind a server set up as server/main.ts does; answers the raw response. */
  async function raw(request: string): Promise<{ status: number; type: string; body: unknown }> {
    const listening = await listenOnFreePort(api.app);
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(listening.port, "127.0.0.1");
        let data = "";
        socket.on("data", (chunk: Buffer) => (data += chunk.toString()));
        socket.on("end", () => resolve(data));
        socket.on("error", reject);
        socket.end(request);
      });
      const [head, body] = text.split("\r\n\r\n");
      const type = /content-type: ([^;\r\n]*)/i.exec(head!)?.[1] ?? "";
      return { status: Number(head!.split(" ")[1]), type, body: type === "application/json" ? JSON.parse(body!) : body };
    } finally {
      await listening.close();
    }
  }

  it("answers 431 in the contract's body to headers over 16 KB (a huge token)", async () => {
    const res = await raw(`GET /hubs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${"a".repeat(20_000)}\r\n\r\n`);

    expect(res.status).toBe(431);
    expect(res.type).toBe("application/json");
    expect(res.body).toMatchObject({ status: 431, error: "Request Header Fields Too Large" });
  });

  it("answers 400 in the contract's body to a malformed request", async () => {
    const res = await raw("GET /hubs HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n");

    expect(res.status).toBe(400);
    expect(res.type).toBe("application/json");
    expect(res.body).toMatchObject({ status: 400, error: "Bad Request", message: "Malformed HTTP request" });
  });

  it("declares 431 for every operation", () => {
    for (const e of allEndpoints({ uploadMaxBytes: 1 })) expect(answeredStatuses(e), `${e.method} ${e.path}`).toContain(431);
  });
});

describe("unknown routes", () => {
  it.each<["get" | "post" | "put" | "delete", string]>([
    ["get", "/no-such-thing"],
    ["get", "/hubs/Errors%20Hub/posts/oldest"],
    ["delete", "/hubs"],
    ["put", "/auth/login"],
    ["post", "/user/1"],
    ["get", "/api/hubs"],
  ])("%s %s is 404 with the contract body", async (method, url) => {
    const res = await api.request[method](url);

    expectError(res, 404);
  });
});

describe("wrong types are 400 with field errors and change nothing", () => {
  const wrong: [string, unknown][] = [
    ["a number", 42],
    ["a boolean", true],
    ["a list", ["a", "b"]],
    ["an object", { text: "x" }],
  ];
  const textFields: [string, string, () => Record<string, unknown>, string][] = [
    [
      "POST /auth/register",
      "/auth/register",
      () => ({ username: "types_user", email: "types@example.com", password: "secret123" }),
      "username",
    ],
    [
      "POST /auth/register",
      "/auth/register",
      () => ({ username: "types_user", email: "types@example.com", password: "secret123" }),
      "email",
    ],
    [
      "POST /auth/register",
      "/auth/register",
      () => ({ username: "types_user", email: "types@example.com", password: "secret123" }),
      "password",
    ],
    ["POST /auth/login", "/auth/login", () => ({ username: "errors_me", password: "secret123" }), "username"],
    ["POST /auth/login", "/auth/login", () => ({ username: "errors_me", password: "secret123" }), "password"],
    ["POST /hubs", "/hubs", () => ({ name: "Typed Hub", description: "fine" }), "name"],
    ["POST /hubs", "/hubs", () => ({ name: "Typed Hub", description: "fine" }), "description"],
    ["POST /series", "/series", () => ({ name: "Typed Series", description: "fine" }), "name"],
    [
      "POST /hub-posts",
      "/hub-posts",
      () => ({ title: "A typed post", content: "Enough content.", description: "d", hubId: hub.id }),
      "title",
    ],
    [
      "POST /hub-posts",
      "/hub-posts",
      () => ({ title: "A typed post", content: "Enough content.", description: "d", hubId: hub.id }),
      "content",
    ],
    [
      "POST /hub-posts",
      "/hub-posts",
      () => ({ title: "A typed post", content: "Enough content.", description: "d", hubId: hub.id }),
      "description",
    ],
    ["POST /series/{name}/chapters", "/series/Errors%20Series/chapters", () => ({ title: "Typed", pages: [imageId] }), "title"],
  ];
  for (const [label, url, valid, field] of textFields) {
    it.each(wrong)(`${label}: ${field} as %s`, async (_what, value) => {
      const before = await rowCounts();

      const res = await api.request
        .post(url)
        .set(me.auth)
        .send({ ...valid(), [field]: value });

      expectFieldError(res, field);
      expect(await rowCounts()).toEqual(before);
    });
  }

  it.each(["username", "email", "password"])("POST /auth/register: %s as null", async (field) => {
    const res = await api.request
      .post("/auth/register")
      .send({ username: "types_user", email: "types@example.com", password: "secret123", [field]: null });

    expectFieldError(res, field);
  });

  it.each(["name"])("POST /hubs: %s as null", async (field) => {
    const res = await api.request
      .post("/hubs")
      .set(me.auth)
      .send({ name: "Null Hub", [field]: null });

    expectFieldError(res, field, "Hub name is required");
  });

  const idFields: [string, string, () => Record<string, unknown>, string, "post" | "put"][] = [
    ["POST /hub-posts", "/hub-posts", () => ({ title: "A typed post", content: "Enough content." }), "hubId", "post"],
    ["POST /hubs", "/hubs", () => ({ name: "Typed Hub" }), "profileImageId", "post"],
    ["POST /series", "/series", () => ({ name: "Typed Series" }), "profileBannerId", "post"],
    ["PUT /user/{id}", "", () => ({}), "profileImageID", "put"],
    ["POST /series/{name}/chapters", "/series/Errors%20Series/chapters", () => ({ title: "Typed", pages: [imageId] }), "coverId", "post"],
  ];
  const wrongIds: [string, unknown][] = [
    ["a numeric string", String(1)],
    ["a fraction", 1.5],
    ["zero", 0],
    ["a negative number", -1],
    ["a number beyond 32 bits", 99999999999],
    ["a boolean", true],
    ["a list", [1]],
    ["an object", { id: 1 }],
  ];
  for (const [label, url, valid, field, method] of idFields) {
    it.each(wrongIds)(`${label}: ${field} as %s`, async (_what, value) => {
      const before = await rowCounts();

      const res = await api.request[method](url || `/user/${me.id}`)
        .set(me.auth)
        .send({ ...valid(), [field]: value });

      expectFieldError(res, field);
      expect(await rowCounts()).toEqual(before);
    });
  }

  it.each<[string, unknown]>([
    ["a string", "1,2"],
    ["an empty list", []],
    ["a list of strings", ["1"]],
    ["a list with a fraction", [1.5]],
    ["a list with a repeated id", [1, 1]],
    ["null", null],
  ])("POST /series/{name}/chapters: pages as %s", async (_what, pages) => {
    const before = await rowCounts();

    const res = await api.request.post("/series/Errors%20Series/chapters").set(me.auth).send({ title: "Typed", pages });

    expectFieldError(res, "pages");
    expect(await rowCounts()).toEqual(before);
  });
});

describe("odd unicode never causes a 5xx or a half-written record", () => {
  const odd: [string, string][] = [
    ["a lone high surrogate", "Name \ud800 here"],
    ["a lone low surrogate", "Name \udc00 here"],
    ["a NUL character", "Name \u0000 here"],
    ["a right-to-left override", "Name \u202e here"],
    ["right-to-left marks", "\u200fName here\u200f"],
    ["emoji", "Name 🎨🖌️👩🏽‍🎨 here"],
    ["a zero-width joiner only", "\u200d\u200d\u200d"],
    ["a 100 KB string", "x".repeat(100_000)],
    ["a 100 KB string of emoji", "😀".repeat(25_000)],
    ["combining marks", "Z\u0351\u0352\u0353a\u0354\u0355l\u0356\u0357go"],
  ];

  /** Sends the body; a 2xx must store exactly what was sent (as read back), a 4xx nothing at all. */
  async function sendAndCheck(
    url: string,
    body: Record<string, unknown>,
    readBack: (res: { body: Record<string, unknown> }) => Promise<Record<string, unknown>>,
  ) {
    const before = await rowCounts();

    const res = await api.request.post(url).set(me.auth).send(body);

    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) {
      expectError(res, res.status);
      expect(await rowCounts()).toEqual(before);
    } else {
      expect(res.status).toBe(201);
      expect(await readBack(res)).toMatchObject(res.body);
    }
    return res;
  }

  let seq = 0;
  it.each(odd)("in a hub name and description: %s", async (_what, value) => {
    const res = await sendAndCheck(
      "/hubs",
      { name: `${value}${++seq}`.slice(-120_000), description: value },
      async (r) => (await api.request.get(`/hubs/id/${String(r.body.id)}`).set(me.auth)).body,
    );
    if (res.status === 201) expect(res.body.description).toBe(value.normalize("NFC").trim());
  });

  it.each(odd)("in a series name: %s", async (_what, value) => {
    await sendAndCheck(
      "/series",
      { name: `${value}${++seq}`, description: value },
      async (r) => (await api.request.get(`/series/id/${String(r.body.id)}`).set(me.auth)).body,
    );
  });

  it.each(odd)("in a post title, content and description: %s", async (_what, value) => {
    const res = await sendAndCheck(
      "/hub-posts",
      { title: `Title ${value}`, content: `Content ${value}`, description: value, hubId: hub.id },
      async (r) => (await api.request.get(`/hub-posts/${String(r.body.id)}`).set(me.auth)).body,
    );
    if (res.status === 201) expect(res.body.content).toBe(`Content ${value}`.normalize("NFC").trim());
  });

  it.each(odd)("in a registration: %s", async (_what, value) => {
    const before = await rowCounts();

    const res = await api.request.post("/auth/register").send({ username: value, email: `${value}@example.com`, password: value });

    expectError(res, 400);
    expect(await rowCounts()).toEqual(before);
  });

  it.each(odd)("in a login: %s", async (_what, value) => {
    const res = await api.request.post("/auth/login").send({ username: value, password: value });

    expect([400, 401]).toContain(res.status);
    expectError(res, res.status);
  });

  it.each(odd)("in a search: %s", async (_what, value) => {
    const res = await api.request.get(`/hubs/search?name=${encodeURIComponent(value.slice(0, 150).replace(/[\ud800-\udfff]/g, "?"))}`);

    expect(res.status).toBe(200);
  });

  it.each(odd.filter(([, v]) => v.length < 1000))("in a path name: %s", async (_what, value) => {
    const encoded = encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "?"));

    const hubRes = await api.request.get(`/hubs/${encoded}`);
    const userRes = await api.request.get(`/user/${encoded}`);

    expectError(hubRes, 404);
    expectError(userRes, 404);
  });
});

describe("absurd numbers in ids and paging", () => {
  const absurd = ["99999999999999999999", "-1", "1e3", "0x10", "1.5", "0", "abc", "Infinity", "NaN", "+1", " 1"];
  const idUrls = (bad: string) => [
    `/user/id/${bad}`,
    `/user/${bad}/member-hubs`,
    `/user/${bad}/followed-series`,
    `/user/${bad}/created-series`,
    `/user/${bad}/created-hubs`,
    `/hubs/id/${bad}`,
    `/series/id/${bad}`,
    `/hub-posts/${bad}`,
    `/hubs/Errors%20Hub/${bad}`,
    `/series/Errors%20Series/${bad}`,
    `/images/${bad}`,
    `/images/metadata/${bad}`,
  ];
  for (const bad of absurd) {
    it.each(idUrls(encodeURIComponent(bad)))(`GET %s is 400 (id ${JSON.stringify(bad)})`, async (url) => {
      const res = await api.request.get(url);

      expectError(res, 400);
      expect(res.body.errors?.length).toBeGreaterThan(0);
    });
  }

  it.each(absurd)("PUT and POST with the id %s are 400 and change nothing", async (bad) => {
    const before = await rowCounts();
    const id = encodeURIComponent(bad);

    const responses = await Promise.all([
      api.request.put(`/hubs/${id}`).set(me.auth).send({ name: "Renamed Hub" }),
      api.request.put(`/series/${id}`).set(me.auth).send({ name: "Renamed Series" }),
      api.request.put(`/hub-posts/${id}`).set(me.auth).send({ title: "Renamed post", content: "Renamed content" }),
      api.request.put(`/user/${id}`).set(me.auth).send({ profileImageID: null }),
      api.request.post(`/user/${me.id}/member-hubs/${id}`).set(me.auth),
      api.request.delete(`/user/${id}/followed-series/${seriesId}`).set(me.auth),
      api.request.post(`/hubs/Errors%20Hub/${id}/like`).set(me.auth),
      api.request.post(`/series/Errors%20Series/${id}/like`).set(me.auth),
    ]);

    for (const res of responses) expectError(res, 400);
    expect(await rowCounts()).toEqual(before);
  });

  const pagedUrls = [
    "/hubs",
    "/hubs/top",
    "/hubs/search",
    "/series",
    "/series/top",
    "/series/search",
    "/hubs/Errors%20Hub/posts/latest",
    "/series/Errors%20Series/chapters",
  ];
  for (const param of ["page", "per_page", "size"]) {
    it.each(absurd.flatMap((bad) => pagedUrls.map((url) => `${url}?${param}=${encodeURIComponent(bad)}`)))(
      `GET %s is 400 naming ${param}`,
      async (url) => {
        const res = await api.request.get(url);

        expectFieldError(res, param);
      },
    );
  }

  it.each(["/hubs?per_page=1001", "/series?size=5000", "/hubs?page=100000001", "/hubs?page=1&page=2"])("GET %s is 400", async (url) => {
    const res = await api.request.get(url);

    expectError(res, 400);
  });

  it("accepts the largest page and answers it empty with the true totals", async () => {
    const total = (await api.request.get("/hubs")).body.totalElements;

    const res = await api.request.get("/hubs?page=100000000&per_page=1000");

    expect(res.status).toBe(200);
    expect(total).toBeGreaterThan(0);
    expect(res.body).toMatchObject({
      content: [],
      page: 100000000,
      perPage: 1000,
      totalElements: total,
      totalPages: Math.ceil(total / 1000),
    });
  });
});

describe("percent-encoding errors in the path", () => {
  it.each([
    "/hubs/%E0%A4%A",
    "/hubs/%",
    "/hubs/%ZZ",
    "/hubs/%E0%A4%A/posts/latest",
    "/series/%E0%A4%A",
    "/series/%C0%AF/1",
    "/user/%E0%A4%A",
    "/user/%ED%A0%80",
    "/hubs/Errors%20Hub/%E0%A4%A",
  ])("GET %s is 400", async (url) => {
    const res = await api.request.get(url);

    expectError(res, 400);
  });

  it("POST /hubs/%E0%A4%A/1/like is 400 and changes nothing", async () => {
    const before = await rowCounts();

    const res = await api.request.post(`/hubs/%E0%A4%A/${postId}/like`).set(me.auth);

    expectError(res, 400);
    expect(await rowCounts()).toEqual(before);
  });

  it.each([
    ["a route of another method", "post", "/user/%FF/followed-series/"],
    ["no route at all", "get", "/nowhere/%FF"],
    ["no route at all, with a write method", "delete", "/nowhere/%E0%A4%A"],
  ] as const)("a malformed path is 400 on %s too, not 404", async (_, method, url) => {
    const res = await api.request[method](url).set(me.auth);

    expectError(res, 400, "Malformed URL: the path is not valid percent-encoding");
  });

  it("a broken escape in the query is a 400, not a 5xx", async () => {
    const res = await api.request.get("/hubs?page=%E0%A4%A");

    expectFieldError(res, "page");
  });
});

/** A seeded generator (the seed's), so a failing fuzz case can be replayed. */
function seeded(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}

function fuzzer(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (max: number) => Math.floor(random() * max);
  const alphabet = [
    "a",
    "Z",
    "0",
    "_",
    " ",
    "-",
    "/",
    "%",
    ".",
    "@",
    "ñ",
    "é",
    "漫",
    "画",
    "😀",
    "\u200f",
    "\u202e",
    "\u0000",
    "\u0007",
    "\n",
    "\t",
    "\ud800",
    "\udc00",
    "\\",
    '"',
    "'",
    "<",
    ">",
  ];
  const words = [
    "top",
    "search",
    "id",
    "Manga Lovers",
    "errors_me",
    "Errors Hub",
    "Errors Series",
    "a@b.co",
    "secret123",
    "null",
    "true",
    "0",
    "-1",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
  ];
  const string = (): string => {
    switch (int(4)) {
      case 0:
        return pick(words);
      case 1:
        return Array.from({ length: int(40) }, () => pick(alphabet)).join("");
      case 2:
        return pick(["x", "é", "😀", " "]).repeat(
          pick([
            0, 1, 2, 3, 5, 6, 9, 10, 29, 30, 31, 72, 73, 99, 100, 101, 199, 200, 201, 299, 300, 301, 499, 500, 501, 9999, 10_000, 10_001,
            40_000,
          ]),
        );
      default:
        return `${pick(words)} ${int(1_000_000)}`;
    }
  };
  const number = (): number =>
    pick([
      0,
      -0,
      1,
      -1,
      2,
      1.5,
      -1.5,
      2147483647,
      2147483648,
      -2147483649,
      Number.MAX_SAFE_INTEGER,
      1e308,
      -1e308,
      5e-324,
      int(100),
      imageId,
    ]);
  const value = (depth: number): unknown => {
    switch (int(depth > 2 ? 4 : 6)) {
      case 0:
        return string();
      case 1:
        return number();
      case 2:
        return pick([true, false, null]);
      case 3:
        return string();
      case 4:
        return Array.from({ length: int(5) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: int(4) }, () => [string(), value(depth + 1)]));
    }
  };
  /**
   * Raw text (broken JSON, JSON primitives, odd numbers), a valid body with one field changed, dropped or
   * added (these reach the services), or an object of random values on the endpoint's field names.
   */
  const body = (fields: string[], valid: Record<string, unknown>): string => {
    const roll = random();
    if (roll < 0.4) {
      const mutated: Record<string, unknown> = { ...valid };
      const key = pick([...Object.keys(valid), ...fields]);
      const how = random();
      if (how < 0.15) delete mutated[key];
      else if (how < 0.25) mutated[string()] = value(1);
      else if (how < 0.3) return JSON.stringify(valid);
      else mutated[key] = random() < 0.6 ? string() : value(1);
      return JSON.stringify(mutated);
    }
    if (roll < 0.48)
      return pick([
        "",
        "{",
        "}",
        "[",
        "{}}",
        '{"a":}',
        "nul",
        "tru",
        '"\\ud800"',
        "1e400",
        "-",
        '{"name": 1e400, "hubId": -0}',
        '{"pages": [1e400]}',
        "\u0000",
        '{"a":"\\u0000"}',
      ]);
    if (roll < 0.56) return JSON.stringify(value(3));
    const object: Record<string, unknown> = {};
    for (const field of fields) if (random() < 0.8) object[field] = random() < 0.5 ? string() : value(1);
    if (random() < 0.2) object[string()] = value(2);
    if (random() < 0.1) object.__proto__ = value(2);
    return JSON.stringify(object);
  };
  return { body };
}

describe("fuzz: random path parameters and query strings against every endpoint", () => {
  const ROUNDS = 40;
  const segments = [
    "1",
    "0",
    "-1",
    "1.5",
    "1e3",
    "0x10",
    "99999999999",
    "2147483647",
    "abc",
    "Errors%20Hub",
    "Errors%20Series",
    "top",
    "search",
    "id",
    "%E0%A4%A",
    "%",
    "%00",
    "%2F",
    "%ED%A0%80",
    "..",
    ".",
    "%20",
    "%F0%9F%98%80",
    "x".repeat(3000),
  ];
  const queryKeys = ["page", "per_page", "size", "name", "w", "page[]", "__proto__", "constructor"];
  const queryValues = ["1", "0", "-1", "1000", "1001", "abc", "", "%E0%A4%A", "%00", "1e3", "99999999999999999999", "x".repeat(500)];

  it.each(allEndpoints({ uploadMaxBytes: 10 * 1024 * 1024 }).map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))(
    "%s never answers 5xx",
    async (_label, e) => {
      const random = seeded([...e.path].reduce((h, c) => (h * 33 + c.charCodeAt(0)) >>> 0, 11));
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

      for (let round = 0; round < ROUNDS; round++) {
        const url = e.path.replace(/\{\w+\}/g, () => pick(segments));
        const query = Array.from({ length: Math.floor(random() * 3) }, () => `${pick(queryKeys)}=${pick(queryValues)}`).join("&");
        const res = await api.request[e.method](query ? `${url}?${query}` : url).set(me.auth);

        const where = `${e.method.toUpperCase()} ${url.slice(0, 200)}?${query.slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400 && res.type === "application/json") expect(res.body.status, where).toBe(res.status);
      }
    },
  );
});

type PasskeyOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
/**
 * The passkey endpoints' fuzz targets: the latest options asked for (the first round answers made-up ones), an
 * authenticator for the caller's passkeys, and one holding a key the site never saw, for sign-ins.
 */
const passkeyAnswers = (() => {
  const madeUp = { challenge: "ZnV6eg", rp: { id: "localhost" }, user: { id: "MQ" } };
  const stranger = new SoftwareAuthenticator("http://localhost:3000");
  stranger.create(madeUp);
  return {
    authenticator: new SoftwareAuthenticator("http://localhost:3000"),
    stranger,
    creation: madeUp as PasskeyOptions,
    rounds: 0,
    request: { ...madeUp, challengeId: "fuzz" } as PasskeyOptions & { challengeId: string },
  };
})();

describe("fuzz: random bodies against every POST/PUT JSON endpoint", () => {
  const ROUNDS = 200;
  const jsonEndpoints = allEndpoints({ uploadMaxBytes: 10 * 1024 * 1024 }).filter(
    (e) => e.body && (e.method === "post" || e.method === "put"),
  );
  const seriesName = async () =>
    encodeURIComponent((await api.db.kysely.selectFrom("Series").select("name").where("id", "=", seriesId).executeTakeFirstOrThrow()).name);
  const hubName = async () =>
    encodeURIComponent((await api.db.kysely.selectFrom("Hub").select("name").where("id", "=", hub.id).executeTakeFirstOrThrow()).name);
  let comment: number | undefined;
  const commentId = async () =>
    (comment ??= (
      await api.request
        .post(`/hubs/${encodeURIComponent(hub.name)}/${postId}/comments`)
        .set(me.auth)
        .send({ content: "To edit" })
    ).body.id as number);
  // The password change ends the user's other sessions: it is fuzzed as a user of its own, whose token the answer renews.
  let passwordUser: { id: number; auth: Record<string, string> } | undefined;
  const passwordUserOf = async () => (passwordUser ??= await api.register("errors_password"));
  // Passkeys are added by a user of their own: the path fuzz above also sends the logouts with errors_me's token.
  let passkeyUser: TestUser | undefined;
  const passkeyUserOf = async () => (passkeyUser ??= await api.register("errors_passkeys"));
  let reporter: TestUser | undefined;
  const reporterOf = async () => (reporter ??= await api.register("errors_reporter"));
  let report: number | undefined;
  const openReport = async () =>
    (report ??= (
      await api.request
        .post("/reports")
        .set((await reporterOf()).auth)
        .send({ subject: { type: "user", id: me.id }, reason: "spam" })
    ).body.id as number);
  // Bans and suspensions act on a user of their own; suspending takes an admin.
  let banned: TestUser | undefined;
  const bannedOf = async () => (banned ??= await api.register("errors_banned"));
  let admin: TestUser | undefined;
  const adminOf = async () => {
    if (admin) return admin;
    admin = await api.register("errors_admin");
    await api.db.kysely.updateTable("User").set({ isAdmin: 1 }).where("id", "=", admin.id).execute();
    return admin;
  };
  // A reset link's token is mailed, never answered: each round stores a fresh one as the service does (its sha256), so
  // valid bodies reach the password change (docs/api.md "Password reset"). The account is the target's own.
  let resetUser: TestUser | undefined;
  let resetToken = "";
  const freshResetToken = async () => {
    resetUser ??= await api.register("errors_reset");
    resetToken = randomBytes(32).toString("base64url");
    const now = Date.now();
    await api.db.kysely
      .insertInto("PasswordResetToken")
      .values({
        tokenHash: createHash("sha256").update(resetToken).digest("hex"),
        userId: resetUser.id,
        expiresAt: now + 3_600_000,
        createdAt: now,
      })
      .execute();
  };
  // Second factors (docs/api.md "Second factors"): a pending secret to confirm, and an account with TOTP on whose
  // login challenge each round answers with the current code (a code used once is refused again in its window).
  let pendingTotp: { auth: Record<string, string>; secret: string } | undefined;
  const pendingTotpOf = async () => {
    if (pendingTotp) return pendingTotp;
    const user = await api.register("errors_totp_pending");
    const setUp = await api.request.post("/me/2fa/totp").set(user.auth);
    return (pendingTotp = { auth: user.auth, secret: setUp.body.secret as string });
  };
  // Its recovery codes answer the first rounds: the set-up used this 30-second window's code, which cannot be used again.
  let totpUser: { secret: string; challenge: string; recoveryCodes: string[] } | undefined;
  const totpChallenge = async () => {
    if (!totpUser) {
      const user = await api.register("errors_totp");
      const setUp = await api.request.post("/me/2fa/totp").set(user.auth);
      const secret = setUp.body.secret as string;
      const confirmed = await api.request
        .post("/me/2fa/totp/confirm")
        .set(user.auth)
        .send({ code: totpCode(secret, Date.now()) });
      totpUser = { secret, challenge: "", recoveryCodes: confirmed.body.recoveryCodes as string[] };
    }
    const login = await api.request.post("/auth/login").send({ username: "errors_totp", password: "secret123" });
    totpUser.challenge = login.body.challenge as string;
  };
  const secondFactorBody = () => {
    if (!totpUser) return { challenge: "", code: "000000" };
    const recoveryCode = totpUser.recoveryCodes.shift();
    return recoveryCode !== undefined
      ? { challenge: totpUser.challenge, recoveryCode }
      : { challenge: totpUser.challenge, code: totpCode(totpUser.secret, Date.now()) };
  };
  /** Real targets and a valid body for each path, so that bodies reach the services and not only the checks. */
  const targets: Record<
    string,
    {
      url: () => string | Promise<string>;
      valid: (n: number) => Record<string, unknown>;
      auth?: () => Promise<Record<string, string>>;
      answered?: (body: Record<string, unknown>) => void;
    }
  > = {
    "/auth/register": {
      url: () => "/auth/register",
      valid: (n) => ({ username: `fuzz_${n}`, email: `fuzz_${n}@example.com`, password: "secret123" }),
    },
    "/auth/login": { url: () => "/auth/login", valid: () => ({ username: "errors_me", password: "secret123" }) },
    // WebAuthn answers (docs/api.md "Passkeys"): url() asks for fresh options, which the next round's body answers, so
    // bodies reach the verification (201 up to the 20 passkeys, then 409; 401 for a credential nobody has). New
    // options replace a user's earlier ones, so the creation options are asked for every other round only.
    "/me/passkeys": {
      url: async () => {
        if (passkeyAnswers.rounds++ % 2 === 0) {
          passkeyAnswers.creation = (await api.request.post("/me/passkeys/options").set((await passkeyUserOf()).auth))
            .body as PasskeyOptions;
        }
        return "/me/passkeys";
      },
      valid: (n) => ({ name: `Fuzz key ${n}`, response: passkeyAnswers.authenticator.create(passkeyAnswers.creation) }),
      auth: async () => (await passkeyUserOf()).auth,
    },
    "/auth/passkey": {
      url: async () => {
        passkeyAnswers.request = (await api.request.post("/auth/passkey/options")).body as PasskeyOptions & { challengeId: string };
        return "/auth/passkey";
      },
      valid: () => ({ challengeId: passkeyAnswers.request.challengeId, response: passkeyAnswers.stranger.get(passkeyAnswers.request) }),
    },
    "/auth/password-reset": {
      url: () => "/auth/password-reset",
      valid: (n) => ({ login: n % 2 === 0 ? "errors_me" : `nobody_${n}` }),
    },
    "/auth/password-reset/confirm": {
      url: async () => {
        await freshResetToken();
        return "/auth/password-reset/confirm";
      },
      valid: () => ({ token: resetToken, newPassword: "secret123" }),
    },
    "/me/2fa/totp/confirm": {
      url: () => "/me/2fa/totp/confirm",
      valid: () => ({ code: pendingTotp ? totpCode(pendingTotp.secret, Date.now()) : "000000" }),
      auth: async () => (await pendingTotpOf()).auth,
    },
    "/auth/login/second-factor": {
      url: async () => {
        await totpChallenge();
        return "/auth/login/second-factor";
      },
      valid: secondFactorBody,
    },
    // A well-formed token nobody was sent (docs/api.md "Verified email addresses"): 400 on `token`, never 5xx.
    "/auth/verify-email": { url: () => "/auth/verify-email", valid: (n) => ({ token: `fuzz-token-${n}`.padEnd(43, "x") }) },
    // docs/api.md "Notification mail": a kind's setting, and a real signed unsubscribe token of the caller's.
    "/me/email-preferences": {
      url: () => "/me/email-preferences",
      valid: (n) => ({ [MAIL_KINDS[n % MAIL_KINDS.length]!]: EMAIL_SETTINGS[n % EMAIL_SETTINGS.length] }),
    },
    "/email-preferences/unsubscribe": {
      url: () => "/email-preferences/unsubscribe",
      valid: (n) => ({ token: unsubscribeToken(unsubscribeSecret(api.config.jwtSecret), me.id, MAIL_KINDS[n % MAIL_KINDS.length]!) }),
    },
    "/user/{id}": { url: () => `/user/${me.id}`, valid: () => ({ profileImageID: imageId, profileBannerID: null }) },
    "/hubs": { url: () => "/hubs", valid: (n) => ({ name: `Fuzz Hub ${n}`, description: "fuzzed", profileImageId: imageId }) },
    "/hubs/{id}": { url: () => `/hubs/${hub.id}`, valid: () => ({ name: "Errors Hub", description: "fuzzed", profileBannerId: imageId }) },
    "/hub-posts": {
      url: () => "/hub-posts",
      valid: () => ({ title: "Fuzzed title", content: "Fuzzed content body", description: "", hubId: hub.id }),
    },
    "/hub-posts/{id}": {
      url: () => `/hub-posts/${postId}`,
      valid: () => ({ title: "Fuzzed title", content: "Fuzzed content body", description: "d" }),
    },
    "/series": { url: () => "/series", valid: (n) => ({ name: `Fuzz Series ${n}`, description: "fuzzed" }) },
    "/series/{id}": { url: () => `/series/${seriesId}`, valid: () => ({ name: "Errors Series", profileImageId: imageId }) },
    "/series/{name}/chapters": {
      url: async () => `/series/${await seriesName()}/chapters`,
      valid: () => ({ title: "Fuzz chapter", pages: [imageId], coverId: imageId }),
    },
    "/series/{name}/{chapterNumber}": {
      url: async () => `/series/${await seriesName()}/1`,
      valid: () => ({ title: "One", pages: [imageId] }),
    },
    "/hubs/{hubName}/{postId}/comments": {
      url: async () => `/hubs/${await hubName()}/${postId}/comments`,
      valid: (n) => ({ content: `Fuzzed comment ${n}` }),
    },
    "/series/{name}/{chapterNumber}/comments": {
      url: async () => `/series/${await seriesName()}/1/comments`,
      valid: (n) => ({ content: `Fuzzed comment ${n} on a chapter` }),
    },
    "/comments/{id}": { url: async () => `/comments/${await commentId()}`, valid: (n) => ({ content: `Fuzzed edit ${n}` }) },
    "/user/{id}/password": {
      url: async () => `/user/${(await passwordUserOf()).id}/password`,
      valid: () => ({ currentPassword: "secret123", newPassword: "secret123" }),
      auth: async () => (await passwordUserOf()).auth,
      answered: (body) => {
        if (typeof body.accessToken === "string") passwordUser!.auth = { Authorization: `Bearer ${body.accessToken}` };
      },
    },
    "/me/notifications/read": { url: () => "/me/notifications/read", valid: (n) => (n % 2 === 0 ? { all: true } : { ids: [n + 1, 2] }) },
    // Reports are made by a user of their own (nobody reports their own post) and resolved by the hub's creator.
    "/reports": {
      url: () => "/reports",
      valid: (n) => ({ subject: { type: "post", id: postId }, reason: n % 2 === 0 ? "spam" : "other", note: `Fuzzed ${n}` }),
      auth: async () => (await reporterOf()).auth,
    },
    "/reports/{id}/resolve": {
      url: async () => `/reports/${await openReport()}/resolve`,
      valid: (n) => ({ action: "dismiss", reason: `Fuzzed ${n}` }),
    },
    "/hubs/{id}/bans/{userId}": {
      url: async () => `/hubs/${hub.id}/bans/${(await bannedOf()).id}`,
      valid: (n) => ({ reason: `Fuzzed ${n}`, days: n % 2 === 0 ? 7 : null }),
    },
    "/admin/users/{id}/ban": {
      url: async () => `/admin/users/${(await bannedOf()).id}/ban`,
      valid: (n) => ({ reason: `Fuzzed ${n}`, days: n % 2 === 0 ? 30 : null }),
      auth: async () => (await adminOf()).auth,
    },
    "/me/progress/{seriesId}": { url: () => `/me/progress/${seriesId}`, valid: (n) => ({ chapterNumber: 1, page: 1 + (n % 2) }) },
    // Removal and restore act on a post of their own, so the other targets' post stays as it is.
    "/moderation/remove": {
      url: () => "/moderation/remove",
      valid: (n) => ({ subject: { type: "post", id: removablePostId }, reason: `Fuzzed ${n}` }),
    },
    "/moderation/restore": {
      url: () => "/moderation/restore",
      valid: (n) => ({ subject: { type: "post", id: removablePostId }, reason: `Fuzzed ${n}` }),
    },
  };

  it("covers every JSON endpoint with a target", () => {
    expect(jsonEndpoints.length).toBeGreaterThanOrEqual(11);
    for (const e of jsonEndpoints) expect(targets[e.path], `add a fuzz target for ${e.method.toUpperCase()} ${e.path}`).toBeDefined();
  });

  it.each(jsonEndpoints.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))(
    "%s never answers 5xx",
    async (_label, endpoint) => {
      const seed = [...endpoint.path].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, endpoint.method === "put" ? 7 : 3);
      const { body } = fuzzer(seeded(seed));
      const fields = endpoint.body instanceof z.ZodObject ? Object.keys(endpoint.body.shape) : [];
      const target = targets[endpoint.path]!;

      const statuses = new Set<number>();
      for (let round = 0; round < ROUNDS; round++) {
        const text = body(fields, target.valid(round));
        const res = await api.request[endpoint.method as "post" | "put"](await target.url())
          .set(target.auth ? await target.auth() : me.auth)
          .set("Content-Type", "application/json")
          .send(text);
        statuses.add(res.status);
        if (res.status < 300) target.answered?.(res.body as Record<string, unknown>);

        const where = `seed ${seed} round ${round}: ${text.slice(0, 300)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body.status, where).toBe(res.status);
          expect(typeof res.body.message, where).toBe("string");
        }
      }
      // The fuzz must get past validation sometimes, or it only tests the validators.
      expect(
        [...statuses].some((s) => s < 300 || s === 401 || s === 409),
        `statuses seen: ${[...statuses].join(",")}`,
      ).toBe(true);
    },
  );
});
