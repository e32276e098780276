// Verified email addresses (docs/api.md "Verified email addresses"): the link sent on register, verifying it once, its
// expiry, asking again within the limit, an email change that takes effect once verified (the old address told), who
// sees `emailVerified`, and REQUIRE_VERIFIED_EMAIL on the writes it guards. Mail goes to DATA_DIR/outbox (SMTP_URL
// unset), read back as the .eml files the job runner wrote after each commit.
import { createHash } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkApiSettings, loadConfig } from "../../server/config.ts";
import { INVALID_VERIFICATION_LINK, NOTHING_TO_VERIFY, VERIFY_EMAIL_FIRST } from "../../server/rules/email-verification.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, createPost, joinHub, uniqueName, VALID_POST } from "../helpers/fixtures.ts";
import { imageBytes, uploadImage } from "../helpers/images.ts";
import { outboxMessages, recipientOf, waitForOutboxMail } from "../helpers/mail.ts";

const MAILS_PER_HOUR = 3;
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi(
    { publicUrl: "https://inkwell.test/", verificationMailsPerHour: MAILS_PER_HOUR, adminUsernames: ["verify_admin"] },
    { jobs: { pollMs: 50 } },
  );
});
afterAll(() => api.close());

const verify = (token: unknown) => api.request.post("/auth/verify-email").send({ token });
const resend = (user: TestUser) => api.request.post("/me/verify-email/resend").set(user.auth);
const me = async (user: TestUser) => (await api.request.get(`/user/${user.username}`).set(user.auth)).body as Record<string, unknown>;
const changeEmail = (user: TestUser, email: string) =>
  api.request.put(`/user/${user.id}`).set(user.auth).send({ email, currentPassword: user.password });

/** The token of the verification link in a message's plain-text part. */
function verifyTokenIn(mail: ParsedMail): string {
  const match = /https:\/\/inkwell\.test\/verify-email\?token=([A-Za-z0-9_-]+)\n/.exec(mail.text ?? "");
  if (!match) throw new Error(`no verification link in: ${mail.text}`);
  return decodeURIComponent(match[1]!);
}

/** The `count`-th message to `address` (1: the first), once the job runner has written it. */
async function mailTo(address: string, count = 1): Promise<ParsedMail> {
  return (await waitForOutboxMail(api.dataDir, address, count))[count - 1]!;
}

let seq = 0;
const newUser = () => api.register(`verify_${process.pid}_${++seq}`);

/** A user whose address is verified through its register link. */
async function verifiedUser(): Promise<TestUser> {
  const user = await newUser();
  expect((await verify(verifyTokenIn(await mailTo(user.email)))).status).toBe(200);
  return user;
}

describe("the link sent on register", () => {
  it("comes to the new address; verifying it marks the address verified", async () => {
    const user = await newUser();
    expect(await me(user)).toMatchObject({ email: user.email, emailVerified: false, pendingEmail: null });

    const mail = await mailTo(user.email);
    expect(mail.subject).toBe("Verify your email address on Inkwell");
    expect(mail.text).toContain(`Hello ${user.username},`);
    expect(mail.text).toMatch(/https:\/\/inkwell\.test\/verify-email\?token=[A-Za-z0-9_-]{43}\n/);
    expect(mail.html).toContain('href="https://inkwell.test/verify-email?token=');
    const res = await verify(verifyTokenIn(mail));

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ email: user.email, emailVerified: true, changed: false });
    expect(await me(user)).toMatchObject({ email: user.email, emailVerified: true, pendingEmail: null });
  });

  it("is stored only as its token's sha256, for 24 hours", async () => {
    const user = await newUser();
    const token = verifyTokenIn(await mailTo(user.email));
    const rows = await api.db.kysely.selectFrom("EmailVerification").selectAll().where("userId", "=", user.id).execute();

    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(Number(rows[0]!.expiresAt) - Number(rows[0]!.createdAt)).toBe(24 * 3600 * 1000);
  });

  it("works once: the second use, an unknown token and a malformed one are 400 on `token`", async () => {
    const user = await newUser();
    const token = verifyTokenIn(await mailTo(user.email));
    expect((await verify(token)).status).toBe(200);

    for (const res of [await verify(token), await verify("x".repeat(43)), await verify(`${token}x`)]) {
      expectError(res, 400, INVALID_VERIFICATION_LINK);
      expectFieldError(res, "token", INVALID_VERIFICATION_LINK);
    }
    expectFieldError(await verify(""), "token", "Token is required");
    expectFieldError(await verify(42), "token");
  });

  it("is refused once expired, and nothing changes", async () => {
    const user = await newUser();
    const token = verifyTokenIn(await mailTo(user.email));
    await api.db.kysely
      .updateTable("EmailVerification")
      .set({ expiresAt: Date.now() - 1 })
      .where("userId", "=", user.id)
      .execute();

    const res = await verify(token);

    expectFieldError(res, "token", INVALID_VERIFICATION_LINK);
    expect(await me(user)).toMatchObject({ emailVerified: false });
  });
});

