// Removing a hub or a series reaches what is inside it (docs/api.md "Removal", issue 27 item 3): writes into it are
// refused with 403 and nothing changed (leaving and unfollowing stay allowed), and its posts, chapters and their
// comments are answered without content to everyone but their authors and those who may see removed content, in every
// list, detail and card.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createPost, hubPath, joinHub, VALID_POST } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi, author: TestUser, creator: TestUser, member: TestUser, stranger: TestUser, admin: TestUser;
setUpSharedTestApi(
  ["author", "creator", "member", "stranger", "root"],
  (started, users) => {
    api = started;
    [author, creator, member, stranger, admin] = users;
  },
  { adminUsernames: ["root"] },
);

const get = (path: string, user?: TestUser) => {
  const req = api.request.get(path);
  return user ? req.set(user.auth) : req;
};
const remove = async (type: "hub" | "series" | "chapter", id: number, reason: string) => {
  const res = await api.request.post("/moderation/remove").set(admin.auth).send({ subject: { type, id }, reason });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const byId = (items: { id: number }[], id: number): Record<string, unknown> | undefined => items.find((item) => item.id === id);

describe("a removed hub", () => {
  /** A hub of `creator`; `author` posted in it, `member` joined it and commented, then an admin removed it. */
  async function removedHub() {
    const { hub, post, path } = await newPost(api, creator, author);
    await joinHub(api, member, hub.id);
    const comment = await addComment(api, member, path, "A comment on it");
    const reply = await addComment(api, author, path, "A reply", comment.id);
    await remove("hub", hub.id, "Hate group");
    return { hub, post, path, comment, reply };
  }

  it("refuses joining, posting, commenting and liking with 403 and changes nothing; leaving still works", async () => {
    const { hub, path, comment } = await removedHub();
    const before = (await get(hubPath(hub.name), admin)).body as { memberCount: number; postCount: number };
    const refused = "This hub was removed by moderators";

    expectError(await api.request.post(`/user/${stranger.id}/member-hubs/${hub.id}`).set(stranger.auth), 403, refused);
    for (const user of [member, creator]) {
      const post = await api.request
        .post("/hub-posts")
        .set(user.auth)
        .send({ ...VALID_POST, hubId: hub.id });
      expectError(post, 403, refused);
    }
    expectError(await api.request.post(`${path}/comments`).set(member.auth).send({ content: "More" }), 403, refused);
    expectError(await api.request.post(`${path}/comments`).set(member.auth).send({ content: "More", parentId: comment.id }), 403, refused);
    expectError(await api.request.post(`${path}/like`).set(member.auth), 403, refused);
    expectError(await api.request.post(`/comments/${comment.id}/like`).set(author.auth), 403, refused);

    const after = (await get(hubPath(hub.name), admin)).body as { memberCount: number; postCount: number };
    expect(after).toMatchObject({ memberCount: before.memberCount, postCount: before.postCount });
    expect((await get(`${path}/comments`, admin)).body.totalElements).toBe(1);
    expect((await api.request.delete(`/user/${member.id}/member-hubs/${hub.id}`).set(member.auth)).body).toMatchObject({
      member: false,
    });
  });

  it("answers its posts and their comments without content to guests and members, in every list and detail", async () => {
    const { hub, post, path, comment, reply } = await removedHub();
    const removed = { reason: "Hate group", container: "hub" };
    for (const viewer of [undefined, member, stranger]) {
      const blank = { id: post.id, title: "", description: "", removed };
      expect((await get(path, viewer)).body).toMatchObject({ ...blank, content: "" });
      expect((await get(`/hub-posts/${post.id}`, viewer)).body).toMatchObject({ ...blank, content: "" });
      for (const order of ["latest", "by-likes"]) {
        const list = (await get(`${hubPath(hub.name)}/posts/${order}`, viewer)).body;
        expect(list.totalElements).toBe(1);
        expect(byId(list.content, post.id)).toMatchObject(blank);
      }
      // The comment's author (member) still sees their own comment; nobody else without a right to.
      const comments = (await get(`${path}/comments`, viewer)).body.content;
      expect(byId(comments, comment.id)).toMatchObject({
        content: viewer === member ? "A comment on it" : "",
        removed: { reason: "Hate group", container: "hub" },
      });
      expect(byId((await get(`/comments/${comment.id}/replies`, viewer)).body.content, reply.id)).toMatchObject({
        content: "",
        removed: { reason: "Hate group", container: "hub" },
      });
      // The hub's card names its latest post without a title.
      const card = byId((await get("/hubs?per_page=1000", viewer)).body.content, hub.id);
      expect(card).toMatchObject({ description: "", latestPost: { id: post.id, title: "" } });
    }
    // The following feed of a member.
    const fed = ((await get("/me/feed?per_page=100", member)).body.content as { post?: { id: number } }[]).find(
      (i) => i.post?.id === post.id,
    );
    expect(fed?.post).toMatchObject({ title: "", description: "", removed });
    // The member's notification of the reply names the post without its title.
    const told = ((await get("/me/notifications", member)).body.content as { kind: string; subject: { title: string } }[]).find(
      (n) => n.kind === "reply",
    );
    expect(told?.subject.title).toBe("");
  });

  it("still shows the content to the post's author, the hub's creator and admins", async () => {
    const { hub, post, path, comment } = await removedHub();
    for (const viewer of [author, creator, admin]) {
      expect((await get(path, viewer)).body).toMatchObject({ title: post.title, content: expect.stringMatching(/.+/) });
      expect(byId((await get(`${hubPath(hub.name)}/posts/latest`, viewer)).body.content, post.id)).toMatchObject({ title: post.title });
    }
    for (const viewer of [creator, admin])
      expect(byId((await get(`${path}/comments`, viewer)).body.content, comment.id)).toMatchObject({ content: "A comment on it" });
  });

  it("is answered whole again once restored", async () => {
    const { hub, post, path } = await removedHub();
    const res = await api.request
      .post("/moderation/restore")
      .set(admin.auth)
      .send({ subject: { type: "hub", id: hub.id }, reason: "Appeal" });
    expect(res.status).toBe(200);
    expect((await get(path)).body).toMatchObject({ title: post.title, removed: null });
    await joinHub(api, stranger, hub.id);
    await createPost(api, stranger, hub.id);
  });
});

describe("a removed series", () => {
  /** A series of `author` with two chapters, followed by `member`, who commented on the first; then removed. */
  async function removedSeries() {
    const first = await newChapter(api, author);
    const series = (await get(first.seriesPath)).body as { id: number; name: string };
    const cover = await uploadPng(api, author);
    const second = await api.request
      .post(`${first.seriesPath}/chapters`)
      .set(author.auth)
      .send({ title: "Two", pages: [cover] });
    expect(second.status).toBe(201);
    expect((await api.request.post(`/user/${member.id}/followed-series/${series.id}`).set(member.auth)).status).toBe(200);
    const comment = await addComment(api, member, first.path, "Great chapter");
    await remove("series", series.id, "Stolen art");
    return { series, first, second: { id: second.body.id as number, path: `${first.seriesPath}/2`, cover }, comment };
  }

  it("answers its chapters without title, cover, content or pages to guests and readers, in lists and details", async () => {
    const { series, first, second, comment } = await removedSeries();
    const removed = { reason: "Stolen art", container: "series" };
    for (const viewer of [undefined, member, stranger]) {
      expect((await get(first.path, viewer)).body).toMatchObject({
        id: first.id,
        title: "",
        description: "",
        content: "",
        coverId: null,
        pages: [],
        pageCount: 1,
        removed,
      });
      for (const list of ["chapters", "chapters/latest", "chapters/most-liked"]) {
        const page = (await get(`${first.seriesPath}/${list}`, viewer)).body;
        expect(page.totalElements).toBe(2);
        for (const id of [first.id, second.id]) expect(byId(page.content, id)).toMatchObject({ title: "", coverId: null, removed });
      }
      const comments = (await get(`${first.path}/comments`, viewer)).body.content;
      expect(byId(comments, comment.id)).toMatchObject({ content: viewer === member ? "Great chapter" : "", removed });
      // Its card names its latest chapter without title or cover.
      const card = byId((await get("/series?per_page=1000", viewer)).body.content, series.id);
      expect(card).toMatchObject({ description: "", latestChapter: { number: 2, title: "", coverId: null } });
    }
    // The follower's feed.
    const fed = ((await get("/me/feed?per_page=100", member)).body.content as { chapter?: { id: number } }[]).find(
      (i) => i.chapter?.id === second.id,
    );
    expect(fed?.chapter).toMatchObject({ title: "", coverId: null, removed });
  });

  it("still shows its chapters to its author and admins", async () => {
    const { first, second } = await removedSeries();
    for (const viewer of [author, admin]) {
      expect((await get(first.path, viewer)).body).toMatchObject({ title: "One", pages: [expect.anything()] });
      expect(byId((await get(`${first.seriesPath}/chapters`, viewer)).body.content, second.id)).toMatchObject({
        title: "Two",
        coverId: second.cover,
      });
    }
  });

  it("refuses following, liking and commenting with 403, and new chapters; unfollowing and editing still work", async () => {
    const { series, first, comment } = await removedSeries();
    const refused = "This series was removed by moderators";
    expectError(await api.request.post(`/user/${stranger.id}/followed-series/${series.id}`).set(stranger.auth), 403, refused);
    expectError(await api.request.post(`${first.path}/like`).set(stranger.auth), 403, refused);
    expectError(await api.request.post(`${first.path}/comments`).set(stranger.auth).send({ content: "Hi" }), 403, refused);
    expectError(await api.request.post(`/comments/${comment.id}/like`).set(author.auth), 403, refused);
    const page = await uploadPng(api, author);
    expectError(
      await api.request
        .post(`${first.seriesPath}/chapters`)
        .set(author.auth)
        .send({ title: "Three", pages: [page] }),
      403,
      refused,
    );

    const detail = (await get(first.seriesPath, admin)).body;
    expect(detail).toMatchObject({ followersCount: 1, chapterCount: 2 });
    expect((await get(`${first.path}/comments`, admin)).body.totalElements).toBe(1);
    expect((await api.request.delete(`/user/${member.id}/followed-series/${series.id}`).set(member.auth)).body).toMatchObject({
      following: false,
    });
    const edit = await api.request.put(first.path).set(author.auth).send({ title: "One, fixed" });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  });
});

describe("a series card", () => {
  it("does not show the cover of its latest chapter when that chapter is removed", async () => {
    const first = await newChapter(api, author);
    const series = (await get(first.seriesPath)).body as { id: number };
    const firstCover = (await get(first.path)).body.coverId as number;
    const cover = await uploadPng(api, author);
    const second = await api.request
      .post(`${first.seriesPath}/chapters`)
      .set(author.auth)
      .send({ title: "Two", pages: [cover] });
    expect(second.status).toBe(201);
    await remove("chapter", second.body.id as number, "Copyright");

    for (const path of ["/series?per_page=1000", "/series/top?per_page=1000"]) {
      const card = byId((await get(path)).body.content, series.id);
      expect(card?.latestChapter).toMatchObject({ number: 2, title: "", coverId: firstCover });
    }
    expect((await get(first.seriesPath)).body.latestChapter).toMatchObject({ number: 2, title: "", coverId: firstCover });

    // With no live chapter left, no chapter cover at all.
    await remove("chapter", first.id, "Copyright");
    expect((await get(first.seriesPath)).body.latestChapter).toMatchObject({ number: 2, coverId: null });
  });
});

describe("a removed post", () => {
  it("answers its comments as removed with it to others, and takes no replies", async () => {
    const { path, post } = await newPost(api, creator, author);
    await joinHub(api, member, post.hubId);
    const comment = await addComment(api, member, path, "Nice post");
    const res = await api.request
      .post("/moderation/remove")
      .set(admin.auth)
      .send({ subject: { type: "post", id: post.id }, reason: "Doxxing" });
    expect(res.status).toBe(200);
    for (const viewer of [undefined, stranger])
      expect(byId((await get(`${path}/comments`, viewer)).body.content, comment.id)).toMatchObject({
        content: "",
        removed: { reason: "Doxxing", container: "post" },
      });
    for (const viewer of [member, creator])
      expect(byId((await get(`${path}/comments`, viewer)).body.content, comment.id)).toMatchObject({ content: "Nice post" });
    expectError(
      await api.request.post(`${path}/comments`).set(stranger.auth).send({ content: "Reply", parentId: comment.id }),
      403,
      "This post was removed by moderators",
    );
  });
});
