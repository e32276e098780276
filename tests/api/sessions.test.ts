import { describe, expect, it } from "vitest";
import { createAuthService } from "../../server/auth/auth.service.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";

let api: TestApi;
let alice: TestUser;
setUpSharedTestApi(["session_alice"], (started, users) => {
  api = started;
  [alice] = users;
});

const login = (user: TestUser) => api.request.post("/auth/login").send({ username: user.username, password: user.password });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe("POST /auth/logout", () => {
  it("ends the token it carries at once: a 401 on private and public endpoints alike", async () => {
    const token = (await login(alice)).body.accessToken as string;
    expect((await api.request.get(`/user/${alice.username}`).set(bearer(token))).status).toBe(200);

    const res = await api.request.post("/auth/logout").set(bearer(token));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ loggedOut: true });
    expectError(await api.request.get(`/user/${alice.username}`).set(bearer(token)), 401, "Your session has ended. Please sign in again.");
    expectError(await api.request.get("/hubs").set(bearer(token)), 401);
    expectError(await api.request.post("/hubs").set(bearer(token)).send({ name: "After Logout" }), 401);
    expectError(await api.request.post("/auth/logout").set(bearer(token)), 401);
  });

  it("leaves the user's other sessions working", async () => {
    const phone = (await login(alice)).body.accessToken as string;
    const laptop = (await login(alice)).body.accessToken as string;

    await api.request.post("/auth/logout").set(bearer(phone));

    expect((await api.request.get(`/user/${alice.username}`).set(bearer(laptop))).status).toBe(200);
  });

  it("needs a token", async () => {
    expectError(await api.request.post("/auth/logout"), 401);
  });

  it("keeps a revoked token's row only until the token would have expired", async () => {
    const token = (await login(alice)).body.accessToken as string;
    await api.db.kysely
      .insertInto("RevokedToken")
      .values({ jti: "long-gone-token-id-000", userId: alice.id, expiresAt: Date.now() - 1000 })
      .execute();

    await api.request.post("/auth/logout").set(bearer(token));

    const rows = await api.db.kysely.selectFrom("RevokedToken").select("jti").where("userId", "=", alice.id).execute();
    expect(rows.map((r) => r.jti)).not.toContain("long-gone-token-id-000");
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe("ending every session of a user (password change and suspension call this)", () => {
  it("stops every token signed so far, and a new sign-in works again", async () => {
    const bob = await api.register("session_bob");
    const other = (await login(bob)).body.accessToken as string;

    await createAuthService(api.db, api.config).endAllSessions(bob.id);

    expectError(await api.request.get(`/user/${bob.username}`).set(bob.auth), 401);
    expectError(await api.request.get(`/user/${bob.username}`).set(bearer(other)), 401);
    const fresh = (await login(bob)).body.accessToken as string;
    expect((await api.request.get(`/user/${bob.username}`).set(bearer(fresh))).body.email).toBe(bob.email);
  });
});
