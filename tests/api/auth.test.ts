import bcrypt from "bcryptjs";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { countRows } from "../helpers/fixtures.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

let seq = 0;
/** A valid registration body with a fresh username and email; fields can be overridden. */
function registration(overrides: Record<string, unknown> = {}) {
  const username = `reader_${++seq}`;
  return { username, email: `${username}@example.com`, password: "secret123", ...overrides };
}

const userCount = () => countRows(api, "User");
const userRow = (username: string) =>
  api.db.kysely.selectFrom("User").selectAll().where("usernameKey", "=", username.toLowerCase()).executeTakeFirst();

describe("POST /auth/register", () => {
  it("answers 201 with an access token", async () => {
    const res = await api.request.post("/auth/register").send(registration());

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ accessToken: expect.any(String), deviceToken: expect.any(String) });
  });

  it("issues an HS256 JWT whose claims are sub=username, uid, email, iat and exp (and its id and generation)", async () => {
    const body = registration({ username: "ClaimCheck" });

    const res = await api.request.post("/auth/register").send(body);

    const { header, payload } = jwt.decode(res.body.accessToken, { complete: true }) as jwt.Jwt & { payload: jwt.JwtPayload };
    const me = await api.request.get("/user/ClaimCheck").set("Authorization", `Bearer ${res.body.accessToken}`);
    expect(header.alg).toBe("HS256");
    expect(payload).toEqual({
      sub: "ClaimCheck",
      uid: me.body.id,
      email: body.email,
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      gen: 0,
    });
    expect(payload.exp! - payload.iat!).toBe(api.config.jwtTtlSeconds);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60);
    expect(() => jwt.verify(res.body.accessToken, api.config.jwtSecret, { algorithms: ["HS256"] })).not.toThrow();
  });

  it("accepts usernames of exactly 3 and exactly 30 characters", async () => {
    const short = await api.request.post("/auth/register").send(registration({ username: "abc", email: "abc@example.com" }));
    const long = await api.request.post("/auth/register").send(registration({ username: "a".repeat(30), email: "long@example.com" }));

    expect(short.status).toBe(201);
    expect(long.status).toBe(201);
  });

  it("accepts a password of exactly 72 bytes made of multi-byte characters", async () => {
    const res = await api.request.post("/auth/register").send(registration({ password: "ñ".repeat(36) }));

    expect(res.status).toBe(201);
  });

  // docs/web.md §4 and docs/api.md §4, each message exactly.
  const invalid: [string, Record<string, unknown>, string, string][] = [
    ["a username under 3 characters", { username: "ab" }, "username", "Username must be at least 3 characters"],
    ["a username with spaces", { username: "manga fan" }, "username", "Username cannot contain spaces"],
    ["a username with a tab", { username: "manga\tfan" }, "username", "Username cannot contain spaces"],
    ["a username with a hyphen", { username: "manga-fan" }, "username", "Username can only contain letters, numbers and underscores"],
    ["a username with accented letters", { username: "ñandú" }, "username", "Username can only contain letters, numbers and underscores"],
    ["a username over 30 characters", { username: "a".repeat(31) }, "username", "Username must be at most 30 characters"],
    ["a missing username", { username: undefined }, "username", "Username is required"],
    ["an empty username", { username: "" }, "username", "Username is required"],
    ["a password under 6 characters", { password: "12345" }, "password", "Password must be at least 6 characters"],
    ["a password over 72 bytes", { password: "ñ".repeat(36) + "x" }, "password", "Password must be at most 72 bytes"],
    ["a missing password", { password: undefined }, "password", "Password is required"],
    ["an email without @", { email: "not-an-email" }, "email", "Please enter a valid email address"],
    ["an email without a domain dot", { email: "someone@example" }, "email", "Please enter a valid email address"],
    ["an email with spaces", { email: "some one@example.com" }, "email", "Please enter a valid email address"],
    ["an email with a NUL character", { email: "nul\u0000@example.com" }, "email", "Please enter a valid email address"],
    ["an email with a right-to-left mark", { email: "rtl\u200f@example.com" }, "email", "Please enter a valid email address"],
    ["a missing email", { email: undefined }, "email", "Please enter a valid email address"],
  ];
  it.each(invalid)("rejects %s with 400 and its message (docs/web.md §4), creating nobody", async (_name, overrides, field, message) => {
    const before = await userCount();

    const res = await api.request.post("/auth/register").send(registration(overrides));

    expectFieldError(res, field, message);
    expect(res.body.message).toBe(message);
    expect(await userCount()).toBe(before);
  });

  it("reports every invalid field at once", async () => {
    const res = await api.request.post("/auth/register").send({ username: "ab", email: "nope", password: "123" });

    expect(res.body.errors).toEqual([
      { field: "username", message: "Username must be at least 3 characters" },
      { field: "email", message: "Please enter a valid email address" },
      { field: "password", message: "Password must be at least 6 characters" },
    ]);
  });

  it("answers 409 for a username taken in another case, creating nobody", async () => {
    await api.request.post("/auth/register").send(registration({ username: "TakenName", email: "first@example.com" }));
    const before = await userCount();

    const res = await api.request.post("/auth/register").send(registration({ username: "takenNAME", email: "second@example.com" }));

    expectError(res, 409);
    expect(res.body.message).toBe("Username is already taken");
    expect(res.body.errors).toBeUndefined(); // docs/api.md §2: `errors` only for validation failures
    expect(await userCount()).toBe(before);
  });

  it("answers 409 for an email taken in another case, creating nobody", async () => {
    await api.request.post("/auth/register").send(registration({ email: "Shared.Mail@Example.com" }));
    const before = await userCount();

    const res = await api.request.post("/auth/register").send(registration({ email: "shared.mail@EXAMPLE.COM" }));

    expectError(res, 409);
    expect(res.body.message).toBe("Email is already registered");
    expect(res.body.errors).toBeUndefined();
    expect(await userCount()).toBe(before);
  });

  it("answers 409 for the same accented email written with a combining accent", async () => {
    await api.request.post("/auth/register").send(registration({ email: "jos\u00e9@example.com" }));

    const res = await api.request.post("/auth/register").send(registration({ email: "jose\u0301@example.com" }));

    expectError(res, 409);
    expect(res.body.message).toBe("Email is already registered");
    expect(res.body.errors).toBeUndefined();
  });

  it("stores the password only as a bcrypt hash", async () => {
    const body = registration({ password: "plain-text-never-stored" });

    await api.request.post("/auth/register").send(body);

    const row = (await userRow(body.username))!;
    expect(row.passwordHash).toMatch(/^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/);
    expect(bcrypt.compareSync(body.password, row.passwordHash)).toBe(true);
    expect(
      Object.values(row)
        .map(String)
        .some((v) => v.includes(body.password)),
    ).toBe(false);
  });
});

