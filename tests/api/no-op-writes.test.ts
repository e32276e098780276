// Writes that change nothing (issue 27, item 9; docs/api.md "The data version"): liking what one already likes,
// marking read what is read or does not exist, and the like leave the data version alone, so kept answers (the API's
// response cache, the web app's guest page cache) stay; a write that changed something always moves it.
import { beforeAll, describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { joinHub } from "../helpers/fixtures.ts";

let api: TestApi;
let owner: TestUser;
let fan: TestUser;
let stranger: TestUser;

setUpSharedTestApi(["noop_owner", "noop_fan", "noop_stranger"], (started, users) => {
  api = started;
  [owner, fan, stranger] = users;
});

const version = async () => (await api.request.get("/data-version")).body.version as string;

interface World {
  hubId: number;
  postPath: string;
  postId: number;
  commentId: number;
  chapterPath: string;
  seriesId: number;
  removedPostId: number;
}
let world: World;

beforeAll(async () => {
  const { hub, post, path } = await newPost(api, owner);
  const comment = await addComment(api, owner, path, "A comment to like");
  const chapter = await newChapter(api, owner);
  const seriesId = (await api.request.get(chapter.seriesPath)).body.id as number;
  const removed = (
    await api.request.post("/hub-posts").set(owner.auth).send({ title: "To remove", content: "Removed soon", hubId: hub.id })
  ).body.id as number;
  world = {
    hubId: hub.id,
    postPath: path,
    postId: post.id,
    commentId: comment.id,
    chapterPath: chapter.path,
    seriesId,
    removedPostId: removed,
  };

  // The state every no-op below repeats: the fan likes, follows, joins, blocks the stranger; the stranger moderates
  // the hub; the second post is removed.
  const ok = (res: { status: number; body: unknown }) => expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  ok(await api.request.post(`${path}/like`).set(fan.auth));
  ok(await api.request.post(`${chapter.path}/like`).set(fan.auth));
  ok(await api.request.post(`/comments/${comment.id}/like`).set(fan.auth));
  ok(await api.request.post(`/user/${fan.id}/followed-series/${seriesId}`).set(fan.auth));
  await joinHub(api, fan, hub.id);
  ok(await api.request.put(`/me/blocks/${stranger.id}`).set(fan.auth));
  ok(await api.request.put(`/hubs/${hub.id}/moderators/${stranger.id}`).set(owner.auth));
  ok(
    await api.request
      .post("/moderation/remove")
      .set(owner.auth)
      .send({ subject: { type: "post", id: removed }, reason: "Off topic" }),
  );
  ok(await api.request.post("/me/notifications/read").set(owner.auth).send({ all: true }));
});

/** Each write repeats what is already so; none may move the data version. */
const NO_OPS: [string, () => Promise<{ status: number; body: unknown }>][] = [
  ["liking a liked post", () => api.request.post(`${world.postPath}/like`).set(fan.auth)],
  ["unliking a post not liked", () => api.request.delete(`${world.postPath}/like`).set(stranger.auth)],
  ["liking a liked chapter", () => api.request.post(`${world.chapterPath}/like`).set(fan.auth)],
  ["liking a liked comment", () => api.request.post(`/comments/${world.commentId}/like`).set(fan.auth)],
  ["unliking a comment not liked", () => api.request.delete(`/comments/${world.commentId}/like`).set(stranger.auth)],
  ["following a followed series", () => api.request.post(`/user/${fan.id}/followed-series/${world.seriesId}`).set(fan.auth)],
  [
    "unfollowing a series not followed",
    () => api.request.delete(`/user/${stranger.id}/followed-series/${world.seriesId}`).set(stranger.auth),
  ],
  ["joining a joined hub", () => api.request.post(`/user/${fan.id}/member-hubs/${world.hubId}`).set(fan.auth)],
  ["leaving a hub not joined", () => api.request.delete(`/user/${stranger.id}/member-hubs/${world.hubId}`).set(stranger.auth)],
  [
    "marking a notification that does not exist read",
    () =>
      api.request
        .post("/me/notifications/read")
        .set(fan.auth)
        .send({ ids: [987654] }),
  ],
  ["marking all read with nothing unread", () => api.request.post("/me/notifications/read").set(owner.auth).send({ all: true })],
  [
    "removing a removed post",
    () =>
      api.request
        .post("/moderation/remove")
        .set(owner.auth)
        .send({ subject: { type: "post", id: world.removedPostId }, reason: "Again" }),
  ],
  [
    "restoring a post that is not removed",
    () =>
      api.request
        .post("/moderation/restore")
        .set(owner.auth)
        .send({ subject: { type: "post", id: world.postId }, reason: "Nothing to restore" }),
  ],
  ["blocking a blocked user", () => api.request.put(`/me/blocks/${stranger.id}`).set(fan.auth)],
  ["unblocking a user not blocked", () => api.request.delete(`/me/blocks/${owner.id}`).set(fan.auth)],
  ["adding a moderator again", () => api.request.put(`/hubs/${world.hubId}/moderators/${stranger.id}`).set(owner.auth)],
  ["removing someone who is not a moderator", () => api.request.delete(`/hubs/${world.hubId}/moderators/${fan.id}`).set(owner.auth)],
  [
    "lifting a ban that does not exist",
    () => api.request.delete(`/hubs/${world.hubId}/bans/${fan.id}`).set(owner.auth).send({ reason: "None" }),
  ],
  ["saving one's settings unchanged", () => api.request.put(`/user/${fan.id}`).set(fan.auth).send({ showMature: false })],
];

describe("a write that changes nothing leaves the data version alone", () => {
  it.each(NO_OPS)("%s, three times", async (_name, write) => {
    const before = await version();

    for (let i = 0; i < 3; i++) {
      const res = await write();
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }

    expect(await version()).toBe(before);
  });

  it("keeps serving a cached answer through a loop of no-op writes", async () => {
    const path = `/hub-posts/${world.postId}`;
    const cached = await api.request.get(path);
    // Changed behind the API's back: only an answer computed anew would show it.
    await api.db.kysely.updateTable("Post").set({ title: "Changed behind the back" }).where("id", "=", world.postId).execute();

    for (let round = 0; round < 2; round++) for (const [, write] of NO_OPS) await write();

    expect((await api.request.get(path)).body.title).toBe(cached.body.title);
  });
});

describe("a write that changes something moves it", () => {
  it.each([
    ["a like", () => api.request.post(`${world.postPath}/like`).set(stranger.auth)],
    ["an unlike", () => api.request.delete(`${world.postPath}/like`).set(stranger.auth)],
    ["a follow", () => api.request.post(`/user/${stranger.id}/followed-series/${world.seriesId}`).set(stranger.auth)],
    ["a block lifted", () => api.request.delete(`/me/blocks/${stranger.id}`).set(fan.auth)],
    ["a setting changed", () => api.request.put(`/user/${fan.id}`).set(fan.auth).send({ showMature: true })],
  ])("%s", async (_name, write) => {
    const before = await version();

    expect((await write()).status).toBeLessThan(300);

    expect(await version()).not.toBe(before);
  });

  it("shows the change a cached answer missed once a real write is made", async () => {
    const path = `/hub-posts/${world.postId}`;
    await api.request.get(path);
    await api.db.kysely.updateTable("Post").set({ title: "Seen after a real write" }).where("id", "=", world.postId).execute();

    expect((await api.request.post(`${world.postPath}/like`).set(owner.auth)).status).toBe(200);

    expect((await api.request.get(path)).body.title).toBe("Seen after a real write");
  });
});