describe("POST /me/verify-email/resend", () => {
  it("sends a new link for an unverified address; it verifies", async () => {
    const user = await newUser();
    await mailTo(user.email);

    const res = await resend(user);

    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ sentTo: user.email });
    const token = verifyTokenIn(await mailTo(user.email, 2));
    expect((await verify(token)).status).toBe(200);
    expect(await me(user)).toMatchObject({ emailVerified: true });
  });

  it("is 400 when the address is verified and no change waits; 401 without a token", async () => {
    const user = await verifiedUser();

    expectError(await resend(user), 400, NOTHING_TO_VERIFY);
    expectError(await api.request.post("/me/verify-email/resend"), 401);
  });

  it(`allows ${MAILS_PER_HOUR} verification emails an hour per account, then 429 with Retry-After`, async () => {
    const user = await newUser();
    const other = await newUser();
    for (let i = 0; i < MAILS_PER_HOUR; i++) expect((await resend(user)).status).toBe(202);

    const refused = await resend(user);

    expectError(refused, 429);
    expect(refused.body.message).toMatch(/^You can ask for at most 3 verification emails an hour\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another account's count is its own.
    expect((await resend(other)).status).toBe(202);
    // The register mail and the three resends; the refused one sent nothing.
    await mailTo(user.email, 1 + MAILS_PER_HOUR);
    expect((await outboxMessages(api.dataDir)).filter((m) => recipientOf(m) === user.email)).toHaveLength(1 + MAILS_PER_HOUR);
  });
});

