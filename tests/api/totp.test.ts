// TOTP and the login's code step (docs/api.md "Second factors"): set up, confirm with a first code (10 recovery codes,
// shown once), sign in with password then code, no replay, one step of drift, recovery codes once, a challenge that
// dies after 5 wrong codes or 5 minutes, off with the password; ADMIN_REQUIRE_2FA. Codes come from an independent
// RFC 6238 implementation (tests/helpers/totp-codes.ts); the API's clock is the test's (`clock`), moved without sleeping.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkApiSettings, loadConfig } from "../../server/config.ts";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { RFC_6238_SHA1, totpCode } from "../helpers/totp-codes.ts";

const STEP = 30_000;
const WRONG_CODE = "That code is not right. Check the time on your device and try again.";
const EXPIRED = "This sign-in has expired. Please sign in again.";

// A step boundary plus 10 s, so one step either side is plainly inside or outside.
let now = Date.UTC(2026, 10, 29, 12, 0, 0) + 10_000;

let api: TestApi, alice: TestUser;
setUpSharedTestApi(
  ["alice"],
  (started, users) => {
    api = started;
    [alice] = users;
  },
  { clock: () => now },
);

/** A fresh account with TOTP on: its secret and recovery codes. Each test moves the clock on a minute first. */
async function withTotp(): Promise<{ user: TestUser; secret: string; recoveryCodes: string[] }> {
  now += 60_000;
  const user = await api.register();
  const setUp = await api.request.post("/me/2fa/totp").set(user.auth);
  expect(setUp.status).toBe(200);
  const secret = setUp.body.secret as string;
  const confirmed = await api.request
    .post("/me/2fa/totp/confirm")
    .set(user.auth)
    .send({ code: totpCode(secret, now) });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  // The step of the confirming code is used: the tests sign in from the next one.
  now += STEP;
  return { user, secret, recoveryCodes: confirmed.body.recoveryCodes };
}

const login = (user: TestUser, password = user.password) => api.request.post("/auth/login").send({ username: user.username, password });

async function challengeOf(user: TestUser): Promise<string> {
  const res = await login(user);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ secondFactorRequired: true, challenge: expect.any(String) });
  return res.body.challenge;
}

const secondFactor = (body: Record<string, unknown>) => api.request.post("/auth/login/second-factor").send(body);

describe("the tests' own TOTP", () => {
  it("gives RFC 6238's test vector", () => {
    expect(totpCode(RFC_6238_SHA1.secret, RFC_6238_SHA1.ms)).toBe(RFC_6238_SHA1.code);
  });
});

describe("turning TOTP on", () => {
  it("answers a pending secret and its otpauth URL; the account signs in with its password alone until confirmed", async () => {
    const user = await api.register();
    const res = await api.request.post("/me/2fa/totp").set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(res.body.otpauthUrl);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(decodeURIComponent(url.pathname)).toBe(`/Inkwell:${user.username}`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret: res.body.secret,
      issuer: "Inkwell",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
    const me = await api.request.get(`/user/${user.username}`).set(user.auth);
    expect(me.body.twoFactor).toEqual({ totp: false });
    expect((await login(user)).body.accessToken).toEqual(expect.any(String));
    // Asked again: a new secret replaces the pending one.
    const again = await api.request.post("/me/2fa/totp").set(user.auth);
    expect(again.body.secret).not.toBe(res.body.secret);
  });

  it("turns on with a right code: 10 different recovery codes, and the owner's user says so (no one else's does)", async () => {
    const user = await api.register();
    const { secret } = (await api.request.post("/me/2fa/totp").set(user.auth)).body;
    expectFieldError(await api.request.post("/me/2fa/totp/confirm").set(user.auth).send({ code: "12345" }), "code");
    const wrong = String((Number(totpCode(secret, now)) + 1) % 1_000_000).padStart(6, "0");
    expectFieldError(await api.request.post("/me/2fa/totp/confirm").set(user.auth).send({ code: wrong }), "code", WRONG_CODE);
    const res = await api.request
      .post("/me/2fa/totp/confirm")
      .set(user.auth)
      .send({ code: totpCode(secret, now) });
    expect(res.status).toBe(200);
    expect(res.body.recoveryCodes).toHaveLength(10);
    expect(new Set(res.body.recoveryCodes).size).toBe(10);
    for (const code of res.body.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await api.request.get(`/user/${user.username}`).set(user.auth)).body.twoFactor).toEqual({ totp: true });
    expect((await api.request.get(`/user/${user.username}`).set(alice.auth)).body.twoFactor).toBeNull();
    expect((await api.request.get(`/user/${user.username}`)).body.twoFactor).toBeNull();
    // On: no new secret, no second confirmation.
    expectError(await api.request.post("/me/2fa/totp").set(user.auth), 409);
    expectError(
      await api.request
        .post("/me/2fa/totp/confirm")
        .set(user.auth)
        .send({ code: totpCode(secret, now + STEP) }),
      409,
    );
  });

  it("needs a set-up before a confirmation (409) and a token for all of it (401)", async () => {
    const user = await api.register();
    expectError(await api.request.post("/me/2fa/totp/confirm").set(user.auth).send({ code: "123456" }), 409);
    expectError(await api.request.post("/me/2fa/totp"), 401);
    expectError(await api.request.post("/me/2fa/totp/confirm").send({ code: "123456" }), 401);
    expectError(await api.request.delete("/me/2fa/totp").send({ password: "x" }), 401);
  });
});

