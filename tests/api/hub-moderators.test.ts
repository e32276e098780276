// Roles and hub moderators (docs/api.md §14, docs/decisions/018-governance.md): admins by ADMIN_USERNAMES and by
// grant (`npm run admin`), `role` on users, the moderator list and its changes with their mod log rows, the hub
// detail's `moderators` and `moderatedByMe`, and who may delete comments on a hub's posts.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { parseAdminArgs, setAdmin } from "../../scripts/admin.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, hubPath } from "../helpers/fixtures.ts";

let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser, dave: TestUser, root: TestUser;
setUpSharedTestApi(
  ["alice", "bob", "carol", "dave"],
  async (started, users) => {
    api = started;
    [alice, bob, carol, dave] = users;
    // Named by ADMIN_USERNAMES (in another case) and registered after the start.
    root = await api.register("Site_Root");
  },
  { adminUsernames: ["site_root"] },
);

const moderatorsOf = async (hubName: string) => (await api.request.get(`${hubPath(hubName)}/moderators`)).body.items as Moderator[];
const put = (hubId: number, userId: number, user?: TestUser) => {
  const req = api.request.put(`/hubs/${hubId}/moderators/${userId}`);
  return user ? req.set(user.auth) : req;
};
const del = (hubId: number, userId: number, user?: TestUser) => {
  const req = api.request.delete(`/hubs/${hubId}/moderators/${userId}`);
  return user ? req.set(user.auth) : req;
};

interface Moderator {
  id: number;
  username: string;
  profileImageId: number | null;
  creator: boolean;
  addedAt: string;
}

async function logOf(hubId: number) {
  return api.db.kysely
    .selectFrom("ModLogEntry")
    .select(["action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason"])
    .where("hubId", "=", hubId)
    .orderBy("id")
    .execute();
}

describe("roles", () => {
  it("answers role user, and admin for an account named by ADMIN_USERNAMES (any case), registered after the start", async () => {
    expect((await api.request.get(`/user/${alice.username}`)).body.role).toBe("user");
    const res = await api.request.get(`/user/site_root`);
    expect(res.body).toMatchObject({ username: "Site_Root", role: "admin" });
    expect((await api.request.get(`/user/id/${root.id}`)).body.role).toBe("admin");
  });

  it("grants and revokes the role with the admin command's function: by username in any case, on this engine", async () => {
    const granted = await setAdmin(api.db, "DAVE", "grant");
    expect(granted).toEqual({ ok: true, username: "dave", changed: true });
    api.dataChanged();
    expect((await api.request.get(`/user/dave`)).body.role).toBe("admin");
    expect(await setAdmin(api.db, "dave", "grant")).toEqual({ ok: true, username: "dave", changed: false });

    // The flag is read with the token: dave may now change the moderators of alice's hub.
    const hub = await createHub(api, alice);
    expect((await put(hub.id, bob.id, dave)).status).toBe(200);

    expect(await setAdmin(api.db, "dave", "revoke")).toEqual({ ok: true, username: "dave", changed: true });
    api.dataChanged();
    expect((await api.request.get(`/user/dave`)).body.role).toBe("user");
    expectError(await del(hub.id, bob.id, dave), 403, "Only the hub's creator or an admin can change its moderators");
  });

  it("says so for an unknown user, and the command's arguments are checked", async () => {
    expect(await setAdmin(api.db, "nobody_here", "grant")).toEqual({
      ok: false,
      message: 'No account is called "nobody_here". Check the spelling, or register it first.',
    });
    expect(parseAdminArgs(["grant", "bob"], { DATA_DIR: "/tmp/x" })).toEqual({ command: "grant", username: "bob", dataDir: "/tmp/x" });
    expect(parseAdminArgs(["revoke", "bob", "--data-dir", "d"], { DATABASE_URL: "postgres://h/db" })).toEqual({
      command: "revoke",
      username: "bob",
      dataDir: "d",
      databaseUrl: "postgres://h/db",
    });
    expect(parseAdminArgs(["promote", "bob"], {})).toBe("Unknown command: promote");
    expect(parseAdminArgs(["grant"], {})).toBe("Say whose role to grant: npm run admin -- grant <username>");
  });

  it("reads ADMIN_USERNAMES: comma-separated, trimmed, lower case; a bad name is a setting problem", () => {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "test",
      JWT_SECRET: "a-secret-that-is-long-enough-012345",
      DATA_DIR: "/tmp/inkwell-roles-config",
    };
    expect(loadConfig({ ...env, ADMIN_USERNAMES: " Alice, bob_2 ,," }).adminUsernames).toEqual(["alice", "bob_2"]);
    expect(loadConfig(env).adminUsernames).toEqual([]);
    expect(() => loadConfig({ ...env, ADMIN_USERNAMES: "alice,not a name" })).toThrow(/ADMIN_USERNAMES/);
  });
});

