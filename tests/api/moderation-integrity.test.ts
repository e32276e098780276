// Moderation that cannot be gamed, and removed text that does not leak (issue 27 items 5 and 6; docs/api.md "Removal",
// "Reports", "Bans, suspensions and the mod log"): a removal aimed at you is not yours to undo, only admins undo what
// an admin did, an added moderator does not undo the hub creator's removal, reports about a moderator's own content go
// to others; the public mod log, a report's answer and the data export name a removed thing without repeating it.
import fs from "node:fs";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, joinHub } from "../helpers/fixtures.ts";
import { exportedAccount } from "../helpers/zip.ts";

let api: TestApi;
let creator: TestUser, mod: TestUser, mod2: TestUser, member: TestUser, reporter: TestUser, root: TestUser, root2: TestUser;
setUpSharedTestApi(
  ["mi_creator", "mi_mod", "mi_mod2", "mi_member", "mi_reporter", "mi_root", "mi_root2"],
  (started, users) => {
    api = started;
    [creator, mod, mod2, member, reporter, root, root2] = users;
  },
  { adminUsernames: ["mi_root", "mi_root2"] },
);

type Type = "post" | "comment" | "chapter" | "series" | "hub";
const act = (action: "remove" | "restore", type: Type, id: number, user: TestUser, reason = "Off topic") =>
  api.request.post(`/moderation/${action}`).set(user.auth).send({ subject: { type, id }, reason });
const ok = async (res: Promise<{ status: number; body: unknown }> | { status: number; body: unknown }) => {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done;
};

/** A hub of `creator` with `mod` and `mod2` added as moderators, each a member, and a post by `by` in it. */
async function moderatedHub(by: TestUser = member) {
  const hub = await createHub(api, creator);
  for (const m of [mod, mod2]) await ok(api.request.put(`/hubs/${hub.id}/moderators/${m.id}`).set(creator.auth));
  for (const u of [mod, mod2, member]) await joinHub(api, u, hub.id);
  const post = await createPost(api, by, hub.id, { title: `Post by ${by.username}` });
  return { hub, post, path: `${hubPath(hub.name)}/${post.id}` };
}

const report = async (type: "post" | "comment", id: number, by = reporter) => {
  const res = await api.request.post("/reports").set(by.auth).send({ subject: { type, id }, reason: "harassment" });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body as { id: number; subject: { title: string | null } };
};
const queueIds = async (user: TestUser) => {
  const res = await api.request.get("/reports?per_page=100").set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.content as { id: number }[]).map((r) => r.id);
};
const resolve = (reportId: number, user: TestUser, action: "dismiss" | "remove" = "dismiss") =>
  api.request.post(`/reports/${reportId}/resolve`).set(user.auth).send({ action, reason: "Looked at it" });

describe("restoring: a removal aimed at you is not yours to undo", () => {
  it("an added moderator cannot restore their comment that the hub's creator removed; the creator can", async () => {
    const { path } = await moderatedHub();
    const comment = await addComment(api, mod, path, "The moderator's own rude comment");
    await ok(act("remove", "comment", comment.id, creator, "Rude"));

    expectError(await act("restore", "comment", comment.id, mod), 403);
    // A fellow added moderator does not undo the creator either.
    expectError(await act("restore", "comment", comment.id, mod2), 403);
    expect((await ok(act("restore", "comment", comment.id, creator))).body).toMatchObject({ removed: null });
  });

  it("only admins undo what an admin removed: not the moderator whose comment or post it was, not the hub's creator", async () => {
    const { hub, path } = await moderatedHub();
    const comment = await addComment(api, mod, path, "Another comment by the moderator");
    const post = await createPost(api, mod, hub.id, { title: "The moderator's own post" });
    await ok(act("remove", "comment", comment.id, root, "Harassment"));
    await ok(act("remove", "post", post.id, root, "Harassment"));

    for (const [type, id] of [
      ["comment", comment.id],
      ["post", post.id],
    ] as const) {
      expectError(await act("restore", type, id, mod), 403);
      expectError(await act("restore", type, id, mod2), 403);
      expectError(await act("restore", type, id, creator), 403);
      await ok(act("restore", type, id, root2));
    }
  });

  it("the hub's creator cannot restore their own post an added moderator removed; a fellow moderator may", async () => {
    const { post } = await moderatedHub(creator);
    await ok(act("remove", "post", post.id, mod, "Off topic"));
    expectError(await act("restore", "post", post.id, creator), 403);
    await ok(act("restore", "post", post.id, mod2));
  });

  it("an added moderator's removal is undone by the creator or a fellow moderator; the creator's only by the creator or admins", async () => {
    const { post } = await moderatedHub();
    await ok(act("remove", "post", post.id, mod));
    await ok(act("restore", "post", post.id, mod2));
    await ok(act("remove", "post", post.id, mod));
    await ok(act("restore", "post", post.id, creator));
    await ok(act("remove", "post", post.id, creator));
    expectError(await act("restore", "post", post.id, mod), 403);
    await ok(act("restore", "post", post.id, root));
  });

  it("a moderator may restore what they removed of their own, until someone else removes it: then it is theirs no more", async () => {
    const { path } = await moderatedHub();
    const comment = await addComment(api, mod, path, "Posted in the wrong thread");
    await ok(act("remove", "comment", comment.id, mod, "Wrong thread"));
    await ok(act("restore", "comment", comment.id, mod, "Right thread after all"));

    await ok(act("remove", "comment", comment.id, mod, "Wrong thread"));
    // The creator's removal takes over the moderator's own: its reason, its author, its log entry.
    expect((await ok(act("remove", "comment", comment.id, creator, "Harassment"))).body).toMatchObject({
      removed: { reason: "Harassment" },
    });
    expectError(await act("restore", "comment", comment.id, mod), 403);
    const log = await api.db.kysely
      .selectFrom("ModLogEntry")
      .select(["action", "moderatorId"])
      .where("subjectType", "=", "comment")
      .where("subjectId", "=", comment.id)
      .orderBy("id")
      .execute();
    expect(log.map((e) => [e.action, e.moderatorId])).toEqual([
      ["removed", mod.id],
      ["restored", mod.id],
      ["removed", mod.id],
      ["removed", creator.id],
    ]);
  });
});