describe("signing in with TOTP on", () => {
  it("answers a challenge and no token for the right password; the challenge and a code give a working token", async () => {
    const { user, secret } = await withTotp();
    const res = await login(user);
    expect(res.body.accessToken).toBeUndefined();
    expect(res.body.deviceToken).toBeUndefined();
    const signedIn = await secondFactor({ challenge: res.body.challenge, code: totpCode(secret, now) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ accessToken: expect.any(String), deviceToken: expect.any(String) });
    const me = await api.request.get(`/user/${user.username}`).set("Authorization", `Bearer ${signedIn.body.accessToken}`);
    expect(me.body.email).toBe(user.email);
    // A wrong password is still 401, with no challenge.
    expectError(await login(user, "wrong-password"), 401);
  });

  it("refuses a code used before within its window (a replay), and the challenge works once", async () => {
    const { user, secret } = await withTotp();
    const first = await challengeOf(user);
    const code = totpCode(secret, now);
    expect((await secondFactor({ challenge: first, code })).status).toBe(200);
    expectError(await secondFactor({ challenge: first, code: totpCode(secret, now + STEP) }), 400, EXPIRED);
    const second = await challengeOf(user);
    expectFieldError(await secondFactor({ challenge: second, code }), "code", WRONG_CODE);
    now += STEP;
    expect((await secondFactor({ challenge: second, code: totpCode(secret, now) })).status).toBe(200);
  });

  it("accepts a code one step early or late, not two", async () => {
    const { user, secret } = await withTotp();
    now += 3 * STEP;
    const challenge = await challengeOf(user);
    expectFieldError(await secondFactor({ challenge, code: totpCode(secret, now - 2 * STEP) }), "code");
    expectFieldError(await secondFactor({ challenge, code: totpCode(secret, now + 2 * STEP) }), "code");
    expect((await secondFactor({ challenge, code: totpCode(secret, now - STEP) })).status).toBe(200);
    const next = await challengeOf(user);
    expect((await secondFactor({ challenge: next, code: totpCode(secret, now + STEP) })).status).toBe(200);
  });

  it("takes each recovery code once, in any case and without its dash", async () => {
    const { user, recoveryCodes } = await withTotp();
    const [code] = recoveryCodes as [string];
    const challenge = await challengeOf(user);
    expectFieldError(await secondFactor({ challenge, recoveryCode: "aaaaa-aaaaa" }), "recoveryCode");
    expect((await secondFactor({ challenge, recoveryCode: code.replace("-", "").toUpperCase() })).status).toBe(200);
    const again = await challengeOf(user);
    expectFieldError(await secondFactor({ challenge: again, recoveryCode: code }), "recoveryCode");
    expect((await secondFactor({ challenge: again, recoveryCode: recoveryCodes[1] })).status).toBe(200);
  });

  it("kills the challenge after 5 wrong codes: the right one is then refused", async () => {
    const { user, secret } = await withTotp();
    const challenge = await challengeOf(user);
    for (let i = 0; i < 5; i++)
      expectFieldError(await secondFactor({ challenge, code: "000000" === totpCode(secret, now) ? "111111" : "000000" }), "code");
    expectFieldError(await secondFactor({ challenge, code: totpCode(secret, now) }), "challenge", EXPIRED);
    // A new sign-in works.
    expect((await secondFactor({ challenge: await challengeOf(user), code: totpCode(secret, now) })).status).toBe(200);
  });

  it("lets a challenge live 5 minutes", async () => {
    const { user, secret } = await withTotp();
    const late = await challengeOf(user);
    const inTime = await challengeOf(user);
    now += 5 * 60_000 - 1;
    expect((await secondFactor({ challenge: inTime, code: totpCode(secret, now) })).status).toBe(200);
    now += 1;
    expectFieldError(await secondFactor({ challenge: late, code: totpCode(secret, now + STEP) }), "challenge", EXPIRED);
  });

  it("refuses an unknown challenge, and a body with both or neither of code and recoveryCode", async () => {
    const { user, secret, recoveryCodes } = await withTotp();
    expectFieldError(await secondFactor({ challenge: "not-a-challenge", code: totpCode(secret, now) }), "challenge", EXPIRED);
    const challenge = await challengeOf(user);
    expectFieldError(await secondFactor({ challenge, code: totpCode(secret, now), recoveryCode: recoveryCodes[0] }), "code");
    expectFieldError(await secondFactor({ challenge }), "code");
    expectFieldError(await secondFactor({ code: totpCode(secret, now) }), "challenge");
    // None of those used the challenge up.
    expect((await secondFactor({ challenge, code: totpCode(secret, now) })).status).toBe(200);
  });
});

