// The mod logs (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md): a hub's, public; the site's, admins only; newest
// first (ties by id), paged, each entry with its moderator, subject (a name copied; a post's, comment's or chapter's
// text never) and reason.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, hubPath, joinHub } from "../helpers/fixtures.ts";

let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser, root: TestUser;
setUpSharedTestApi(
  ["alice", "bob", "carol"],
  async (started, users) => {
    api = started;
    [alice, bob, carol] = users;
    root = await api.register("Site_Root");
  },
  { adminUsernames: ["site_root"] },
);

interface Item {
  id: number;
  action: string;
  moderator: { id: number; username: string } | null;
  subject: { type: string; id: number; title: string | null };
  reason: string;
  createdAt: string;
  hub?: { id: number; name: string | null } | null;
}

const hubLog = async (name: string, query = "") => {
  const res = await api.request.get(`${hubPath(name)}/modlog${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { content: Item[]; totalElements: number; totalPages: number };
};

describe("GET /hubs/{name}/modlog", () => {
  it("is public: the hub's moderator changes and bans, newest first, with who, whom and why", async () => {
    const hub = await createHub(api, alice);
    await joinHub(api, bob, hub.id);
    await api.request.put(`/hubs/${hub.id}/moderators/${carol.id}`).set(alice.auth);
    await api.request.put(`/hubs/${hub.id}/bans/${bob.id}`).set(carol.auth).send({ reason: "Spam links" });
    await api.request.delete(`/hubs/${hub.id}/bans/${bob.id}`).set(root.auth).send({ reason: "Appeal" });

    const log = await hubLog(hub.name);
    expect(log.totalElements).toBe(3);
    expect(log.content.map(({ action, moderator, subject, reason }) => ({ action, moderator, subject, reason }))).toEqual([
      {
        action: "unbanned",
        moderator: { id: root.id, username: "Site_Root" },
        subject: { type: "user", id: bob.id, title: "bob" },
        reason: "Appeal",
      },
      {
        action: "banned",
        moderator: { id: carol.id, username: "carol" },
        subject: { type: "user", id: bob.id, title: "bob" },
        reason: "Spam links",
      },
      {
        action: "moderator-added",
        moderator: { id: alice.id, username: "alice" },
        subject: { type: "user", id: carol.id, title: "carol" },
        reason: "",
      },
    ]);
    expect(log.content[0]).not.toHaveProperty("hub");
  });

  it("is paged, ties on the date broken by id (newest first), and shows only this hub's entries", async () => {
    const hub = await createHub(api, alice);
    const other = await createHub(api, alice);
    const at = Date.now();
    const entry = (hubId: number, title: string) => ({
      hubId,
      action: "banned" as const,
      moderatorId: alice.id,
      subjectType: "user" as const,
      subjectId: 1,
      subjectTitle: title,
      reason: "",
      createdAt: at,
    });
    await api.db.kysely
      .insertInto("ModLogEntry")
      .values([entry(hub.id, "first"), entry(other.id, "elsewhere"), entry(hub.id, "second"), entry(hub.id, "third")])
      .execute();
    api.dataChanged();

    const page1 = await hubLog(hub.name, "?per_page=2");
    expect(page1).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(page1.content.map((e) => e.subject.title)).toEqual(["third", "second"]);
    expect((await hubLog(hub.name, "?per_page=2&page=2")).content.map((e) => e.subject.title)).toEqual(["first"]);
    expect((await hubLog(hub.name, "?page=9")).content).toEqual([]);
  });

  it("answers 404 for an unknown hub and 400 for bad paging", async () => {
    expectError(await api.request.get("/hubs/no-such-hub-at-all/modlog"), 404);
    const hub = await createHub(api, alice);
    expectError(await api.request.get(`${hubPath(hub.name)}/modlog?per_page=0`), 400);
  });

  it("keeps the moderator's entries readable once their account is gone (moderator null)", async () => {
    const hub = await createHub(api, alice);
    const ghost = await api.register();
    await api.db.kysely
      .insertInto("ModLogEntry")
      .values({
        hubId: hub.id,
        action: "banned",
        moderatorId: ghost.id,
        subjectType: "user",
        subjectId: 5,
        subjectTitle: "Gone",
        reason: "r",
        createdAt: Date.now(),
      })
      .execute();
    await api.db.kysely.updateTable("ModLogEntry").set({ moderatorId: null }).where("moderatorId", "=", ghost.id).execute();
    api.dataChanged();
    expect((await hubLog(hub.name)).content[0]).toMatchObject({ moderator: null, subject: { title: "Gone" } });
  });
});

describe("GET /modlog", () => {
  it("is for admins: 401 without a token, 403 for anyone else", async () => {
    expectError(await api.request.get("/modlog"), 401);
    expectError(await api.request.get("/modlog").set(alice.auth), 403, "Only admins can read the site's mod log");
  });

  it("shows every entry, hub ones with their hub and site ones (suspensions) without, newest first", async () => {
    const hub = await createHub(api, alice);
    const target = await api.register();
    await api.request.put(`/hubs/${hub.id}/bans/${bob.id}`).set(alice.auth).send({ reason: "Spam" });
    await api.request.put(`/admin/users/${target.id}/ban`).set(root.auth).send({ reason: "Abuse", days: 3 });

    const res = await api.request.get("/modlog?per_page=2").set(root.auth);
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBeGreaterThanOrEqual(2);
    const [suspension, hubBan] = res.body.content as Item[];
    expect(suspension).toMatchObject({ action: "suspended", hub: null, subject: { type: "user", id: target.id }, reason: "Abuse" });
    expect(hubBan).toMatchObject({ action: "banned", hub: { id: hub.id, name: hub.name }, moderator: { username: "alice" } });
    expect(Date.parse(suspension!.createdAt)).toBeGreaterThanOrEqual(Date.parse(hubBan!.createdAt));
  });

  it("keeps a deleted hub's entries, its name then null", async () => {
    const hub = await createHub(api, alice);
    await api.request.put(`/hubs/${hub.id}/bans/${carol.id}`).set(alice.auth).send({ reason: "Rude" });
    expect((await api.request.delete(`/hubs/${hub.id}`).set(alice.auth)).status).toBe(200);
    const res = await api.request.get("/modlog?per_page=1000").set(root.auth);
    const entry = (res.body.content as Item[]).find((e) => e.hub?.id === hub.id);
    expect(entry).toMatchObject({ action: "banned", hub: { id: hub.id, name: null }, subject: { title: "carol" } });
  });
});
