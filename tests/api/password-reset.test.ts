import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeredWorkSettled } from "../../server/app.ts";
import { INVALID_RESET_LINK } from "../../server/rules/password-reset.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError, expectFieldErrorAsMessage } from "../helpers/expect-error.ts";
import { outboxMessages, recipientOf, resetTokenIn, waitForOutboxMail } from "../helpers/mail.ts";
import { totpCode } from "../helpers/totp-codes.ts";

// docs/api.md "Password reset". Mail goes to DATA_DIR/outbox (SMTP_URL unset); tests/api/mail-outbox.test.ts has SMTP.
// Requests per address: 4 an hour; mails per account: 2 an hour; confirms per address: 20 per 15 minutes.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi(
    { publicUrl: "https://inkwell.test/", resetRequestsPerHour: 4, resetMailsPerHour: 2, authRateLimit: 20 },
    { jobs: { pollMs: 50 } },
  );
});
afterAll(() => api.close());

let seq = 0;
const nextAddress = () => `198.51.100.${++seq}`;

const requestReset = (login: unknown, from = nextAddress()) =>
  api.request.post("/auth/password-reset").set("X-Forwarded-For", from).send({ login });
const confirm = (token: unknown, newPassword: unknown, from = nextAddress()) =>
  api.request.post("/auth/password-reset/confirm").set("X-Forwarded-For", from).send({ token, newPassword });
const login = (username: string, password: string) =>
  api.request.post("/auth/login").set("X-Forwarded-For", nextAddress()).send({ username, password });
const me = (token: string) => api.request.get("/me/state").set("Authorization", `Bearer ${token}`);

const RESET_SUBJECT = "Reset your Inkwell password";

/** Every reset request answered so far has done its account part (it runs after the answer). */
const settled = () => answeredWorkSettled(api.app);

/** Asks for a link for `user` and answers its token, from the mail. */
async function resetToken(user: TestUser, login: string = user.username): Promise<string> {
  const before = (await outboxMessages(api.dataDir)).filter((m) => recipientOf(m) === user.email && m.subject === RESET_SUBJECT).length;
  expect((await requestReset(login)).status).toBe(202);
  const mails = await waitForOutboxMail(api.dataDir, user.email, before + 1, RESET_SUBJECT);
  return resetTokenIn(mails.at(-1)!);
}

