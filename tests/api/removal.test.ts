// Removal and restore by moderators (docs/api.md "Removal", docs/decisions/018-governance.md): who may
// remove and restore each kind of thing, idempotence, the mod log, and what a guest, a stranger, the author and a
// moderator see of a removed thing in its detail and in every list that holds it (its place and the counts unchanged).
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createPost, hubPath, ids, joinHub } from "../helpers/fixtures.ts";

let api: TestApi, author: TestUser, mod: TestUser, stranger: TestUser, creator: TestUser, admin: TestUser;
setUpSharedTestApi(
  ["author", "mod", "stranger", "creator", "root"],
  (started, users) => {
    api = started;
    [author, mod, stranger, creator, admin] = users;
  },
  { adminUsernames: ["root"] },
);

type Type = "post" | "comment" | "chapter" | "series" | "hub";
const act = (action: "remove" | "restore", type: Type, id: number, user?: TestUser, reason: unknown = "Off topic") => {
  const req = api.request.post(`/moderation/${action}`);
  return (user ? req.set(user.auth) : req).send({ subject: { type, id }, reason });
};
const get = (path: string, user?: TestUser) => {
  const req = api.request.get(path);
  return user ? req.set(user.auth) : req;
};

async function logOf(type: Type, id: number) {
  return api.db.kysely
    .selectFrom("ModLogEntry")
    .select(["hubId", "action", "moderatorId", "subjectTitle", "reason"])
    .where("subjectType", "=", type)
    .where("subjectId", "=", id)
    .orderBy("id")
    .execute();
}

/** A hub of `creator` with `mod` added as a moderator and a post by `author` (a member). */
async function moderatedPost() {
  const made = await newPost(api, creator, author);
  expect((await api.request.put(`/hubs/${made.hub.id}/moderators/${mod.id}`).set(creator.auth)).status).toBe(200);
  return made;
}

