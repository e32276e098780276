import { Writable } from "node:stream";
import jwt from "jsonwebtoken";
import { pino } from "pino";
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { setUpSharedTestApi, testConfig, type TestApi, type TestUser } from "../helpers/api.ts";
import { freshTestStore } from "../helpers/test-data-dir.ts";
import { expectError } from "../helpers/expect-error.ts";

let api: TestApi;
let alice: TestUser;
let hubId: number;
setUpSharedTestApi(["token_alice"], async (started, users) => {
  api = started;
  [alice] = users;
  hubId = (await api.request.post("/hubs").set(alice.auth).send({ name: "Token Hub" })).body.id;
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
// The claims the API signs: the contract's, plus the token's id and the user's token generation.
const claimsOf = (user: TestUser) => ({
  sub: user.username,
  uid: user.id,
  email: user.email,
  jti: `test-token-${user.id}-0123456789`,
  gen: 0,
});

/** Every way a bearer token can be wrong; each must be a 401 wherever it is sent. */
function badAuthorizations(): [string, () => string][] {
  return [
    [
      "an expired token",
      () => `Bearer ${jwt.sign({ ...claimsOf(alice), exp: nowSeconds() - 60, iat: nowSeconds() - 3600 }, api.config.jwtSecret)}`,
    ],
    [
      // Same user, a later expiry: only the signature check can catch it.
      "a token whose payload was edited to extend its expiry",
      () => {
        const [header, , signature] = alice.token.split(".");
        const forged = Buffer.from(JSON.stringify({ ...claimsOf(alice), iat: nowSeconds(), exp: nowSeconds() + 365 * 24 * 3600 })).toString(
          "base64url",
        );
        return `Bearer ${header}.${forged}.${signature}`;
      },
    ],
    ["a token with a tampered signature", () => `Bearer ${alice.token.slice(0, -4)}${alice.token.endsWith("AAAA") ? "BBBB" : "AAAA"}`],
    [
      "a token signed with another secret",
      () => `Bearer ${jwt.sign(claimsOf(alice), "some-other-secret-of-enough-length", { expiresIn: 3600 })}`,
    ],
    [
      'a token with alg "none"',
      () => {
        const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
        return `Bearer ${encode({ alg: "none", typ: "JWT" })}.${encode({ ...claimsOf(alice), iat: nowSeconds(), exp: nowSeconds() + 3600 })}.`;
      },
    ],
    [
      "a token signed with HS512 instead of HS256",
      () => `Bearer ${jwt.sign(claimsOf(alice), api.config.jwtSecret, { algorithm: "HS512", expiresIn: 3600 })}`,
    ],
    [
      "a well-signed token missing the uid claim",
      () => `Bearer ${jwt.sign({ sub: alice.username, email: alice.email }, api.config.jwtSecret, { expiresIn: 3600 })}`,
    ],
    [
      "a well-signed token naming another username for the uid",
      () => `Bearer ${jwt.sign({ ...claimsOf(alice), sub: "someone_else" }, api.config.jwtSecret, { expiresIn: 3600 })}`,
    ],
    ["garbage", () => "Bearer not-a-jwt-at-all"],
    ["three garbage segments", () => "Bearer aaa.bbb.ccc"],
    ["a non-Bearer scheme", () => `Basic ${Buffer.from("token_alice:secret123").toString("base64")}`],
    ["a token under the Token scheme", () => `Token ${alice.token}`],
    ["Bearer without a token", () => "Bearer"],
    ["a token followed by junk", () => `Bearer ${alice.token} extra`],
    ["an empty header", () => ""],
  ];
}

const publicCalls: [string, (t: TestApi) => ReturnType<TestApi["request"]["get"]>][] = [
  ["GET /hubs", (t) => t.request.get("/hubs")],
  ["GET /hubs/top", (t) => t.request.get("/hubs/top?per_page=5")],
  ["GET /hubs/{name}", (t) => t.request.get("/hubs/Token%20Hub")],
  ["GET /series", (t) => t.request.get("/series")],
  ["GET /series/top", (t) => t.request.get("/series/top?per_page=10")],
  ["GET /user/{username}", (t) => t.request.get(`/user/${alice.username}`)],
  ["GET /user/{id}/member-hubs", (t) => t.request.get(`/user/${alice.id}/member-hubs`)],
  ["POST /auth/login", (t) => t.request.post("/auth/login").send({ username: alice.username, password: alice.password })],
];

const protectedCalls: [string, (t: TestApi) => ReturnType<TestApi["request"]["get"]>][] = [
  ["POST /hubs", (t) => t.request.post("/hubs").send({ name: "Never Created" })],
  ["PUT /user/{id}", (t) => t.request.put(`/user/${alice.id}`).send({ profileImageID: null })],
  ["POST /user/{userId}/member-hubs/{hubId}", (t) => t.request.post(`/user/${alice.id}/member-hubs/${hubId}`)],
  ["POST /series", (t) => t.request.post("/series").send({ name: "Never Created" })],
];

describe("a bad bearer token is a 401 on public endpoints too", () => {
  for (const [what, authorization] of badAuthorizations()) {
    it.each(publicCalls)(`${what} on %s`, async (_call, send) => {
      const res = await send(api).set("Authorization", authorization());

      expectError(res, 401);
    });
  }
});

describe("a bad bearer token is a 401 on protected endpoints", () => {
  for (const [what, authorization] of badAuthorizations()) {
    it.each(protectedCalls)(`${what} on %s, changing nothing`, async (_call, send) => {
      const res = await send(api).set("Authorization", authorization());

      expectError(res, 401);
      const hubs = await api.request.get("/hubs/search?name=Never");
      expect(hubs.body.totalElements).toBe(0);
    });
  }
});

describe("tokens", () => {
  it("says the session expired for an expired token", async () => {
    const expired = jwt.sign({ ...claimsOf(alice), exp: nowSeconds() - 1 }, api.config.jwtSecret);

    const res = await api.request.get("/hubs").set("Authorization", `Bearer ${expired}`);

    expectError(res, 401, "Your session has expired");
  });

  it("accepts a token the test signs with the app's secret and claims (the harness is honest)", async () => {
    const token = jwt.sign(claimsOf(alice), api.config.jwtSecret, { algorithm: "HS256", expiresIn: 60 });

    const res = await api.request.get(`/user/${alice.username}`).set("Authorization", `Bearer ${token}`);

    expect(res.status).toBe(200);
    expect(res.body.email).toBe(alice.email);
  });

  it("accepts the scheme in any case", async () => {
    const res = await api.request.get(`/user/${alice.username}`).set("Authorization", `bearer ${alice.token}`);

    expect(res.status).toBe(200);
    expect(res.body.email).toBe(alice.email);
  });

  it("is a 401 on every endpoint once its user no longer exists", async () => {
    const gone = await api.register("token_gone");
    await api.db.kysely.deleteFrom("User").where("id", "=", gone.id).execute();

    const publicRes = await api.request.get("/hubs").set(gone.auth);
    const protectedRes = await api.request.post("/hubs").set(gone.auth).send({ name: "Ghost Hub" });

    expectError(publicRes, 401);
    expectError(protectedRes, 401);
  });

  it.each(protectedCalls)("no token on %s is a 401", async (_call, send) => {
    const res = await send(api);

    expectError(res, 401);
  });

  it("no token on a public endpoint is fine", async () => {
    const res = await api.request.get("/hubs");

    expect(res.status).toBe(200);
  });
});

describe("the request log", () => {
  it("never holds a bearer token or a session cookie", async () => {
    const store = await freshTestStore();
    const db = await store.open();
    const lines: string[] = [];
    const logger = pino({ level: "info" }, new Writable({ write: (chunk, _enc, done) => done(void lines.push(String(chunk))) }));
    const app = createApp({ db, config: testConfig(store.dataDir), logger });
    try {
      await supertest(app).get("/hubs").set("Authorization", `Bearer ${alice.token}`).set("Cookie", "__session=secret-cookie-value");

      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join("")).toContain('"url":"/hubs"');
      expect(lines.join("")).not.toContain(alice.token);
      expect(lines.join("")).not.toContain("secret-cookie-value");
    } finally {
      await db.close();
      await store.remove();
    }
  });
});