describe("turning TOTP off", () => {
  it("needs the password; then the account signs in with its password alone and its recovery codes are gone", async () => {
    const { user, secret } = await withTotp();
    expectFieldError(await api.request.delete("/me/2fa/totp").set(user.auth).send({ password: "wrong-password" }), "password");
    expectFieldError(await api.request.delete("/me/2fa/totp").set(user.auth).send({}), "password");
    expect((await login(user)).body.secondFactorRequired).toBe(true);
    const off = await api.request.delete("/me/2fa/totp").set(user.auth).send({ password: user.password });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ totp: false });
    expect((await login(user)).body.accessToken).toEqual(expect.any(String));
    expect((await api.request.get(`/user/${user.username}`).set(user.auth)).body.twoFactor).toEqual({ totp: false });
    const rows = await api.db.kysely.selectFrom("RecoveryCode").select("codeHash").where("userId", "=", user.id).execute();
    expect(rows).toEqual([]);
    // The old secret is no use: a new set-up makes a new one.
    const again = await api.request.post("/me/2fa/totp").set(user.auth);
    expect(again.body.secret).not.toBe(secret);
  });

  it("stores recovery codes and challenge ids only hashed", async () => {
    const { user, recoveryCodes } = await withTotp();
    const challenge = await challengeOf(user);
    const codes = await api.db.kysely.selectFrom("RecoveryCode").select("codeHash").where("userId", "=", user.id).execute();
    expect(codes).toHaveLength(10);
    for (const { codeHash } of codes) expect(codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(codes.map((c) => c.codeHash)).not.toContain(recoveryCodes[0]);
    const challenges = await api.db.kysely.selectFrom("LoginChallenge").select("idHash").where("userId", "=", user.id).execute();
    expect(challenges.map((c) => c.idHash)).not.toContain(challenge);
  });
});

describe("ADMIN_REQUIRE_2FA", () => {
  it("is read at start: false unless set to true; anything else is a problem named at start", () => {
    const env: NodeJS.ProcessEnv = { NODE_ENV: "test", JWT_SECRET: "config-test-secret-0123456789", DATA_DIR: "/tmp/h5-totp-config" };
    expect(loadConfig(env).adminRequire2fa).toBe(false);
    expect(loadConfig({ ...env, ADMIN_REQUIRE_2FA: "true" }).adminRequire2fa).toBe(true);
    expect(checkApiSettings({ ...env, ADMIN_REQUIRE_2FA: "yes" })).toEqual([expect.stringMatching(/^ADMIN_REQUIRE_2FA: /)]);
  });

  let site: TestApi;
  let boss: TestUser, member: TestUser;
  beforeAll(async () => {
    site = await startTestApi({ adminUsernames: ["boss"], adminRequire2fa: true, clock: () => now });
    boss = await site.register("boss");
    member = await site.register("member");
  });
  afterAll(() => site?.close());

  it("answers an admin without a second factor 403 on admin-only actions, saying to set one up; with TOTP on, it works", async () => {
    const res = await site.request.get(`/admin/users/${member.id}/ban`).set(boss.auth);
    expectError(res, 403);
    expect(res.body.message).toMatch(/second factor/);
    expect(res.body.message).toMatch(/two-factor authentication in Settings/);
    expect((await site.request.get(`/user/boss`).set(boss.auth)).body.role).toBe("admin");
    // A member's 403 says nothing of second factors.
    const theirs = await site.request.get(`/admin/users/${boss.id}/ban`).set(member.auth);
    expectError(theirs, 403, "Only admins can suspend accounts");

    const { secret } = (await site.request.post("/me/2fa/totp").set(boss.auth)).body;
    expect(
      (
        await site.request
          .post("/me/2fa/totp/confirm")
          .set(boss.auth)
          .send({ code: totpCode(secret, now) })
      ).status,
    ).toBe(200);
    expect((await site.request.get(`/admin/users/${member.id}/ban`).set(boss.auth)).status).toBe(200);
  });
});