describe("POST /moderation/remove and /restore on a post", () => {
  it("removes with the reason, keeps the post in its place for everyone, and shows its content only to the author and moderators", async () => {
    const { hub, post, path } = await moderatedPost();
    await joinHub(api, stranger, hub.id);
    const newer = await createPost(api, stranger, hub.id, { title: "Newer post" });

    const res = await act("remove", "post", post.id, mod, "  Spam, twice  ");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ subject: { type: "post", id: post.id }, removed: { reason: "Spam, twice" } });

    for (const viewer of [undefined, stranger]) {
      const seen = (await get(path, viewer)).body;
      expect(seen).toMatchObject({ id: post.id, title: "", description: "", content: "", removed: { reason: "Spam, twice" } });
      const latest = (await get(`${hubPath(hub.name)}/posts/latest`, viewer)).body;
      expect(ids(latest)).toEqual([newer.id, post.id]);
      expect(latest.totalElements).toBe(2);
      expect(latest.content[1]).toMatchObject({ title: "", description: "", removed: { reason: "Spam, twice" } });
      expect(latest.content[0]).toMatchObject({ title: "Newer post", removed: null });
      const byLikes = (await get(`${hubPath(hub.name)}/posts/by-likes`, viewer)).body;
      expect(byLikes.content.find((p: { id: number }) => p.id === post.id)).toMatchObject({
        title: "",
        removed: { reason: "Spam, twice" },
      });
      expect((await get(`/hub-posts/${post.id}`, viewer)).body).toMatchObject({ title: "", content: "" });
    }
    for (const viewer of [author, mod, creator, admin]) {
      expect((await get(path, viewer)).body).toMatchObject({
        title: post.title,
        content: expect.any(String),
        removed: { reason: "Spam, twice" },
      });
      const latest = (await get(`${hubPath(hub.name)}/posts/latest`, viewer)).body;
      expect(latest.content[1]).toMatchObject({ id: post.id, title: post.title, removed: { reason: "Spam, twice" } });
    }
    expect((await get(hubPath(hub.name))).body.postCount).toBe(2);
    expect(await logOf("post", post.id)).toEqual([
      // The post's text is not copied into the log (docs/api.md "Bans, suspensions and the mod log").
      { hubId: hub.id, action: "removed", moderatorId: mod.id, subjectTitle: "", reason: "Spam, twice" },
    ]);
  });

  it("is idempotent: removing again and restoring what is not removed change nothing and log nothing", async () => {
    const { post } = await moderatedPost();
    expect((await act("restore", "post", post.id, mod)).body).toEqual({ subject: { type: "post", id: post.id }, removed: null });
    expect((await act("remove", "post", post.id, mod, "First")).status).toBe(200);
    const again = await act("remove", "post", post.id, admin, "Second");
    expect(again.status).toBe(200);
    expect(again.body.removed).toEqual({ reason: "First" });
    expect((await act("restore", "post", post.id, mod, "Was fine")).body.removed).toBeNull();
    expect((await act("restore", "post", post.id, mod, "Again")).body.removed).toBeNull();
    expect((await get(`/hub-posts/${post.id}`)).body).toMatchObject({ title: post.title, removed: null });
    expect((await logOf("post", post.id)).map((e) => [e.action, e.reason])).toEqual([
      ["removed", "First"],
      ["restored", "Was fine"],
    ]);
  });

  it("lets the author remove their own post and restore their own removal, but not undo a moderator's", async () => {
    const { post } = await moderatedPost();
    expectError(await act("remove", "post", post.id, stranger), 403);
    expectError(await act("remove", "post", post.id), 401);
    expect((await act("remove", "post", post.id, author, "Posted by mistake")).status).toBe(200);
    expect((await act("restore", "post", post.id, author, "Back")).status).toBe(200);
    expect((await act("remove", "post", post.id, mod, "Rude")).status).toBe(200);
    expectError(await act("restore", "post", post.id, author, "Please"), 403);
    expectError(await act("restore", "post", post.id, stranger), 403);
    expect((await act("restore", "post", post.id, creator, "Appeal granted")).status).toBe(200);
  });

  it("takes no likes and no comments while removed; unliking still works", async () => {
    const { path, post } = await moderatedPost();
    expect((await api.request.post(`${path}/like`).set(stranger.auth)).status).toBe(200);
    await act("remove", "post", post.id, mod);
    expectError(await api.request.post(`${path}/like`).set(author.auth), 403, "This post was removed by moderators");
    expectError(
      await api.request.post(`${path}/comments`).set(stranger.auth).send({ content: "Hi" }),
      403,
      "This post was removed by moderators",
    );
    expect((await api.request.delete(`${path}/like`).set(stranger.auth)).body).toEqual({ liked: false, likes: 0 });
  });
});

describe("the following feed", () => {
  it("answers a removed post in its place, without its content for a member, with it for the hub's moderators", async () => {
    const { hub, post } = await moderatedPost();
    await joinHub(api, stranger, hub.id);
    await act("remove", "post", post.id, mod, "Gone");
    const itemFor = async (user: TestUser) =>
      ((await get("/me/feed?per_page=100", user)).body.content as { post?: { id: number } }[]).find((i) => i.post?.id === post.id);
    expect((await itemFor(stranger))?.post).toMatchObject({ title: "", description: "", removed: { reason: "Gone" } });
    expect((await itemFor(creator))?.post).toMatchObject({ title: post.title, removed: { reason: "Gone" } });
  });
});

describe("notifications", () => {
  it("leave a removed post's title out, but for its author", async () => {
    const { post, path } = await moderatedPost();
    await addComment(api, stranger, path, `Hello @${mod.username}`);
    await act("remove", "post", post.id, mod, "Gone");
    const titleFor = async (user: TestUser) =>
      ((await get("/me/notifications", user)).body.content as { subject: { title: string }; kind: string }[]).find(
        (n) => n.kind === "comment" || n.kind === "mention",
      )?.subject.title;
    expect(await titleFor(author)).toBe(post.title);
    expect(await titleFor(mod)).toBe("");
  });
});