describe("reports about a moderator's own content go to others", () => {
  it("are left out of the moderator's queue and refused to them (403); the creator and admins see and resolve them", async () => {
    const { hub, path } = await moderatedHub();
    const post = await createPost(api, mod, hub.id, { title: "Reported post of the moderator" });
    const comment = await addComment(api, mod, path, "Reported comment of the moderator");
    const onPost = await report("post", post.id);
    const onComment = await report("comment", comment.id);
    const other = await report("post", (await createPost(api, member, hub.id)).id);

    const seenByMod = await queueIds(mod);
    expect(seenByMod).toContain(other.id);
    expect(seenByMod).not.toContain(onPost.id);
    expect(seenByMod).not.toContain(onComment.id);
    for (const user of [creator, mod2, root]) expect(await queueIds(user)).toEqual(expect.arrayContaining([onPost.id, onComment.id]));

    expectError(await resolve(onPost.id, mod), 403);
    expectError(await resolve(onComment.id, mod, "remove"), 403);
    await ok(resolve(onPost.id, creator));
    await ok(resolve(onComment.id, mod2, "remove"));
  });

  it("a series author's own comment on their chapter goes to admins only", async () => {
    const chapter = await newChapter(api, creator);
    const comment = await addComment(api, creator, chapter.path, "The author's own comment");
    const onComment = await report("comment", comment.id);
    expect(await queueIds(creator)).not.toContain(onComment.id);
    expectError(await resolve(onComment.id, creator), 403);
    expect(await queueIds(root)).toContain(onComment.id);
    await ok(resolve(onComment.id, root));
  });

  it("an admin sees reports about their own content but another admin resolves them", async () => {
    const { hub } = await moderatedHub();
    await joinHub(api, root, hub.id);
    const post = await createPost(api, root, hub.id, { title: "The admin's own post" });
    const onPost = await report("post", post.id);
    expect(await queueIds(root)).toContain(onPost.id);
    expectError(await resolve(onPost.id, root), 403);
    await ok(resolve(onPost.id, root2));
  });
});

