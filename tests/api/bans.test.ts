// Hub bans (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md): who may ban and whom, what a ban refuses (posting,
// commenting, liking, joining) with its exact message, re-banning, lifting, ends read at check time, the list.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter } from "../helpers/comments.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, joinHub, VALID_POST } from "../helpers/fixtures.ts";

const BANNED = "You are banned from this hub";

let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser, dave: TestUser, root: TestUser;
setUpSharedTestApi(
  ["alice", "bob", "carol", "dave"],
  async (started, users) => {
    api = started;
    [alice, bob, carol, dave] = users;
    root = await api.register("Site_Root");
  },
  { adminUsernames: ["site_root"] },
);

const ban = (hubId: number, userId: number, user?: TestUser, body: Record<string, unknown> = { reason: "Spam" }) => {
  const req = api.request.put(`/hubs/${hubId}/bans/${userId}`);
  return (user ? req.set(user.auth) : req).send(body);
};
const unban = (hubId: number, userId: number, user?: TestUser) => {
  const req = api.request.delete(`/hubs/${hubId}/bans/${userId}`);
  return user ? req.set(user.auth) : req;
};

/** Alice's hub, bob a member with a post and a comment on it, carol an added moderator. */
async function hubWithMember() {
  const hub = await createHub(api, alice);
  await joinHub(api, bob, hub.id);
  expect((await api.request.put(`/hubs/${hub.id}/moderators/${carol.id}`).set(alice.auth)).status).toBe(200);
  const post = await createPost(api, alice, hub.id);
  const postPath = `${hubPath(hub.name)}/${post.id}`;
  const comment = await addComment(api, alice, postPath, "A comment by alice");
  return { hub, post, postPath, comment };
}

const logOf = (hubId: number) =>
  api.db.kysely
    .selectFrom("ModLogEntry")
    .select(["action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason"])
    .where("hubId", "=", hubId)
    .where("action", "in", ["banned", "unbanned"])
    .orderBy("id")
    .execute();

describe("PUT /hubs/{id}/bans/{userId}", () => {
  it("is for the hub's moderators: its creator, an added moderator, an admin; 401 without a token, 403 for others", async () => {
    const { hub } = await hubWithMember();
    expectError(await ban(hub.id, bob.id), 401);
    expectError(await ban(hub.id, bob.id, dave), 403, "Only the hub's moderators can ban users from it");
    expectError(await ban(hub.id, dave.id, bob), 403);
    for (const moderator of [alice, carol, root]) expect((await ban(hub.id, bob.id, moderator)).status).toBe(200);
  });

  it("answers the ban: reason, no end without days, who set it", async () => {
    const { hub } = await hubWithMember();
    const res = await ban(hub.id, bob.id, carol, { reason: "  Spam links  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      banned: true,
      ban: {
        user: { id: bob.id, username: "bob", profileImageId: null },
        reason: "Spam links",
        expiresAt: null,
        by: { id: carol.id, username: "carol" },
        createdAt: expect.any(String),
      },
    });
  });

  it("ends after `days` whole days", async () => {
    const { hub } = await hubWithMember();
    const before = Date.now();
    const res = await ban(hub.id, bob.id, alice, { reason: "Cool off", days: 7 });
    const end = Date.parse(res.body.ban.expiresAt);
    expect(end).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
  });

  it("cannot reach the moderator themselves, the creator, an added moderator or an admin (400)", async () => {
    const { hub } = await hubWithMember();
    expectError(await ban(hub.id, carol.id, carol), 400, "You cannot ban yourself");
    expectError(await ban(hub.id, alice.id, carol), 400, "The hub's creator, its moderators and admins cannot be banned from it");
    expectError(await ban(hub.id, carol.id, alice), 400);
    expectError(await ban(hub.id, root.id, alice), 400);
    expect(await logOf(hub.id)).toEqual([]);
  });

  it("checks the body: a reason, and days a whole number from 1 to 3650", async () => {
    const { hub } = await hubWithMember();
    expectFieldError(await ban(hub.id, bob.id, alice, {}), "reason", "Reason cannot be empty");
    expectFieldError(await ban(hub.id, bob.id, alice, { reason: "   " }), "reason", "Reason cannot be empty");
    expectFieldError(await ban(hub.id, bob.id, alice, { reason: "x".repeat(501) }), "reason", "Reason must be at most 500 characters");
    for (const days of [0, 3651, 1.5, -1, "7"]) {
      expectFieldError(await ban(hub.id, bob.id, alice, { reason: "Spam", days }), "days", "Days must be a whole number from 1 to 3650");
    }
    expect((await ban(hub.id, bob.id, alice, { reason: "Spam", days: 3650 })).status).toBe(200);
  });

  it("answers 404 for a missing hub or user", async () => {
    const { hub } = await hubWithMember();
    expectError(await ban(999_999, bob.id, root), 404, "No hub found.");
    expectError(await ban(hub.id, 999_999, alice), 404, "User not found");
  });

  it("set again replaces reason and end (one row), and logs each time", async () => {
    const { hub } = await hubWithMember();
    await ban(hub.id, bob.id, alice, { reason: "First", days: 1 });
    const again = await ban(hub.id, bob.id, carol, { reason: "Second" });
    expect(again.body.ban).toMatchObject({ reason: "Second", expiresAt: null, by: { username: "carol" } });
    const list = await api.request.get(`${hubPath(hub.name)}/bans`).set(alice.auth);
    expect(list.body.content.map((b: { reason: string }) => b.reason)).toEqual(["Second"]);
    expect(await logOf(hub.id)).toEqual([
      { action: "banned", moderatorId: alice.id, subjectType: "user", subjectId: bob.id, subjectTitle: "bob", reason: "First" },
      { action: "banned", moderatorId: carol.id, subjectType: "user", subjectId: bob.id, subjectTitle: "bob", reason: "Second" },
    ]);
  });
});