describe("comments", () => {
  it("are removed by the hub's moderators, not by their author; others see an empty content in lists and replies", async () => {
    const { hub, path } = await moderatedPost();
    const long = `${"x".repeat(79)}é and more beyond eighty characters`;
    const top = await addComment(api, stranger, path, long);
    const reply = await addComment(api, author, path, "A reply", top.id);

    expectError(await act("remove", "comment", top.id, stranger), 403);
    expectError(await act("remove", "comment", reply.id, stranger), 403);
    expect((await act("remove", "comment", top.id, mod, "Harassment")).status).toBe(200);
    expect((await act("remove", "comment", reply.id, creator, "Spam")).status).toBe(200);

    const forGuest = (await get(`${path}/comments`)).body;
    expect(forGuest.totalElements).toBe(1);
    expect(forGuest.content[0]).toMatchObject({ id: top.id, content: "", removed: { reason: "Harassment" }, replyCount: 1 });
    expect((await get(`/comments/${top.id}/replies`)).body.content[0]).toMatchObject({
      id: reply.id,
      content: "",
      removed: { reason: "Spam" },
    });
    // Its author and the moderators see it.
    expect((await get(`${path}/comments`, stranger)).body.content[0]).toMatchObject({ content: long, removed: { reason: "Harassment" } });
    expect((await get(`${path}/comments`, mod)).body.content[0]).toMatchObject({ content: long });
    expect((await get(`/comments/${top.id}/replies`, author)).body.content[0]).toMatchObject({ content: "A reply" });
    expect((await get(`/comments/${top.id}/replies`, stranger)).body.content[0]).toMatchObject({ content: "" });
    expect((await get(`/hub-posts/${(await get(path)).body.id}`)).body.commentCount).toBe(2);

    expectError(await api.request.post(`/comments/${top.id}/like`).set(author.auth), 403, "This comment was removed by moderators");
    expect(await logOf("comment", top.id)).toEqual([
      { hubId: hub.id, action: "removed", moderatorId: mod.id, subjectTitle: "", reason: "Harassment" },
    ]);
    expect((await act("restore", "comment", top.id, stranger)).status).toBe(403);
    expect((await act("restore", "comment", top.id, mod, "Ok")).body.removed).toBeNull();
  });

  it("on a chapter are removed by the series' author and admins", async () => {
    const chapter = await newChapter(api, creator);
    const comment = await addComment(api, stranger, chapter.path, "Chapter comment");
    expectError(await act("remove", "comment", comment.id, mod), 403);
    expect((await act("remove", "comment", comment.id, creator, "Spoilers")).status).toBe(200);
    expect((await get(`${chapter.path}/comments`)).body.content[0]).toMatchObject({ content: "", removed: { reason: "Spoilers" } });
    expect((await get(`${chapter.path}/comments`, creator)).body.content[0]).toMatchObject({ content: "Chapter comment" });
    expect((await act("restore", "comment", comment.id, admin, "Fine")).status).toBe(200);
    expect((await logOf("comment", comment.id)).map((e) => [e.hubId, e.action])).toEqual([
      [null, "removed"],
      [null, "restored"],
    ]);
  });
});

