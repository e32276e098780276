// Notification spam (issue 27, item 8): a repeated follow or join tells the owner once, and an edit tells only the
// people it mentions for the first time in that comment or post (docs/api.md "Notifications").
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newPost, notificationsAbout } from "../helpers/comments.ts";
import { createHub, uniqueName } from "../helpers/fixtures.ts";

let api: TestApi;
let fan: TestUser;
let writer: TestUser;
let named: TestUser;
let other: TestUser;

setUpSharedTestApi(["spam_fan", "spam_writer", "spam_named", "spam_other"], (started, users) => {
  api = started;
  [fan, writer, named, other] = users;
});

/** The notifications of one kind a user has, as the API lists them. */
async function received(user: TestUser, kind: string): Promise<number> {
  const res = await api.request.get("/me/notifications?per_page=100").set(user.auth);
  expect(res.status).toBe(200);
  return (res.body.content as { kind: string }[]).filter((n) => n.kind === kind).length;
}

const unread = async (user: TestUser) => (await api.request.get("/me/notifications/unread-count").set(user.auth)).body.count as number;

describe("a repeated follow or join tells the owner once", () => {
  it("20 follow/unfollow cycles give the series' author one notification", async () => {
    const owner = await api.register();
    const series = await api.request
      .post("/series")
      .set(owner.auth)
      .send({ name: uniqueName("Spammed series") });
    expect(series.status).toBe(201);
    const path = `/user/${fan.id}/followed-series/${series.body.id}`;

    for (let i = 0; i < 20; i++) {
      expect((await api.request.post(path).set(fan.auth)).status).toBe(200);
      expect((await api.request.delete(path).set(fan.auth)).status).toBe(200);
    }

    expect(await received(owner, "follow")).toBe(1);
    expect(await unread(owner)).toBe(1);
  });

  it("20 join/leave cycles give the hub's creator one notification", async () => {
    const creator = await api.register();
    const hub = await createHub(api, creator);
    const path = `/user/${fan.id}/member-hubs/${hub.id}`;

    for (let i = 0; i < 20; i++) {
      expect((await api.request.post(path).set(fan.auth)).status).toBe(200);
      expect((await api.request.delete(path).set(fan.auth)).status).toBe(200);
    }

    expect(await received(creator, "join")).toBe(1);
  });

  it("each new follower still tells the author", async () => {
    const owner = await api.register();
    const series = await api.request
      .post("/series")
      .set(owner.auth)
      .send({ name: uniqueName("Liked series") });
    for (const user of [fan, other]) {
      expect((await api.request.post(`/user/${user.id}/followed-series/${series.body.id}`).set(user.auth)).status).toBe(200);
    }

    expect(await received(owner, "follow")).toBe(2);
  });
});

describe("an edit tells only people it mentions for the first time", () => {
  it("10 edits of a comment alternating a mention tell the mentioned user once", async () => {
    const { path } = await newPost(api, writer);
    const comment = await addComment(api, writer, path, "A first version");
    const before = await unread(named);

    for (let i = 0; i < 10; i++) {
      const content = i % 2 === 0 ? `Look @${named.username} (${i})` : `Nobody named (${i})`;
      const res = await api.request.put(`/comments/${comment.id}`).set(writer.auth).send({ content });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const rows = await notificationsAbout(api, { commentId: comment.id });
    expect(rows.filter((n) => n.userId === named.id)).toHaveLength(1);
    expect(await unread(named)).toBe(before + 1);
  });

  it("someone mentioned in the comment's first version is not told again when an edit mentions them anew", async () => {
    const { path } = await newPost(api, writer);
    const comment = await addComment(api, writer, path, `Hello @${named.username}`);
    for (const content of ["Nobody now", `Hello again @${named.username}, and @${other.username}`]) {
      expect((await api.request.put(`/comments/${comment.id}`).set(writer.auth).send({ content })).status).toBe(200);
    }

    const rows = await notificationsAbout(api, { commentId: comment.id });
    expect(rows.filter((n) => n.userId === named.id)).toHaveLength(1);
    expect(rows.filter((n) => n.userId === other.id && n.kind === "mention")).toHaveLength(1);
  });

  it("a post's edits alternating a mention tell the mentioned user once", async () => {
    const { post } = await newPost(api, writer);
    for (let i = 0; i < 6; i++) {
      const content = i % 2 === 0 ? `Credit to @${named.username} (${i})` : `No credit (${i})`;
      const res = await api.request.put(`/hub-posts/${post.id}`).set(writer.auth).send({ title: "Edited", content });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const rows = await notificationsAbout(api, { postId: post.id, commentId: null });
    expect(rows.filter((n) => n.userId === named.id)).toHaveLength(1);
  });
});