describe("removed text does not leak", () => {
  const SECRET_TITLE = "Leaked title of a removed post";
  const SECRET_COMMENT = "Leaked words of a removed comment that nobody should read again";

  it("the public mod log names a removed post or comment by type and id, without its title or words", async () => {
    const { hub, path } = await moderatedHub();
    const post = await createPost(api, member, hub.id, { title: SECRET_TITLE });
    const comment = await addComment(api, member, path, SECRET_COMMENT);
    await ok(act("remove", "post", post.id, mod, "Copyright"));
    await ok(act("remove", "comment", comment.id, mod, "Harassment"));
    const dismissed = await createPost(api, member, hub.id, { title: "Dismissed then removed" });
    await ok(resolve((await report("post", dismissed.id)).id, mod));
    await ok(act("remove", "post", dismissed.id, root, "Sexual content"));

    const res = await api.request.get(`${hubPath(hub.name)}/modlog`);
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const secret of [SECRET_TITLE, SECRET_COMMENT.slice(0, 20), "Dismissed then removed"]) expect(text).not.toContain(secret);
    const subjects = (res.body.content as { action: string; subject: unknown }[]).map((e) => [e.action, e.subject]);
    expect(subjects).toEqual(
      expect.arrayContaining([
        ["removed", { type: "post", id: post.id, title: null }],
        ["removed", { type: "comment", id: comment.id, title: null }],
        ["report-dismissed", { type: "post", id: dismissed.id, title: null }],
      ]),
    );
    // Nothing copied is kept in the table either: the text goes when the thing goes.
    const stored = await api.db.kysely.selectFrom("ModLogEntry").select("subjectTitle").where("hubId", "=", hub.id).execute();
    expect(JSON.stringify(stored)).not.toContain("Leaked");
  });

  it("never shows text an older entry copied; the admins' site log shows what the thing holds now, null once it is deleted", async () => {
    const { hub } = await moderatedHub();
    const post = await createPost(api, member, hub.id, { title: SECRET_TITLE });
    await api.db.kysely
      .insertInto("ModLogEntry")
      .values({
        hubId: hub.id,
        action: "removed",
        moderatorId: mod.id,
        subjectType: "post",
        subjectId: post.id,
        subjectTitle: "An old copy of the title",
        reason: "Old",
        createdAt: Date.now(),
      })
      .execute();
    api.dataChanged();
    expect(JSON.stringify((await api.request.get(`${hubPath(hub.name)}/modlog`)).body)).not.toContain("An old copy");

    const siteEntry = async () =>
      (
        (await api.request.get("/modlog?per_page=100").set(root.auth)).body.content as { subject: { id: number; title: string | null } }[]
      ).find((e) => e.subject.id === post.id);
    expect((await siteEntry())?.subject).toEqual({ type: "post", id: post.id, title: SECRET_TITLE });
    await ok(api.request.delete(`/hub-posts/${post.id}`).set(member.auth));
    expect((await siteEntry())?.subject).toEqual({ type: "post", id: post.id, title: null });
  });

  it("the migration blanks the text older entries copied, and keeps the names", async () => {
    const { hub } = await moderatedHub();
    const row = (subjectType: "comment" | "user", subjectTitle: string) => ({
      hubId: hub.id,
      action: "removed" as const,
      moderatorId: mod.id,
      subjectType,
      subjectId: 1,
      subjectTitle,
      reason: "Old",
      createdAt: Date.now(),
    });
    await api.db.kysely
      .insertInto("ModLogEntry")
      .values([row("comment", SECRET_COMMENT), row("user", "mi_member")])
      .execute();
    const migration = new URL("../../prisma/migrations/20261128175000_modlog_no_copies/migration.sql", import.meta.url);
    await sql.raw(fs.readFileSync(migration, "utf8")).execute(api.db.kysely);
    const stored = await api.db.kysely
      .selectFrom("ModLogEntry")
      .select(["subjectType", "subjectTitle"])
      .where("hubId", "=", hub.id)
      .execute();
    expect(stored).toEqual(
      expect.arrayContaining([
        { subjectType: "comment", subjectTitle: "" },
        { subjectType: "user", subjectTitle: "mi_member" },
      ]),
    );
  });

  it("reporting a removed post or comment answers without its title or words", async () => {
    const { hub, path } = await moderatedHub();
    const post = await createPost(api, member, hub.id, { title: SECRET_TITLE });
    const comment = await addComment(api, member, path, SECRET_COMMENT);
    await ok(act("remove", "post", post.id, mod, "Copyright"));
    await ok(act("remove", "comment", comment.id, mod, "Harassment"));

    for (const [type, id] of [
      ["post", post.id],
      ["comment", comment.id],
    ] as const) {
      const answer = await report(type, id);
      expect(answer.subject).toMatchObject({ type, id, title: null, removed: true });
      expect(JSON.stringify(answer)).not.toContain("Leaked");
    }
    // Its moderators still read it in their queue.
    const queue = (await api.request.get("/reports?per_page=100").set(mod.auth)).body.content as {
      subject: { id: number; title: string };
    }[];
    expect(queue.find((r) => r.subject.id === post.id)?.subject.title).toBe(SECRET_TITLE);
  });

  it("a user's export does not hold the title of a removed post they liked", async () => {
    const { hub } = await moderatedHub();
    const post = await createPost(api, member, hub.id, { title: SECRET_TITLE });
    await ok(api.request.post(`${hubPath(hub.name)}/${post.id}/like`).set(reporter.auth));
    await ok(act("remove", "post", post.id, mod, "Copyright"));

    const account = await exportedAccount(api, reporter.id, reporter.auth);
    const liked = (account.likes as { posts: { postId: number; title: string | null }[] }).posts.find((l) => l.postId === post.id);
    expect(liked).toMatchObject({ postId: post.id, title: null });
    expect(JSON.stringify(account)).not.toContain("Leaked");
  });
});