describe("chapters, series and hubs", () => {
  it("a chapter: its series' author or an admin; others see no title, cover, content or pages", async () => {
    const chapter = await newChapter(api, author);
    const seriesName = (await get(chapter.seriesPath)).body.name as string;
    expectError(await act("remove", "chapter", chapter.id, stranger), 403);
    expect((await act("remove", "chapter", chapter.id, admin, "Copyright")).status).toBe(200);

    expect((await get(chapter.path)).body).toMatchObject({
      title: "",
      content: "",
      pages: [],
      coverId: null,
      removed: { reason: "Copyright" },
    });
    const list = (await get(`${chapter.seriesPath}/chapters`)).body;
    expect(list.totalElements).toBe(1);
    expect(list.content[0]).toMatchObject({ id: chapter.id, title: "", removed: { reason: "Copyright" } });
    expect((await get(chapter.path, author)).body).toMatchObject({ title: "One", pages: [expect.anything()] });
    expect((await get(chapter.seriesPath)).body.chapterCount).toBe(1);

    expectError(await api.request.post(`${chapter.path}/like`).set(stranger.auth), 403, "This chapter was removed by moderators");
    expectError(await api.request.post(`${chapter.path}/comments`).set(stranger.auth).send({ content: "Hi" }), 403);
    // The author cannot undo an admin's removal.
    expectError(await act("restore", "chapter", chapter.id, author), 403);
    expect((await logOf("chapter", chapter.id))[0]).toMatchObject({
      hubId: null,
      subjectTitle: "",
      reason: "Copyright",
    });
    // Admins read it in the site log by its title as it is now (not a copy).
    const site = (await get("/modlog?per_page=100", admin)).body.content as {
      subject: { type: string; id: number; title: string | null };
    }[];
    expect(site.find((e) => e.subject.type === "chapter" && e.subject.id === chapter.id)?.subject.title).toBe(
      `${seriesName} — Chapter 1: One`,
    );
  });

  it("a series: its author or an admin; the name stays (its address), the description and images go for others", async () => {
    const chapter = await newChapter(api, author);
    const series = (await get(chapter.seriesPath)).body;
    await api.request.put(`/series/${series.id}`).set(author.auth).send({ name: series.name, description: "Secret plot" });
    expectError(await act("remove", "series", series.id, mod), 403);
    expect((await act("remove", "series", series.id, admin, "Stolen art")).status).toBe(200);
    expect((await get(chapter.seriesPath)).body).toMatchObject({ name: series.name, description: "", removed: { reason: "Stolen art" } });
    expect((await get(`/series/id/${series.id}`, author)).body).toMatchObject({ description: "Secret plot" });
    const newest = (await get("/series?per_page=1000")).body.content.find((s: { id: number }) => s.id === series.id);
    expect(newest).toMatchObject({ name: series.name, description: "", removed: { reason: "Stolen art" } });
    expect((await get(`/user/${author.id}/created-series`)).body.find((s: { id: number }) => s.id === series.id)).toMatchObject({
      description: "",
    });
    expect((await logOf("series", series.id))[0]).toMatchObject({ subjectTitle: series.name, hubId: null });
  });

  it("a hub: its creator or an admin, not its added moderators", async () => {
    const { hub } = await moderatedPost();
    expectError(await act("remove", "hub", hub.id, mod), 403);
    expect((await act("remove", "hub", hub.id, creator, "Closing it")).status).toBe(200);
    expect((await get(hubPath(hub.name))).body).toMatchObject({ name: hub.name, description: "", removed: { reason: "Closing it" } });
    expect((await get(hubPath(hub.name), creator)).body).toMatchObject({ description: "About it" });
    const newest = (await get("/hubs?per_page=1000")).body.content.find((h: { id: number }) => h.id === hub.id);
    expect(newest).toMatchObject({ description: "", removed: { reason: "Closing it" } });
    expect((await logOf("hub", hub.id))[0]).toMatchObject({ hubId: hub.id, subjectTitle: hub.name, moderatorId: creator.id });
  });
});

describe("validation", () => {
  it("requires a reason of 1 to 500 characters after trimming, and a known subject type and id", async () => {
    const { post } = await moderatedPost();
    const noReason = await api.request
      .post("/moderation/remove")
      .set(mod.auth)
      .send({ subject: { type: "post", id: post.id } });
    expectFieldError(noReason, "reason", "A reason is required");
    expectFieldError(await act("remove", "post", post.id, mod, "   "), "reason", "A reason is required");
    expectFieldError(await act("remove", "post", post.id, mod, "x".repeat(501)), "reason", "Reason must be at most 500 characters");
    expect((await act("remove", "post", post.id, mod, "x".repeat(500))).status).toBe(200);
    expectFieldError(await act("remove", "user" as Type, post.id, mod), "subject.type");
    expectFieldError(await act("remove", "post", 0, mod), "subject.id");
    expectFieldError(await api.request.post("/moderation/remove").set(mod.auth).send({ reason: "x" }), "subject");
  });

  it("answers 404 for a missing subject of each type", async () => {
    for (const type of ["post", "comment", "chapter", "series", "hub"] as const) {
      expectError(await act("remove", type, 2_000_000_000, admin), 404);
      expectError(await act("restore", type, 2_000_000_000, admin), 404);
    }
  });
});
