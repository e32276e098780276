// Passkeys (docs/api.md "Passkeys"): adding one (POST /me/passkeys/options, POST /me/passkeys), the list and deleting
// (GET, DELETE /me/passkeys), and signing in without a username (POST /auth/passkey/options, POST /auth/passkey), with
// real attestation and assertion answers from a software authenticator (tests/helpers/software-authenticator.ts)
// verified by the server's real checks: origin, rp id, challenge (5 minutes, once), signature and counter.
import { describe, expect, it } from "vitest";
import {
  MAX_PASSKEYS,
  PASSKEY_EXPIRED_MESSAGE,
  PASSKEY_NOT_FOUND_MESSAGE,
  PASSKEY_SIGN_IN_EXPIRED_MESSAGE,
  PASSKEY_SIGN_IN_FAILED_MESSAGE,
  PASSKEY_UNVERIFIED_MESSAGE,
} from "../../server/rules/passkeys.ts";
import { ACCOUNT_SUSPENDED } from "../../server/rules/bans.ts";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { SoftwareAuthenticator, type Tampering } from "../helpers/software-authenticator.ts";

const PUBLIC_URL = "https://comics.example.org";
const ORIGIN = "https://comics.example.org";

let api: TestApi;
setUpSharedTestApi(
  [],
  (started) => {
    api = started;
  },
  { publicUrl: PUBLIC_URL },
);

async function creationOptions(user: TestUser) {
  const res = await api.request.post("/me/passkeys/options").set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    challenge: string;
    rp: { id: string; name: string };
    user: { id: string; name: string };
    excludeCredentials: { id: string }[];
    authenticatorSelection: { residentKey: string; userVerification: string };
  };
}

/** Adds a passkey made by `authenticator` to the user's account; the answer of POST /me/passkeys. */
async function addPasskey(user: TestUser, authenticator: SoftwareAuthenticator, name = "My laptop", tampering?: Tampering) {
  const response = authenticator.create(await creationOptions(user), tampering);
  return api.request.post("/me/passkeys").set(user.auth).send({ name, response });
}

async function signInOptions() {
  const res = await api.request.post("/auth/passkey/options");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { challengeId: string; challenge: string; rpId: string; allowCredentials?: unknown[] };
}

async function signIn(authenticator: SoftwareAuthenticator, tampering?: Tampering) {
  const options = await signInOptions();
  return api.request.post("/auth/passkey").send({ challengeId: options.challengeId, response: authenticator.get(options, tampering) });
}

async function listOf(user: TestUser) {
  const res = await api.request.get("/me/passkeys").set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; name: string; createdAt: string; lastUsedAt: string | null }[];
}

/** A user with one passkey on a fresh software authenticator. */
async function withPasskey() {
  const user = await api.register();
  const authenticator = new SoftwareAuthenticator(ORIGIN);
  const res = await addPasskey(user, authenticator);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { user, authenticator, passkeyId: res.body.id as number };
}

