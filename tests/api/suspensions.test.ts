// Site suspensions (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md): admins only; the account's tokens stop working
// at once, login answers 403 `This account is suspended` after the password check, until the end or the lifting.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";

const SUSPENDED = "This account is suspended";

let api: TestApi, alice: TestUser, bob: TestUser, root: TestUser, admin2: TestUser;
setUpSharedTestApi(
  ["alice", "bob"],
  async (started, users) => {
    api = started;
    [alice, bob] = users;
    root = await api.register("Site_Root");
    admin2 = await api.register("Other_Admin");
  },
  { adminUsernames: ["site_root", "other_admin"] },
);

const suspend = (userId: number, user?: TestUser, body: Record<string, unknown> = { reason: "Abuse" }) => {
  const req = api.request.put(`/admin/users/${userId}/ban`);
  return (user ? req.set(user.auth) : req).send(body);
};
const lift = (userId: number, user: TestUser) => api.request.delete(`/admin/users/${userId}/ban`).set(user.auth);
const login = (user: TestUser, password = user.password) => api.request.post("/auth/login").send({ username: user.username, password });

/** A fresh account to suspend (the shared ones stay usable). */
const victim = () => api.register();

describe("PUT /admin/users/{id}/ban", () => {
  it("is for admins: 401 without a token, 403 for anyone else, 404 for a missing user", async () => {
    const target = await victim();
    expectError(await suspend(target.id), 401);
    expectError(await suspend(target.id, alice), 403, "Only admins can suspend accounts");
    expectError(await suspend(999_999, root), 404, "User not found");
    expect((await suspend(target.id, root)).status).toBe(200);
  });

  it("refuses to suspend an admin or oneself (400), and checks the body", async () => {
    const target = await victim();
    expectError(await suspend(root.id, root), 400, "You cannot suspend yourself");
    expectError(await suspend(admin2.id, root), 400, "Admins cannot be suspended");
    expectFieldError(await suspend(target.id, root, { days: 3 }), "reason", "Reason cannot be empty");
    expectFieldError(await suspend(target.id, root, { reason: "x", days: 0 }), "days");
    expectFieldError(await suspend(target.id, root, { reason: "x", days: 3651 }), "days");
  });

  it("answers the suspension: no end without days, an end after days", async () => {
    const target = await victim();
    expect((await suspend(target.id, root)).body).toEqual({ userId: target.id, suspended: true, until: null, reason: "Abuse" });
    const before = Date.now();
    const res = await suspend(target.id, root, { reason: "A week", days: 7 });
    expect(res.body).toMatchObject({ suspended: true, reason: "A week" });
    expect(Date.parse(res.body.until)).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect((await api.request.get(`/admin/users/${target.id}/ban`).set(root.auth)).body).toEqual(res.body);
    expectError(await api.request.get(`/admin/users/${target.id}/ban`).set(alice.auth), 403);
  });

  it("ends every token of the account at once, and login answers 403 after the password check", async () => {
    const target = await victim();
    const second = (await login(target)).body.accessToken as string;
    expect((await api.request.get("/me/notifications").set(target.auth)).status).toBe(200);

    await suspend(target.id, root);
    for (const token of [target.token, second]) {
      expectError(await api.request.get("/me/notifications").set("Authorization", `Bearer ${token}`), 401);
      expectError(await api.request.get("/hubs").set("Authorization", `Bearer ${token}`), 401);
    }
    expectError(await login(target), 403, SUSPENDED);
    // Without the password nothing is revealed.
    expectError(await login(target, "wrong-password"), 401, "Invalid credentials");
  });

  it("lets the account sign in again once its end is past, or when an admin lifts it", async () => {
    const target = await victim();
    await suspend(target.id, root, { reason: "A day", days: 1 });
    expectError(await login(target), 403, SUSPENDED);
    await api.db.kysely
      .updateTable("User")
      .set({ suspendedUntil: Date.now() - 1000 })
      .where("id", "=", target.id)
      .execute();
    api.dataChanged();
    const back = await login(target);
    expect(back.status).toBe(200);
    expect((await api.request.get("/me/notifications").set("Authorization", `Bearer ${back.body.accessToken}`)).status).toBe(200);
    expect((await api.request.get(`/admin/users/${target.id}/ban`).set(root.auth)).body).toMatchObject({ suspended: false });

    await suspend(target.id, root);
    expectError(await login(target), 403, SUSPENDED);
    expect((await lift(target.id, admin2)).body).toEqual({ userId: target.id, suspended: false, until: null, reason: null });
    expect((await login(target)).status).toBe(200);
    expect((await lift(target.id, admin2)).status).toBe(200);
    expectError(await lift(target.id, alice), 403);
  });

  it("refuses a token of an account marked suspended around the API (belt and braces)", async () => {
    const target = await victim();
    await api.db.kysely
      .updateTable("User")
      .set({ suspendedUntil: Date.now() + 60_000, suspendedReason: "x" })
      .where("id", "=", target.id)
      .execute();
    api.dataChanged();
    expectError(await api.request.get("/me/notifications").set(target.auth), 401, SUSPENDED);
  });

  it("logs suspended and unsuspended in the site log (no hub), once per change", async () => {
    const target = await victim();
    await suspend(target.id, root, { reason: "Spam" });
    await lift(target.id, root);
    await lift(target.id, root);
    const rows = await api.db.kysely
      .selectFrom("ModLogEntry")
      .select(["hubId", "action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason"])
      .where("subjectId", "=", target.id)
      .where("subjectType", "=", "user")
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      {
        hubId: null,
        action: "suspended",
        moderatorId: root.id,
        subjectType: "user",
        subjectId: target.id,
        subjectTitle: target.username,
        reason: "Spam",
      },
      {
        hubId: null,
        action: "unsuspended",
        moderatorId: root.id,
        subjectType: "user",
        subjectId: target.id,
        subjectTitle: target.username,
        reason: "",
      },
    ]);
  });

  it("leaves the other accounts signed in", async () => {
    const target = await victim();
    await suspend(target.id, root);
    expect((await api.request.get("/me/notifications").set(bob.auth)).status).toBe(200);
  });
});