describe("POST /auth/login", () => {
  const account = { username: "LoginUser", email: "login.user@example.com", password: "correct horse" };
  beforeAll(async () => {
    await api.request.post("/auth/register").send(account);
  });

  it("answers 200 with a token that authenticates the user", async () => {
    const res = await api.request.post("/auth/login").send({ username: account.username, password: account.password });

    expect(res.status).toBe(200);
    const me = await api.request.get(`/user/${account.username}`).set("Authorization", `Bearer ${res.body.accessToken}`);
    expect(me.body.email).toBe(account.email);
  });

  it("matches the username case-insensitively and keeps its registered spelling in the token", async () => {
    const res = await api.request.post("/auth/login").send({ username: "loginuser", password: account.password });

    expect(res.status).toBe(200);
    expect((jwt.decode(res.body.accessToken) as jwt.JwtPayload).sub).toBe("LoginUser");
  });

  it("answers 401 'Invalid credentials' for a wrong password", async () => {
    const res = await api.request.post("/auth/login").send({ username: account.username, password: "wrong password" });

    expectError(res, 401, "Invalid credentials");
  });

  it("answers 401 'Invalid credentials' for an unknown user, the same as a wrong password", async () => {
    const res = await api.request.post("/auth/login").send({ username: "nobody_here", password: account.password });

    expectError(res, 401, "Invalid credentials");
  });

  it("does not match the password case-insensitively", async () => {
    const res = await api.request.post("/auth/login").send({ username: account.username, password: "CORRECT HORSE" });

    expectError(res, 401, "Invalid credentials");
  });

  it("answers 400 'Username is required' without a username", async () => {
    const res = await api.request.post("/auth/login").send({ password: account.password });

    expectFieldError(res, "username", "Username is required");
  });

  it("answers 400 'Password is required' without a password", async () => {
    const res = await api.request.post("/auth/login").send({ username: account.username });

    expectFieldError(res, "password", "Password is required");
  });

  it("answers 400 naming both fields for an empty body", async () => {
    const res = await api.request.post("/auth/login").send({});

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: "username", message: "Username is required" },
      { field: "password", message: "Password is required" },
    ]);
  });
});

describe("rate limit on login and register", () => {
  let limited: TestApi;
  beforeAll(async () => {
    limited = await startTestApi({ authRateLimit: 3 });
  });
  afterAll(() => limited.close());

  it("answers 429 with the contract body once the attempts are used up, even with the right password", async () => {
    const account = { username: "limited_user", email: "limited@example.com", password: "secret123" };
    const first = await limited.request.post("/auth/register").send(account);
    const second = await limited.request.post("/auth/login").send({ ...account, password: "wrong1" });
    const third = await limited.request.post("/auth/login").send({ ...account, password: "wrong2" });

    const fourth = await limited.request.post("/auth/login").send(account);

    expect([first.status, second.status, third.status]).toEqual([201, 401, 401]);
    expectError(fourth, 429);
  });

  it("counts each client named by the local web server's X-Forwarded-For separately", async () => {
    const viaWeb = (ip: string) =>
      limited.request.post("/auth/login").set("X-Forwarded-For", ip).send({ username: "nobody", password: "wrong1" });
    for (let i = 0; i < 3; i++) expect((await viaWeb("203.0.113.7")).status).toBe(401);

    const sameVisitor = await viaWeb("203.0.113.7");
    const otherVisitor = await viaWeb("198.51.100.20");

    expectError(sameVisitor, 429);
    expectError(otherVisitor, 401, "Invalid credentials");
  });

  it("leaves other endpoints alone", async () => {
    const res = await limited.request.get("/hubs");

    expect(res.status).toBe(200);
  });
});