describe("asking for a reset link", () => {
  it("answers 202 {} for a username, an email in any case, and an unknown login alike; only the account gets mail", async () => {
    const owner = await api.register("reset_same_answer");
    const answers = await Promise.all([
      requestReset(owner.username),
      requestReset(owner.email.toUpperCase()),
      requestReset("nobody_here_at_all"),
      requestReset("nobody@example.com"),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({});
      expect(Object.keys(res.headers).sort()).toEqual(Object.keys(answers[0].headers).sort());
    }
    const mails = await waitForOutboxMail(api.dataDir, owner.email, 2, RESET_SUBJECT);
    await settled();
    const all = await outboxMessages(api.dataDir);
    expect(all.filter((m) => ["nobody@example.com"].includes(recipientOf(m) ?? ""))).toEqual([]);

    const mail = mails[0]!;
    expect(mail.subject).toBe("Reset your Inkwell password");
    expect(mail.from?.value[0]).toMatchObject({ name: "Inkwell" });
    expect(mail.text).toContain(`Hello ${owner.username},`);
    expect(mail.text).toMatch(/https:\/\/inkwell\.test\/reset-password\?token=[A-Za-z0-9_-]{43}\n/);
    expect(mail.html).toContain('href="https://inkwell.test/reset-password?token=');
    expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
  });

  it("stores the token only as its sha256, for one hour", async () => {
    const owner = await api.register("reset_hashed");
    const token = await resetToken(owner);
    const rows = await api.db.kysely.selectFrom("PasswordResetToken").selectAll().where("userId", "=", owner.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(token);
    const lifetime = Number(rows[0]!.expiresAt) - Number(rows[0]!.createdAt);
    expect(lifetime).toBe(60 * 60 * 1000);
  });

  it("names the field of a missing or oversized login", async () => {
    expectFieldError(await requestReset(undefined), "login", "Username or email is required");
    expectFieldError(await requestReset("   "), "login", "Username or email is required");
    expectFieldError(await requestReset("x".repeat(400)), "login", "Username or email is too long");
  });

  it("limits requests per client address, whatever they name (429 with Retry-After)", async () => {
    const from = nextAddress();
    for (const name of ["a_one", "a_two", "nobody@example.com", "a_four"]) expect((await requestReset(name, from)).status).toBe(202);
    const res = await requestReset("a_five", from);
    expectError(res, 429, "Too many password reset requests. Please try again later.");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await requestReset("a_five")).status).toBe(202);
  });

  it("limits mails per account without telling: the third request in an hour still answers 202 and sends nothing", async () => {
    const owner = await api.register("reset_account_limit");
    for (let i = 0; i < 3; i++) {
      const res = await requestReset(i === 1 ? owner.email : owner.username);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({});
    }
    // Every request's mail is queued once `settled` resolves; the queue then empties into the folder.
    await settled();
    await expect.poll(() => api.db.kysely.selectFrom("OutgoingMail").select("id").where("userId", "=", owner.id).execute()).toEqual([]);
    const mails = (await outboxMessages(api.dataDir)).filter((m) => recipientOf(m) === owner.email && m.subject === RESET_SUBJECT);
    expect(mails).toHaveLength(2);
    expect(await api.db.kysely.selectFrom("PasswordResetToken").select("userId").where("userId", "=", owner.id).execute()).toHaveLength(2);
  });

  it("sends nothing to a suspended account", async () => {
    const owner = await api.register("reset_suspended");
    await api.db.kysely
      .updateTable("User")
      .set({ suspendedUntil: Date.now() + 3600_000 })
      .where("id", "=", owner.id)
      .execute();
    expect((await requestReset(owner.username)).status).toBe(202);
    await settled();
    const rows = await api.db.kysely.selectFrom("PasswordResetToken").select("userId").where("userId", "=", owner.id).execute();
    expect(rows).toEqual([]);
    const outgoing = await api.db.kysely
      .selectFrom("OutgoingMail")
      .select("id")
      .where("userId", "=", owner.id)
      .where("kind", "=", "password-reset")
      .execute();
    expect(outgoing).toEqual([]);
  });
});