describe("changing the email (PUT /user/{id})", () => {
  it("keeps the old address until the new one is verified, then tells the old one", async () => {
    const user = await verifiedUser();
    const newAddress = `new_${user.username}@example.org`;

    const res = await changeEmail(user, newAddress);

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ email: user.email, emailVerified: true, pendingEmail: newAddress });
    expect(await me(user)).toMatchObject({ email: user.email, pendingEmail: newAddress });
    const mail = await mailTo(newAddress);
    expect(mail.subject).toBe("Confirm your new email address on Inkwell");
    expect(mail.text).toContain(`change the email address of your Inkwell account to ${newAddress}`);

    const verified = await verify(verifyTokenIn(mail));

    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toEqual({ email: newAddress, emailVerified: true, changed: true });
    expect(await me(user)).toMatchObject({ email: newAddress, emailVerified: true, pendingEmail: null });
    // The register mail, then the notice of the change.
    const told = await mailTo(user.email, 2);
    expect(told.subject).toBe("Your email address on Inkwell was changed");
    expect(told.text).toContain(`changed from ${user.email} to ${newAddress}`);
    // The old address is free, the new one taken.
    expect(
      (await api.request.post("/auth/register").send({ username: `old_${seq}_${process.pid}`, email: user.email, password: "secret123" }))
        .status,
    ).toBe(201);
    expectError(
      await api.request.post("/auth/register").send({ username: `new_${seq}_${process.pid}`, email: newAddress, password: "secret123" }),
      409,
    );
  });

  it("still needs the current password, and refuses another account's address with 409", async () => {
    const user = await verifiedUser();
    const other = await newUser();

    expectFieldError(
      await api.request.put(`/user/${user.id}`).set(user.auth).send({ email: "x@example.org", currentPassword: "wrong" }),
      "currentPassword",
    );
    expectError(await changeEmail(user, other.email.toUpperCase()), 409, "Email is already registered");
    expect(await me(user)).toMatchObject({ email: user.email, pendingEmail: null });
  });

  it("a newer change replaces the one that waited; the own address again calls it off", async () => {
    const user = await verifiedUser();
    const first = `first_${user.username}@example.org`;
    const second = `second_${user.username}@example.org`;
    await changeEmail(user, first);
    const firstToken = verifyTokenIn(await mailTo(first));
    await changeEmail(user, second);
    const secondToken = verifyTokenIn(await mailTo(second));

    expectFieldError(await verify(firstToken), "token", INVALID_VERIFICATION_LINK);
    expect(await me(user)).toMatchObject({ email: user.email, pendingEmail: second });

    const back = await changeEmail(user, user.email.toUpperCase());
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ email: user.email.toUpperCase(), emailVerified: true, pendingEmail: null });
    expectFieldError(await verify(secondToken), "token", INVALID_VERIFICATION_LINK);
  });

  it("resend sends the link of the change that waits", async () => {
    const user = await verifiedUser();
    const newAddress = `again_${user.username}@example.org`;
    await changeEmail(user, newAddress);
    await mailTo(newAddress);

    const res = await resend(user);

    expect(res.body).toEqual({ sentTo: newAddress });
    expect((await verify(verifyTokenIn(await mailTo(newAddress, 2)))).body).toMatchObject({ email: newAddress, changed: true });
  });

  it("is 409 when another account took the new address meanwhile; the account keeps its address", async () => {
    const user = await verifiedUser();
    const wanted = `wanted_${user.username}@example.org`;
    await changeEmail(user, wanted);
    const token = verifyTokenIn(await mailTo(wanted));
    const quicker = await api.register(`quick_${seq}_${process.pid}`);
    await api.request.put(`/user/${quicker.id}`).set(quicker.auth).send({ email: wanted, currentPassword: quicker.password });
    // The quicker account verifies its change first.
    const quickerToken = verifyTokenIn((await waitForOutboxMail(api.dataDir, wanted, 2))[1]!);
    expect((await verify(quickerToken)).status).toBe(200);

    expectError(await verify(token), 409, "Email is already registered");
    expect(await me(user)).toMatchObject({ email: user.email, emailVerified: true });
  });

  it("tells an unverified old address nothing (it may be a stranger's)", async () => {
    const user = await newUser();
    await mailTo(user.email);
    const newAddress = `fresh_${user.username}@example.org`;
    await changeEmail(user, newAddress);

    expect((await verify(verifyTokenIn(await mailTo(newAddress)))).body).toMatchObject({ email: newAddress, changed: true });
    expect(await me(user)).toMatchObject({ email: newAddress, emailVerified: true });
    // A later message: the outbox goes out in order, so a notice to the old address would be written before it.
    const later = `later_${user.username}@example.org`;
    await changeEmail(user, later);
    await mailTo(later);
    expect((await outboxMessages(api.dataDir)).filter((m) => recipientOf(m) === user.email)).toHaveLength(1);
  });
});

describe("who sees emailVerified and pendingEmail", () => {
  it("the user and admins see emailVerified; others and guests get null; pendingEmail is the user's only", async () => {
    const user = await newUser();
    await changeEmail(user, `pending_${user.username}@example.org`);
    const other = await newUser();
    const admin = await api.register("verify_admin");

    const seen = async (auth?: { Authorization: string }) => {
      const req = api.request.get(`/user/id/${user.id}`);
      return (await (auth ? req.set(auth) : req)).body as Record<string, unknown>;
    };

    expect(await seen(user.auth)).toMatchObject({ emailVerified: false, pendingEmail: `pending_${user.username}@example.org` });
    expect(await seen(admin.auth)).toMatchObject({ role: "user", emailVerified: false, pendingEmail: null, email: null });
    expect(await seen(other.auth)).toMatchObject({ emailVerified: null, pendingEmail: null, email: null });
    expect(await seen()).toMatchObject({ emailVerified: null, pendingEmail: null, email: null });
    const state = (await api.request.get("/me/state").set(user.auth)).body as { user: Record<string, unknown> };
    expect(state.user).toMatchObject({ emailVerified: false, pendingEmail: `pending_${user.username}@example.org` });
  });
});

