import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";

// Failed logins per account: 3. Attempts per address: 20. Every test uses its own account and addresses.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ loginFailureLimit: 3, authRateLimit: 20 });
});
afterAll(() => api.close());

let seq = 0;
const nextAddress = () => `203.0.113.${++seq}`;

function login(username: string, password: string, options: { from?: string; deviceToken?: string } = {}) {
  const body = { username, password, ...(options.deviceToken ? { deviceToken: options.deviceToken } : {}) };
  return api.request
    .post("/auth/login")
    .set("X-Forwarded-For", options.from ?? nextAddress())
    .send(body);
}

/** Three wrong passwords, each from another address: the kind of guessing one address limit cannot see. */
async function guessFromManyAddresses(username: string) {
  for (let i = 0; i < 3; i++) expect((await login(username, `wrong-${i}`)).status).toBe(401);
}

describe("failed logins per account", () => {
  it("throttles an account guessed at from many addresses, even for the right password from a new device", async () => {
    const victim = await api.register("throttle_victim");
    await guessFromManyAddresses(victim.username);

    const res = await login(victim.username, victim.password);

    expectError(res, 429, "Too many failed sign-ins for this account. Please try again later.");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("lets the owner in from a device that signed in before, while the account is throttled", async () => {
    const owner = await api.register("throttle_owner");
    const deviceToken = (await login(owner.username, owner.password)).body.deviceToken as string;
    await guessFromManyAddresses(owner.username);
    expectError(await login(owner.username, owner.password), 429);

    const res = await login(owner.username, owner.password, { deviceToken });

    expect(res.status).toBe(200);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.deviceToken).toBe(deviceToken);
  });

  it("counts a trusted device's failures on its own, so a stolen device token is throttled too", async () => {
    const owner = await api.register("throttle_device");
    const deviceToken = (await login(owner.username, owner.password)).body.deviceToken as string;
    for (let i = 0; i < 3; i++) expect((await login(owner.username, `wrong-${i}`, { deviceToken })).status).toBe(401);

    expectError(await login(owner.username, owner.password, { deviceToken }), 429);
    // The account itself was not guessed at from elsewhere: a new device still gets in.
    expect((await login(owner.username, owner.password)).status).toBe(200);
  });

  it("does not trust another account's device token", async () => {
    const owner = await api.register("throttle_mine");
    const stranger = await api.register("throttle_theirs");
    const strangersDevice = (await login(stranger.username, stranger.password)).body.deviceToken as string;
    await guessFromManyAddresses(owner.username);

    expectError(await login(owner.username, owner.password, { deviceToken: strangersDevice }), 429);
  });

  it("does not take an access token, or garbage, as a device token", async () => {
    const owner = await api.register("throttle_forged");
    await guessFromManyAddresses(owner.username);

    expectError(await login(owner.username, owner.password, { deviceToken: owner.token }), 429);
    expectError(await login(owner.username, owner.password, { deviceToken: "not-a-token" }), 429);
  });

  it("does not accept a device token as an access token", async () => {
    const owner = await api.register("throttle_swap");
    const deviceToken = (await login(owner.username, owner.password)).body.deviceToken as string;

    expectError(await api.request.get("/hubs").set("Authorization", `Bearer ${deviceToken}`), 401);
  });

  it("throttles unknown usernames alike, so the answer tells nothing about which accounts exist", async () => {
    await guessFromManyAddresses("nobody_by_this_name");

    expectError(await login("nobody_by_this_name", "anything"), 429);
  });

  it("registration answers a device token too", async () => {
    const res = await api.request
      .post("/auth/register")
      .set("X-Forwarded-For", nextAddress())
      .send({ username: "throttle_new", email: "throttle_new@example.com", password: "secret123" });

    expect(res.status).toBe(201);
    expect(res.body.deviceToken).toEqual(expect.any(String));
  });
});

describe("attempts per address", () => {
  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    // This API trusts no proxy: every request here comes from the test's own address, whatever it claims.
    const direct = await startTestApi({ authRateLimit: 2, trustProxy: false });
    try {
      const claim = (ip: string) =>
        direct.request.post("/auth/login").set("X-Forwarded-For", ip).send({ username: "nobody", password: "wrong" });
      expect((await claim("198.51.100.1")).status).toBe(401);
      expect((await claim("198.51.100.2")).status).toBe(401);

      expectError(await claim("198.51.100.3"), 429, "Too many attempts. Please try again later.");
    } finally {
      await direct.close();
    }
  });
});