describe("adding a passkey", () => {
  it("offers a discoverable credential for PUBLIC_URL's host, excludes the user's passkeys, and lists what was added", async () => {
    const user = await api.register();
    const options = await creationOptions(user);
    expect(options.rp).toEqual({ id: "comics.example.org", name: "Inkwell" });
    expect(options.user.name).toBe(user.username);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const added = await api.request
      .post("/me/passkeys")
      .set(user.auth)
      .send({ name: "  Phone  ", response: authenticator.create(options) });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), name: "Phone", createdAt: expect.any(String) });

    expect(await listOf(user)).toEqual([{ id: added.body.id, name: "Phone", createdAt: added.body.createdAt, lastUsedAt: null }]);
    const again = await creationOptions(user);
    expect(again.excludeCredentials.map((c) => c.id)).toEqual([authenticator.credentials[0]!.id.toString("base64url")]);
    // Nobody else sees it.
    expect(await listOf(await api.register())).toEqual([]);
  });

  it("refuses an answer made for another origin or another relying party (400, nothing kept)", async () => {
    const user = await api.register();
    expectFieldError(
      await addPasskey(user, new SoftwareAuthenticator(ORIGIN), "x", { origin: "https://evil.example.net" }),
      "response",
      PASSKEY_UNVERIFIED_MESSAGE,
    );
    expectFieldError(
      await addPasskey(user, new SoftwareAuthenticator(ORIGIN), "x", { rpId: "evil.example.net" }),
      "response",
      PASSKEY_UNVERIFIED_MESSAGE,
    );
    expect(await listOf(user)).toEqual([]);
  });

  it("uses a challenge once, only for the user who asked, and not after 5 minutes", async () => {
    const [owner, other] = [await api.register(), await api.register()];
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const response = authenticator.create(await creationOptions(owner));
    // Another account cannot use the owner's challenge, and that try does not spend it.
    expectFieldError(
      await api.request.post("/me/passkeys").set(other.auth).send({ name: "x", response }),
      "response",
      PASSKEY_EXPIRED_MESSAGE,
    );
    expect((await api.request.post("/me/passkeys").set(owner.auth).send({ name: "Key", response })).status).toBe(201);
    // The same answer again: its challenge was used.
    expectFieldError(
      await api.request.post("/me/passkeys").set(owner.auth).send({ name: "Key", response }),
      "response",
      PASSKEY_EXPIRED_MESSAGE,
    );

    const late = authenticator.create(await creationOptions(owner));
    await api.db.kysely
      .updateTable("PasskeyChallenge")
      .set({ expiresAt: Date.now() - 1 })
      .where("userId", "=", owner.id)
      .execute();
    expectFieldError(
      await api.request.post("/me/passkeys").set(owner.auth).send({ name: "Late", response: late }),
      "response",
      PASSKEY_EXPIRED_MESSAGE,
    );
    // Only the latest options count: asking again replaces the earlier challenge.
    const first = authenticator.create(await creationOptions(owner));
    await creationOptions(owner);
    expectFieldError(
      await api.request.post("/me/passkeys").set(owner.auth).send({ name: "Old", response: first }),
      "response",
      PASSKEY_EXPIRED_MESSAGE,
    );
    expect((await listOf(owner)).map((p) => p.name)).toEqual(["Key"]);
  });

  it("answers malformed bodies and answers with 400 and field errors, never 500", async () => {
    const user = await api.register();
    const good = new SoftwareAuthenticator(ORIGIN).create(await creationOptions(user));
    const bad: [unknown, string][] = [
      [{ response: good }, "name"],
      [{ name: "", response: good }, "name"],
      [{ name: "x".repeat(61), response: good }, "name"],
      [{ name: "Key" }, "response"],
      [{ name: "Key", response: "not an object" }, "response"],
      [{ name: "Key", response: {} }, "response"],
      [{ name: "Key", response: { ...good, type: "password" } }, "response"],
      [{ name: "Key", response: { ...good, response: { ...good.response, clientDataJSON: "not base64!" } } }, "response"],
      [
        { name: "Key", response: { ...good, response: { ...good.response, clientDataJSON: Buffer.from("{").toString("base64url") } } },
        "response",
      ],
      [{ name: "Key", response: { ...good, response: { ...good.response, attestationObject: "AAAA" } } }, "response"],
      [{ name: "Key", response: { ...good, response: { ...good.response, transports: "usb" } } }, "response"],
    ];
    for (const [body, field] of bad)
      expectFieldError(
        await api.request
          .post("/me/passkeys")
          .set(user.auth)
          .send(body as object),
        field,
      );
    // A well-formed answer with a broken attestation: its challenge is genuine, the CBOR is not.
    const broken = new SoftwareAuthenticator(ORIGIN).create(await creationOptions(user));
    broken.response.attestationObject = Buffer.from("not cbor at all").toString("base64url");
    expectFieldError(
      await api.request.post("/me/passkeys").set(user.auth).send({ name: "Key", response: broken }),
      "response",
      PASSKEY_UNVERIFIED_MESSAGE,
    );
    expect(await listOf(user)).toEqual([]);
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys per account (409)`, async () => {
    const user = await api.register();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    for (let i = 0; i < MAX_PASSKEYS; i++) expect((await addPasskey(user, authenticator, `Key ${i}`)).status).toBe(201);
    expectError(await api.request.post("/me/passkeys/options").set(user.auth), 409);
  });

  it("needs a token", async () => {
    expectError(await api.request.post("/me/passkeys/options"), 401);
    expectError(await api.request.get("/me/passkeys"), 401);
  });
});

describe("signing in with a passkey", () => {
  it("signs in without a username and without another factor, and stamps the passkey's use", async () => {
    const { user, authenticator } = await withPasskey();
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: "comics.example.org", challengeId: expect.any(String), challenge: expect.any(String) });
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await api.request.post("/auth/passkey").send({ challengeId: options.challengeId, response: authenticator.get(options) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ accessToken: expect.any(String) });

    const signedIn = { ...user, auth: { Authorization: `Bearer ${res.body.accessToken}` } };
    const [passkey] = await listOf(signedIn);
    expect(passkey!.lastUsedAt).not.toBeNull();
    // A second sign-in with a counter that moved forward works too.
    expect((await signIn(authenticator)).status).toBe(200);
  });

  it("refuses a signature counter that goes backwards or stands still (401), and the passkey still works after", async () => {
    const { authenticator } = await withPasskey();
    expect((await signIn(authenticator, { counter: 10 })).status).toBe(200);
    expectError(await signIn(authenticator, { counter: 9 }), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
    expectError(await signIn(authenticator, { counter: 10 }), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
    expect((await signIn(authenticator, { counter: 11 })).status).toBe(200);
  });

  it("refuses an answer for another origin, another relying party or another challenge (401)", async () => {
    const { authenticator } = await withPasskey();
    expectError(await signIn(authenticator, { origin: "https://evil.example.net" }), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
    expectError(await signIn(authenticator, { rpId: "evil.example.net" }), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
    const other = await signInOptions();
    expectError(await signIn(authenticator, { challenge: other.challenge }), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
    // An unknown credential: a key the site never saw.
    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.create({ challenge: "AAAA", rp: { id: "comics.example.org" }, user: { id: "MQ" } });
    expectError(await signIn(stranger), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
  });

  it("uses a challenge once and not after 5 minutes (400 on challengeId)", async () => {
    const { authenticator } = await withPasskey();
    const options = await signInOptions();
    const body = { challengeId: options.challengeId, response: authenticator.get(options) };
    expect((await api.request.post("/auth/passkey").send(body)).status).toBe(200);
    expectFieldError(await api.request.post("/auth/passkey").send(body), "challengeId", PASSKEY_SIGN_IN_EXPIRED_MESSAGE);

    const late = await signInOptions();
    await api.db.kysely
      .updateTable("PasskeyChallenge")
      .set({ expiresAt: Date.now() - 1 })
      .where("userId", "is", null)
      .execute();
    expectFieldError(
      await api.request.post("/auth/passkey").send({ challengeId: late.challengeId, response: authenticator.get(late) }),
      "challengeId",
      PASSKEY_SIGN_IN_EXPIRED_MESSAGE,
    );
    expectFieldError(
      await api.request.post("/auth/passkey").send({ challengeId: "made-up", response: authenticator.get(late) }),
      "challengeId",
      PASSKEY_SIGN_IN_EXPIRED_MESSAGE,
    );
  });

  it("refuses a suspended account after the check (403), as the password login does", async () => {
    const { user, authenticator } = await withPasskey();
    await api.db.kysely
      .updateTable("User")
      .set({ suspendedUntil: Date.now() + 3600_000 })
      .where("id", "=", user.id)
      .execute();
    expectError(await signIn(authenticator), 403, ACCOUNT_SUSPENDED);
  });

  it("answers malformed bodies with 400 and field errors, never 500", async () => {
    const { authenticator } = await withPasskey();
    const options = await signInOptions();
    const good = authenticator.get(options);
    const bad: [unknown, string][] = [
      [{ response: good }, "challengeId"],
      [{ challengeId: options.challengeId }, "response"],
      [{ challengeId: options.challengeId, response: [] }, "response"],
      [{ challengeId: options.challengeId, response: { ...good, response: { ...good.response, signature: undefined } } }, "response"],
      [{ challengeId: options.challengeId, response: { ...good, id: "%%%" } }, "response"],
      [{ challengeId: 12, response: good }, "challengeId"],
    ];
    for (const [body, field] of bad) expectFieldError(await api.request.post("/auth/passkey").send(body as object), field);
    // Well-formed, but garbage inside: a refusal, not a crash.
    const fresh = await signInOptions();
    const garbage = authenticator.get(fresh);
    garbage.response.authenticatorData = "AAAA";
    garbage.response.clientDataJSON = Buffer.from("[]").toString("base64url");
    expectError(await api.request.post("/auth/passkey").send({ challengeId: fresh.challengeId, response: garbage }), 401);
  });
});

describe("deleting a passkey", () => {
  it("deletes only one's own (another's is a 404) and a deleted passkey signs nobody in", async () => {
    const { user, authenticator, passkeyId } = await withPasskey();
    const other = await api.register();
    expectError(await api.request.delete(`/me/passkeys/${passkeyId}`).set(other.auth), 404, PASSKEY_NOT_FOUND_MESSAGE);
    expect(await listOf(user)).toHaveLength(1);

    const res = await api.request.delete(`/me/passkeys/${passkeyId}`).set(user.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: passkeyId, deleted: true });
    expect(await listOf(user)).toEqual([]);
    expectError(await api.request.delete(`/me/passkeys/${passkeyId}`).set(user.auth), 404);
    expectError(await signIn(authenticator), 401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
    expectFieldError(await api.request.delete("/me/passkeys/abc").set(user.auth), "id");
  });
});

describe("the sign-in's rate limit", () => {
  it("counts options and sign-ins per address (429), as many as password logins", async () => {
    const limited = await startTestApi({ publicUrl: PUBLIC_URL, authRateLimit: 3 });
    try {
      const address = { "X-Forwarded-For": "198.51.100.7" };
      const options = await limited.request.post("/auth/passkey/options").set(address);
      expect(options.status).toBe(200);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      authenticator.create({ challenge: "AAAA", rp: { id: "comics.example.org" }, user: { id: "MQ" } });
      const answer = {
        challengeId: options.body.challengeId as string,
        response: authenticator.get(options.body as { challenge: string }),
      };
      expectError(await limited.request.post("/auth/passkey").set(address).send(answer), 401);
      expect((await limited.request.post("/auth/passkey/options").set(address)).status).toBe(200);
      const res = await limited.request.post("/auth/passkey/options").set(address);
      expectError(res, 429, "Too many attempts. Please try again later.");
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expectError(await limited.request.post("/auth/passkey").set(address).send(answer), 429);
      // Another address is not held back.
      expect((await limited.request.post("/auth/passkey/options").set({ "X-Forwarded-For": "198.51.100.8" })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