describe("a banned user", () => {
  it("gets 403 `You are banned from this hub` on posting, commenting, replying and liking there; nothing is written", async () => {
    const { hub, post, postPath, comment } = await hubWithMember();
    await ban(hub.id, bob.id, alice);
    const before = await api.db.kysely
      .selectFrom("Comment")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();

    expectError(
      await api.request
        .post("/hub-posts")
        .set(bob.auth)
        .send({ ...VALID_POST, hubId: hub.id }),
      403,
      BANNED,
    );
    expectError(await api.request.post(`${postPath}/comments`).set(bob.auth).send({ content: "Hi" }), 403, BANNED);
    expectError(await api.request.post(`${postPath}/comments`).set(bob.auth).send({ content: "Hi", parentId: comment.id }), 403, BANNED);
    expectError(await api.request.post(`${postPath}/like`).set(bob.auth), 403, BANNED);
    expectError(await api.request.post(`/comments/${comment.id}/like`).set(bob.auth), 403, BANNED);

    const after = await api.db.kysely
      .selectFrom("Comment")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const detail = await api.request.get(postPath);
    expect(detail.body).toMatchObject({ likes: 0, commentCount: 1 });
    expect((await api.request.get(hubPath(hub.name))).body.postCount).toBe(1);
    expect(post.hubId).toBe(hub.id);
  });

  it("may still unlike and leave, and read; other hubs and chapters are not affected", async () => {
    const { hub, postPath } = await hubWithMember();
    expect((await api.request.post(`${postPath}/like`).set(bob.auth)).status).toBe(200);
    await ban(hub.id, bob.id, alice);
    expect((await api.request.delete(`${postPath}/like`).set(bob.auth)).body).toEqual({ liked: false, likes: 0 });
    expect((await api.request.get(postPath).set(bob.auth)).status).toBe(200);

    const other = await createHub(api, dave);
    await joinHub(api, bob, other.id);
    await createPost(api, bob, other.id);
    const chapter = await newChapter(api, dave);
    await addComment(api, bob, chapter.path, "Fine here");

    expect((await api.request.delete(`/user/${bob.id}/member-hubs/${hub.id}`).set(bob.auth)).body.member).toBe(false);
  });

  it("cannot join the hub, and posting without being a member says why", async () => {
    const hub = await createHub(api, alice);
    await ban(hub.id, dave.id, alice);
    expectError(await api.request.post(`/user/${dave.id}/member-hubs/${hub.id}`).set(dave.auth), 403, BANNED);
    expect((await api.request.get(hubPath(hub.name))).body.memberCount).toBe(1);
    expectError(
      await api.request
        .post("/hub-posts")
        .set(dave.auth)
        .send({ ...VALID_POST, hubId: hub.id }),
      403,
      BANNED,
    );
  });

  it("is free again once the ban's end is past (read at check time) or it is lifted", async () => {
    const { hub, postPath } = await hubWithMember();
    await ban(hub.id, bob.id, alice, { reason: "Short", days: 1 });
    expectError(await api.request.post(`${postPath}/like`).set(bob.auth), 403, BANNED);

    await api.db.kysely
      .updateTable("HubBan")
      .set({ expiresAt: Date.now() - 1000 })
      .where("hubId", "=", hub.id)
      .execute();
    api.dataChanged();
    expect((await api.request.post(`${postPath}/like`).set(bob.auth)).status).toBe(200);
    expect((await api.request.get(`${hubPath(hub.name)}/bans`).set(alice.auth)).body.content).toHaveLength(1);

    await ban(hub.id, bob.id, alice);
    expectError(await api.request.post(`${postPath}/comments`).set(bob.auth).send({ content: "Hi" }), 403, BANNED);
    expect((await unban(hub.id, bob.id, carol)).body).toEqual({ banned: false, ban: null });
    await addComment(api, bob, postPath, "Back again");
  });
});