describe("GET /hubs/{name}/moderators", () => {
  it("lists the creator alone at first, then those added, earliest first; public; by name in any case", async () => {
    const hub = await createHub(api, alice);
    expect(await moderatorsOf(hub.name)).toEqual([
      { id: alice.id, username: "alice", profileImageId: null, creator: true, addedAt: expect.any(String) },
    ]);
    expect((await put(hub.id, carol.id, alice)).status).toBe(200);
    expect((await put(hub.id, bob.id, alice)).status).toBe(200);

    const list = await moderatorsOf(hub.name.toUpperCase());
    expect(list.map((m) => [m.username, m.creator])).toEqual([
      ["alice", true],
      ["carol", false],
      ["bob", false],
    ]);
    expect(Date.parse(list[1]!.addedAt)).toBeLessThanOrEqual(Date.parse(list[2]!.addedAt));
  });

  it("answers 404 for an unknown hub", async () => {
    expectError(await api.request.get("/hubs/no-such-hub-anywhere/moderators"), 404, "No hub found.");
  });
});

describe("PUT and DELETE /hubs/{id}/moderators/{userId}", () => {
  it("lets the creator add and remove a moderator, idempotently, logging each change once in the same write", async () => {
    const hub = await createHub(api, alice);

    const added = await put(hub.id, bob.id, alice);
    expect(added.status).toBe(200);
    expect(added.body.items.map((m: Moderator) => m.id)).toEqual([alice.id, bob.id]);
    expect((await put(hub.id, bob.id, alice)).body.items.map((m: Moderator) => m.id)).toEqual([alice.id, bob.id]);

    const removed = await del(hub.id, bob.id, alice);
    expect(removed.status).toBe(200);
    expect(removed.body.items.map((m: Moderator) => m.id)).toEqual([alice.id]);
    expect((await del(hub.id, bob.id, alice)).status).toBe(200);

    expect(await logOf(hub.id)).toEqual([
      { action: "moderator-added", moderatorId: alice.id, subjectType: "user", subjectId: bob.id, subjectTitle: "bob", reason: "" },
      { action: "moderator-removed", moderatorId: alice.id, subjectType: "user", subjectId: bob.id, subjectTitle: "bob", reason: "" },
    ]);
  });

  it("lets an admin change the moderators of anyone's hub; the log names the admin", async () => {
    const hub = await createHub(api, alice);
    expect((await put(hub.id, carol.id, root)).status).toBe(200);
    expect((await del(hub.id, carol.id, root)).status).toBe(200);
    expect((await logOf(hub.id)).map((e) => [e.action, e.moderatorId])).toEqual([
      ["moderator-added", root.id],
      ["moderator-removed", root.id],
    ]);
  });

  it("refuses everyone else: an added moderator and a stranger get 403, a guest 401; nothing is written", async () => {
    const hub = await createHub(api, alice);
    await put(hub.id, bob.id, alice);

    expectError(await put(hub.id, carol.id, bob), 403, "Only the hub's creator or an admin can change its moderators");
    expectError(await del(hub.id, bob.id, bob), 403, "Only the hub's creator or an admin can change its moderators");
    expectError(await put(hub.id, carol.id, dave), 403, "Only the hub's creator or an admin can change its moderators");
    expectError(await put(hub.id, carol.id), 401);
    expectError(await del(hub.id, bob.id), 401);
    expect((await moderatorsOf(hub.name)).map((m) => m.id)).toEqual([alice.id, bob.id]);
    expect(await logOf(hub.id)).toHaveLength(1);
  });

  it("answers 404 for an unknown hub or user, 400 for ids that are not ids", async () => {
    const hub = await createHub(api, alice);
    expectError(await put(987654321, bob.id, alice), 404, "No hub found.");
    expectError(await del(987654321, bob.id, root), 404, "No hub found.");
    expectError(await put(hub.id, 987654321, alice), 404, "User not found");
    expectError(await del(hub.id, 987654321, alice), 404, "User not found");
    expectError(await put(hub.id, 0, alice), 400);
    expectError(await api.request.put(`/hubs/abc/moderators/${bob.id}`).set(alice.auth), 400);
  });

  it("keeps the creator: removing them is a 400, adding them changes nothing", async () => {
    const hub = await createHub(api, alice);
    expectError(await del(hub.id, alice.id, alice), 400, "The hub's creator is always its moderator and cannot be removed");
    expectError(await del(hub.id, alice.id, root), 400, "The hub's creator is always its moderator and cannot be removed");
    const res = await put(hub.id, alice.id, alice);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(await logOf(hub.id)).toEqual([]);
  });
});