describe("REQUIRE_VERIFIED_EMAIL=true", () => {
  let strict: TestApi;
  beforeAll(async () => {
    strict = await startTestApi({ requireVerifiedEmail: true, publicUrl: "https://inkwell.test" }, { jobs: { pollMs: 50 } });
  });
  afterAll(() => strict.close());

  const markVerified = async (user: TestUser, verified: boolean) => {
    await strict.db.kysely
      .updateTable("User")
      .set({ emailVerified: verified ? 1 : 0 })
      .where("id", "=", user.id)
      .execute();
    strict.dataChanged();
  };

  it("lets an unverified account sign in, read, join and like, and refuses posting, commenting, publishing and uploading", async () => {
    const owner = await strict.register(`strict_owner_${process.pid}`);
    await markVerified(owner, true);
    const hub = await createHub(strict, owner);
    const post = await createPost(strict, owner, hub.id);
    const reader = await strict.register(`strict_reader_${process.pid}`);
    // A series of the reader's own, made while verified, to publish a chapter into.
    await markVerified(reader, true);
    const seriesName = uniqueName("Series");
    expect((await strict.request.post("/series").set(reader.auth).send({ name: seriesName })).status).toBe(201);
    const image = await uploadImage(strict, reader);
    await markVerified(reader, false);

    expect((await strict.request.post("/auth/login").send({ username: reader.username, password: reader.password })).status).toBe(200);
    expect((await strict.request.get(`/hubs/${encodeURIComponent(hub.name)}/${post.id}`).set(reader.auth)).status).toBe(200);
    await joinHub(strict, reader, hub.id);
    expect((await strict.request.post(`/hubs/${encodeURIComponent(hub.name)}/${post.id}/like`).set(reader.auth)).status).toBe(200);

    const writes = {
      post: () =>
        strict.request
          .post("/hub-posts")
          .set(reader.auth)
          .send({ ...VALID_POST, hubId: hub.id }),
      comment: () =>
        strict.request
          .post(`/hubs/${encodeURIComponent(hub.name)}/${post.id}/comments`)
          .set(reader.auth)
          .send({ content: "Hello there" }),
      hub: () => strict.request.post("/hubs").set(reader.auth).send({ name: uniqueName(), description: "About it" }),
      series: () =>
        strict.request
          .post("/series")
          .set(reader.auth)
          .send({ name: uniqueName("Series") }),
      chapter: () =>
        strict.request
          .post(`/series/${encodeURIComponent(seriesName)}/chapters`)
          .set(reader.auth)
          .send({ title: "One", pages: [image] }),
      upload: async () =>
        strict.request
          .post("/images")
          .set(reader.auth)
          .attach("file", await imageBytes(), "a.png"),
    };
    for (const [kind, write] of Object.entries(writes)) {
      const res = await write();
      expect(res.status, kind).toBe(403);
      expect(res.body.message, kind).toBe(VERIFY_EMAIL_FIRST);
    }

    await markVerified(reader, true);
    for (const [kind, write] of Object.entries(writes)) expect((await write()).status, kind).toBe(201);
  });

  it("lets the link of a new account verify it, and then it writes", async () => {
    const user = await strict.register(`strict_new_${process.pid}`);
    expectError(await strict.request.post("/hubs").set(user.auth).send({ name: uniqueName(), description: "x" }), 403, VERIFY_EMAIL_FIRST);
    const mail = (await waitForOutboxMail(strict.dataDir, user.email))[0]!;

    expect((await strict.request.post("/auth/verify-email").send({ token: verifyTokenIn(mail) })).status).toBe(200);

    expect((await strict.request.post("/hubs").set(user.auth).send({ name: uniqueName(), description: "x" })).status).toBe(201);
  });
});

describe("the REQUIRE_VERIFIED_EMAIL setting", () => {
  it("is off unless set to true; anything but true or false is a setting problem", () => {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "test",
      JWT_SECRET: "a-secret-that-is-long-enough-012345",
      DATA_DIR: "/tmp/h4-verify-config",
    };
    expect(loadConfig(env).requireVerifiedEmail).toBe(false);
    expect(loadConfig({ ...env, REQUIRE_VERIFIED_EMAIL: "true" }).requireVerifiedEmail).toBe(true);
    expect(loadConfig({ ...env, REQUIRE_VERIFIED_EMAIL: "false" }).requireVerifiedEmail).toBe(false);
    expect(checkApiSettings({ ...env, REQUIRE_VERIFIED_EMAIL: "yes" })).toEqual([
      'REQUIRE_VERIFIED_EMAIL: must be one of true, false, got "yes"',
    ]);
  });
});