describe("DELETE /hubs/{id}/bans/{userId}", () => {
  it("is for the hub's moderators; idempotent, logged once, with an optional reason", async () => {
    const { hub } = await hubWithMember();
    await ban(hub.id, bob.id, alice);
    expectError(await unban(hub.id, bob.id), 401);
    expectError(await unban(hub.id, bob.id, dave), 403);
    const res = await api.request.delete(`/hubs/${hub.id}/bans/${bob.id}`).set(root.auth).send({ reason: "Appeal accepted" });
    expect(res.status).toBe(200);
    expect((await unban(hub.id, bob.id, alice)).body).toEqual({ banned: false, ban: null });
    expect((await logOf(hub.id)).map((e) => [e.action, e.moderatorId, e.reason])).toEqual([
      ["banned", alice.id, "Spam"],
      ["unbanned", root.id, "Appeal accepted"],
    ]);
  });
});

describe("GET /hubs/{name}/bans", () => {
  it("lists the hub's bans newest first, paged, for its moderators only", async () => {
    const { hub } = await hubWithMember();
    await ban(hub.id, bob.id, alice, { reason: "One" });
    await ban(hub.id, dave.id, carol, { reason: "Two", days: 30 });
    const path = `${hubPath(hub.name)}/bans`;
    expectError(await api.request.get(path), 401);
    expectError(await api.request.get(path).set(bob.auth), 403);
    const all = await api.request.get(path).set(carol.auth);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, perPage: 10, totalPages: 1, totalElements: 2 });
    expect(all.body.content.map((b: { user: { username: string } }) => b.user.username)).toEqual(["dave", "bob"]);
    const second = await api.request.get(`${path}?per_page=1&page=2`).set(root.auth);
    expect(second.body).toMatchObject({ totalPages: 2, totalElements: 2 });
    expect(second.body.content[0]).toMatchObject({ user: { username: "bob" }, reason: "One", by: { username: "alice" } });
    expectError(await api.request.get(`/hubs/no-such-hub-here/bans`).set(alice.auth), 404);
  });

  it("goes with the hub when it is deleted", async () => {
    const { hub } = await hubWithMember();
    await ban(hub.id, bob.id, alice);
    expect((await api.request.delete(`/hubs/${hub.id}`).set(alice.auth)).status).toBe(200);
    expect(await api.db.kysely.selectFrom("HubBan").selectAll().where("hubId", "=", hub.id).execute()).toEqual([]);
  });
});