describe("hub detail: moderators and moderatedByMe", () => {
  it("names the moderators, creator first, and tells each caller whether they moderate; changes show at once", async () => {
    const hub = await createHub(api, alice);
    const detail = async (user?: TestUser) => {
      const req = api.request.get(hubPath(hub.name));
      return (await (user ? req.set(user.auth) : req)).body;
    };
    // A guest's answer is cached: the change below must still show at once.
    expect((await detail()).moderators).toEqual([{ id: alice.id, username: "alice" }]);
    expect((await detail()).moderatedByMe).toBe(false);

    await put(hub.id, bob.id, alice);

    expect((await detail()).moderators).toEqual([
      { id: alice.id, username: "alice" },
      { id: bob.id, username: "bob" },
    ]);
    expect((await api.request.get(`/hubs/id/${hub.id}`)).body.moderators).toHaveLength(2);
    expect((await detail(alice)).moderatedByMe).toBe(true);
    expect((await detail(bob)).moderatedByMe).toBe(true);
    expect((await detail(root)).moderatedByMe).toBe(true);
    expect((await detail(carol)).moderatedByMe).toBe(false);
    expect((await api.request.get(`/hubs/id/${hub.id}`).set(bob.auth)).body.moderatedByMe).toBe(true);

    await del(hub.id, bob.id, alice);
    expect((await detail(bob)).moderatedByMe).toBe(false);
    expect((await detail()).moderators).toEqual([{ id: alice.id, username: "alice" }]);
  });

  it("is in the answers of creating and editing a hub", async () => {
    const res = await api.request
      .post("/hubs")
      .set(carol.auth)
      .send({ name: `Moderated ${process.pid}-${Date.now()}` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ moderators: [{ id: carol.id, username: "carol" }], moderatedByMe: true });
    const edited = await api.request.put(`/hubs/${res.body.id}`).set(carol.auth).send({ name: res.body.name, description: "New" });
    expect(edited.body).toMatchObject({ moderators: [{ id: carol.id, username: "carol" }], moderatedByMe: true });
  });
});

describe("DELETE /comments/{id} by moderators and admins", () => {
  it("lets an added moderator of the post's hub delete comments there, not in other hubs", async () => {
    const { hub, path } = await newPost(api, alice);
    const comment = await addComment(api, carol, path, "Spam");
    const other = await newPost(api, alice);
    const elsewhere = await addComment(api, carol, other.path, "Spam too");

    expectError(await api.request.delete(`/comments/${comment.id}`).set(bob.auth), 403, "You cannot delete this comment");
    await put(hub.id, bob.id, alice);
    expect((await api.request.delete(`/comments/${comment.id}`).set(bob.auth)).status).toBe(200);
    expectError(await api.request.delete(`/comments/${elsewhere.id}`).set(bob.auth), 403, "You cannot delete this comment");
  });

  it("stops a removed moderator at once", async () => {
    const { hub, path } = await newPost(api, alice);
    const comment = await addComment(api, carol, path, "Stays");
    await put(hub.id, bob.id, alice);
    await del(hub.id, bob.id, alice);
    expectError(await api.request.delete(`/comments/${comment.id}`).set(bob.auth), 403, "You cannot delete this comment");
  });

  it("lets an admin delete any comment, on a post or on a chapter", async () => {
    const { path } = await newPost(api, alice);
    const onPost = await addComment(api, carol, path, "Abuse");
    const chapter = await newChapter(api, bob);
    const onChapter = await addComment(api, carol, chapter.path, "Abuse too");

    expect((await api.request.delete(`/comments/${onPost.id}`).set(root.auth)).status).toBe(200);
    expect((await api.request.delete(`/comments/${onChapter.id}`).set(root.auth)).status).toBe(200);
    expect((await api.request.get(`${chapter.path}/comments`)).body.totalElements).toBe(0);
  });

  it("does not let a hub moderator delete comments on chapters", async () => {
    const { hub } = await newPost(api, alice);
    await put(hub.id, bob.id, alice);
    const chapter = await newChapter(api, carol);
    const comment = await addComment(api, dave, chapter.path, "Chapter talk");
    expectError(await api.request.delete(`/comments/${comment.id}`).set(bob.auth), 403, "You cannot delete this comment");
  });
});