describe("setting the new password", () => {
  it("signs in with the new password, ends every other session and token, and tells the owner", async () => {
    const owner = await api.register("reset_full");
    const other = (await login(owner.username, owner.password)).body.accessToken as string;
    const first = await resetToken(owner);
    const second = await resetToken(owner, owner.email);

    const res = await confirm(second, "brand-new-pass");

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(["accessToken"]);
    expect((await me(res.body.accessToken)).status).toBe(200);
    // Every session from before is over, on every instance (the token generation moved).
    expectError(await me(owner.token), 401);
    expectError(await me(other), 401);
    // The old password is gone, the new one signs in.
    expectError(await login(owner.username, owner.password), 401);
    expect((await login(owner.username, "brand-new-pass")).status).toBe(200);
    // The token is single-use, and the account's other reset tokens end with it.
    expectFieldErrorAsMessage(await confirm(second, "another-pass"), "token", INVALID_RESET_LINK);
    expectFieldErrorAsMessage(await confirm(first, "another-pass"), "token", INVALID_RESET_LINK);
    expect((await login(owner.username, "brand-new-pass")).status).toBe(200);
    // The owner is told, with a way back if it was not them.
    await expect
      .poll(async () => (await outboxMessages(api.dataDir)).filter((m) => recipientOf(m) === owner.email).map((m) => m.subject))
      .toContain("Your Inkwell password was changed");
  });

  it("refuses an expired token with a field error on token, changing nothing", async () => {
    const owner = await api.register("reset_expired");
    const token = randomBytes(32).toString("base64url");
    const now = Date.now();
    await api.db.kysely
      .insertInto("PasswordResetToken")
      .values({
        tokenHash: createHash("sha256").update(token).digest("hex"),
        userId: owner.id,
        expiresAt: now - 1,
        createdAt: now - 3600_001,
      })
      .execute();

    expectFieldErrorAsMessage(await confirm(token, "brand-new-pass"), "token", INVALID_RESET_LINK);

    expect((await login(owner.username, owner.password)).status).toBe(200);
    expect((await me(owner.token)).status).toBe(200);
  });

  it("refuses an unknown or tampered token the same way", async () => {
    const owner = await api.register("reset_tampered");
    const token = await resetToken(owner);
    const tampered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expectFieldErrorAsMessage(await confirm(tampered, "brand-new-pass"), "token", INVALID_RESET_LINK);
    expectFieldErrorAsMessage(await confirm("not-a-token", "brand-new-pass"), "token", INVALID_RESET_LINK);
    expectFieldError(await confirm("x".repeat(500), "brand-new-pass"), "token", INVALID_RESET_LINK);
    expectFieldError(await confirm(undefined, "brand-new-pass"), "token", "Token is required");
    // Nothing changed: the real token still works.
    expect((await confirm(token, "brand-new-pass")).status).toBe(200);
  });

  it("applies the password rules of register, and keeps the token for a better try", async () => {
    const owner = await api.register("reset_rules");
    const token = await resetToken(owner);
    expectFieldError(await confirm(token, "short"), "newPassword", "Password must be at least 6 characters");
    expectFieldError(await confirm(token, "é".repeat(40)), "newPassword", "Password must be at most 72 bytes");
    expectFieldError(await confirm(token, undefined), "newPassword", "Password is required");
    expect((await confirm(token, "long-enough")).status).toBe(200);
  });

  it("lets only one of two confirms with the same token through", async () => {
    const owner = await api.register("reset_race");
    const token = await resetToken(owner);
    const answers = await Promise.all([confirm(token, "first-pass-1"), confirm(token, "second-pass-2")]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = answers[0].status === 200 ? "first-pass-1" : "second-pass-2";
    expect((await login(owner.username, winner)).status).toBe(200);
  });

  it("keeps a suspension: a link mailed before it cannot be used while it lasts", async () => {
    const owner = await api.register("reset_suspended_later");
    const token = await resetToken(owner);
    await api.db.kysely
      .updateTable("User")
      .set({ suspendedUntil: Date.now() + 3600_000 })
      .where("id", "=", owner.id)
      .execute();
    expectError(await confirm(token, "brand-new-pass"), 403, "This account is suspended");
    await api.db.kysely.updateTable("User").set({ suspendedUntil: null }).where("id", "=", owner.id).execute();
    expect((await login(owner.username, owner.password)).status).toBe(200);
  });

  it("limits confirm attempts per client address", async () => {
    const from = nextAddress();
    for (let i = 0; i < 20; i++) expect((await confirm(`guess-${i}`, "brand-new-pass", from)).status).toBe(400);
    const res = await confirm("guess-21", "brand-new-pass", from);
    expectError(res, 429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("an account with TOTP on", () => {
  it("gets the new password and the login's code step, not a token: the reset does not pass the second factor", async () => {
    const owner = await api.register("reset_with_totp");
    const setUp = await api.request.post("/me/2fa/totp").set(owner.auth);
    const secret = setUp.body.secret as string;
    const confirmed = await api.request
      .post("/me/2fa/totp/confirm")
      .set(owner.auth)
      .send({ code: totpCode(secret, Date.now()) });
    expect(confirmed.status).toBe(200);

    const token = await resetToken(owner);
    const res = await confirm(token, "after-reset-pass");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ secondFactorRequired: true, challenge: expect.any(String) });
    // The password changed and the sessions ended, as for any reset.
    expectError(await me(owner.token), 401);
    expect((await login(owner.username, "after-reset-pass")).body.secondFactorRequired).toBe(true);
    // The challenge is completed like the login's, with a recovery code here (this window's code was used above).
    const done = await api.request
      .post("/auth/login/second-factor")
      .set("X-Forwarded-For", nextAddress())
      .send({ challenge: res.body.challenge, recoveryCode: confirmed.body.recoveryCodes[0] });
    expect(done.status).toBe(200);
    expect((await me(done.body.accessToken as string)).status).toBe(200);
  });
});
