// Blocks (docs/api.md "Blocks", docs/decisions/018-governance.md "Blocks"): PUT/DELETE/GET /me/blocks; a blocked user's
// posts, comments and replies leave the blocker's lists, counted in `hidden` (includeBlocked=true lists them again);
// they cannot reply to the blocker's comments or mention them (403), and make no notifications for them.
import { describe, expect, it } from "vitest";
import { counterMismatches } from "../../seed/counters.ts";
import { MAX_BLOCKS, MENTION_BLOCKER_MESSAGE, REPLY_TO_BLOCKER_MESSAGE } from "../../server/rules/blocks.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost, notificationsAbout } from "../helpers/comments.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, ids, insertUsers, joinHub } from "../helpers/fixtures.ts";
import { NO_COUNTER_MISMATCHES } from "../helpers/seeded-folder.ts";

let api: TestApi;
setUpSharedTestApi([], (started) => {
  api = started;
});

/** Three fresh users per test: who blocks, who is blocked, and someone else. */
async function people() {
  return { blocker: await api.register(), blocked: await api.register(), other: await api.register() };
}

const block = (by: TestUser, userId: number) => api.request.put(`/me/blocks/${userId}`).set(by.auth);
const unblock = (by: TestUser, userId: number) => api.request.delete(`/me/blocks/${userId}`).set(by.auth);

async function blockOk(by: TestUser, user: TestUser) {
  const res = await block(by, user.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { userId: number; blocked: boolean; blockCount: number };
}

async function list(path: string, user?: TestUser) {
  const req = api.request.get(path);
  const res = await (user ? req.set(user.auth) : req);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { content: { id: number }[]; totalElements: number; totalPages: number; hidden?: number };
}

describe("PUT, DELETE and GET /me/blocks", () => {
  it("blocks and unblocks idempotently, answering the new state, and lists the blocked users newest first", async () => {
    const { blocker, blocked, other } = await people();
    expect(await blockOk(blocker, blocked)).toEqual({ userId: blocked.id, blocked: true, blockCount: 1 });
    expect(await blockOk(blocker, blocked)).toEqual({ userId: blocked.id, blocked: true, blockCount: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await blockOk(blocker, other)).toEqual({ userId: other.id, blocked: true, blockCount: 2 });

    const page = await list("/me/blocks", blocker);
    expect(page).toMatchObject({ totalElements: 2, totalPages: 1 });
    expect(page.content).toEqual([
      { id: other.id, username: other.username, profileImageId: null, blockedAt: expect.any(String) },
      { id: blocked.id, username: blocked.username, profileImageId: null, blockedAt: expect.any(String) },
    ]);
    expect((await list("/me/blocks?per_page=1&page=2", blocker)).content.map((u) => u.id)).toEqual([blocked.id]);

    const res = await unblock(blocker, other.id);
    expect(res.body).toEqual({ userId: other.id, blocked: false, blockCount: 1 });
    expect((await unblock(blocker, other.id)).body).toEqual({ userId: other.id, blocked: false, blockCount: 1 });
    expect(ids(await list("/me/blocks", blocker))).toEqual([blocked.id]);
    // Nobody else's list moved.
    expect(await list("/me/blocks", blocked)).toMatchObject({ content: [], totalElements: 0 });
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });

  it("refuses guests (401), yourself (400), unknown users (404) and ids that are not ids (400)", async () => {
    const { blocker, other } = await people();
    expectError(await api.request.put(`/me/blocks/${other.id}`), 401);
    expectError(await api.request.get("/me/blocks"), 401);
    expectError(await api.request.delete(`/me/blocks/${other.id}`), 401);
    expectFieldError(await block(blocker, blocker.id), "userId", "You cannot block yourself");
    expectError(await unblock(blocker, blocker.id), 400, "You cannot block yourself");
    expectError(await block(blocker, 99_999_999), 404, "User not found");
    expectError(await unblock(blocker, 99_999_999), 404, "User not found");
    expectError(await api.request.put("/me/blocks/abc").set(blocker.auth), 400);
    expectError(await api.request.get("/me/blocks?per_page=0").set(blocker.auth), 400);
  });

  it(`stops at ${MAX_BLOCKS} blocks (400); unblocking one makes room`, async () => {
    const { blocker, blocked } = await people();
    const others = await insertUsers(api, MAX_BLOCKS);
    await api.db.kysely
      .insertInto("Block")
      .values(others.map((blockedId, i) => ({ userId: blocker.id, blockedId, createdAt: i })))
      .execute();
    await api.db.kysely.updateTable("User").set({ blockCount: MAX_BLOCKS }).where("id", "=", blocker.id).execute();
    api.dataChanged();

    expectError(await block(blocker, blocked.id), 400, `You can block at most ${MAX_BLOCKS} users`);
    // Blocking someone already blocked is still the idempotent 200.
    expect((await block(blocker, others[0]!)).body).toEqual({ userId: others[0], blocked: true, blockCount: MAX_BLOCKS });
    expect((await unblock(blocker, others[0]!)).body.blockCount).toBe(MAX_BLOCKS - 1);
    expect(await blockOk(blocker, blocked)).toEqual({ userId: blocked.id, blocked: true, blockCount: MAX_BLOCKS });
    expect((await list("/me/blocks?per_page=1", blocker)).content).toEqual([expect.objectContaining({ id: blocked.id })]);
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });
});

describe("lists a blocker reads", () => {
  it("leave out the blocked user's hub posts, latest and by likes, with `hidden` and totals without them", async () => {
    const { blocker, blocked, other } = await people();
    const hub = await createHub(api, other);
    await joinHub(api, blocked, hub.id);
    const byOther = [await createPost(api, other, hub.id), await createPost(api, other, hub.id)];
    const byBlocked = [await createPost(api, blocked, hub.id), await createPost(api, blocked, hub.id)];
    const byOther2 = await createPost(api, other, hub.id);
    const latest = `${hubPath(hub.name)}/posts/latest`;
    const everyone = [byOther2.id, byBlocked[1]!.id, byBlocked[0]!.id, byOther[1]!.id, byOther[0]!.id];

    // Before blocking: the plain page, without `hidden`.
    const before = await list(latest, blocker);
    expect(ids(before)).toEqual(everyone);
    expect(before.hidden).toBeUndefined();

    await blockOk(blocker, blocked);
    const after = await list(latest, blocker);
    expect(ids(after)).toEqual([byOther2.id, byOther[1]!.id, byOther[0]!.id]);
    expect(after).toMatchObject({ totalElements: 3, totalPages: 1, hidden: 2 });
    // Paging counts only what is shown.
    const second = await list(`${latest}?per_page=2&page=2`, blocker);
    expect(ids(second)).toEqual([byOther[0]!.id]);
    expect(second).toMatchObject({ totalElements: 3, totalPages: 2, hidden: 2 });
    expect((await list(`${latest}?per_page=2&page=3`, blocker)).content).toEqual([]);

    const byLikes = await list(`${hubPath(hub.name)}/posts/by-likes`, blocker);
    expect(byLikes.content.map((p) => p.id).sort()).toEqual([byOther2.id, byOther[1]!.id, byOther[0]!.id].sort());
    expect(byLikes).toMatchObject({ totalElements: 3, hidden: 2 });

    // includeBlocked=true lists them (hidden 0); guests and others see everything, without `hidden`.
    const shown = await list(`${latest}?includeBlocked=true`, blocker);
    expect(ids(shown)).toEqual(everyone);
    expect(shown).toMatchObject({ totalElements: 5, hidden: 0 });
    const guest = await list(latest);
    expect(ids(guest)).toEqual(everyone);
    expect(guest.hidden).toBeUndefined();
    expect((await list(latest, other)).hidden).toBeUndefined();
    expectError(await api.request.get(`${latest}?includeBlocked=yes`).set(blocker.auth), 400);

    // Unblocked: the plain page again.
    await unblock(blocker, blocked.id);
    const again = await list(latest, blocker);
    expect(ids(again)).toEqual(everyone);
    expect(again.hidden).toBeUndefined();
  });

  it("leave out the blocked user's posts from the feed, with `hidden`", async () => {
    const { blocker, blocked, other } = await people();
    const hub = await createHub(api, other);
    await joinHub(api, blocked, hub.id);
    await joinHub(api, blocker, hub.id);
    const first = await createPost(api, other, hub.id);
    await createPost(api, blocked, hub.id);
    const last = await createPost(api, other, hub.id);
    await blockOk(blocker, blocked);

    const feed = await list("/me/feed", blocker);
    expect(feed.content.map((item) => (item as unknown as { post: { id: number } }).post.id)).toEqual([last.id, first.id]);
    expect(feed).toMatchObject({ totalElements: 2, hidden: 1 });
    const second = await list("/me/feed?per_page=1&page=2", blocker);
    expect(second.content.map((item) => (item as unknown as { post: { id: number } }).post.id)).toEqual([first.id]);
    expect((await list("/me/feed?includeBlocked=true", blocker)).totalElements).toBe(3);
  });

  it("are never served from a guest's cached answer", async () => {
    const { blocker, blocked, other } = await people();
    const hub = await createHub(api, other);
    await joinHub(api, blocked, hub.id);
    await createPost(api, blocked, hub.id);
    await blockOk(blocker, blocked);
    const latest = `${hubPath(hub.name)}/posts/latest`;
    // Twice as a guest: the second answer comes from the response cache.
    expect((await list(latest)).totalElements).toBe(1);
    expect((await list(latest)).totalElements).toBe(1);
    expect(await list(latest, blocker)).toMatchObject({ content: [], totalElements: 0, hidden: 1 });
  });

  it("leave out the blocked user's comments and replies on posts and chapters, with `hidden`", async () => {
    const { blocker, blocked, other } = await people();
    const { path } = await newPost(api, other);
    const first = await addComment(api, other, path, "First");
    const hiddenOne = await addComment(api, blocked, path, "From the blocked user");
    const replyShown = await addComment(api, other, path, "A reply", first.id);
    const replyHidden = await addComment(api, blocked, path, "A blocked reply", first.id);
    await blockOk(blocker, blocked);

    const comments = await list(`${path}/comments?sort=oldest`, blocker);
    expect(ids(comments)).toEqual([first.id]);
    expect(comments).toMatchObject({ totalElements: 1, hidden: 1 });
    expect(ids(await list(`${path}/comments?sort=oldest&includeBlocked=true`, blocker))).toEqual([first.id, hiddenOne.id]);
    expect(ids(await list(`${path}/comments?sort=oldest`))).toEqual([first.id, hiddenOne.id]);

    const replies = await list(`/comments/${first.id}/replies`, blocker);
    expect(ids(replies)).toEqual([replyShown.id]);
    expect(replies).toMatchObject({ totalElements: 1, hidden: 1 });
    expect(ids(await list(`/comments/${first.id}/replies?includeBlocked=true`, blocker))).toEqual([replyShown.id, replyHidden.id]);
    expect((await list(`/comments/${first.id}/replies`)).hidden).toBeUndefined();

    const chapter = await newChapter(api, other);
    const onChapter = await addComment(api, other, chapter.path, "Nice");
    await addComment(api, blocked, chapter.path, "Hidden");
    const chapterComments = await list(`${chapter.path}/comments`, blocker);
    expect(ids(chapterComments)).toEqual([onChapter.id]);
    expect(chapterComments).toMatchObject({ totalElements: 1, hidden: 1 });
  });

  it("leave the blocked user's profile and the lists of their own work as they are (decision 018: visited on purpose)", async () => {
    const { blocker, blocked, other } = await people();
    await createHub(api, blocked);
    const chapter = await newChapter(api, blocked);
    const series = (await api.request.get(chapter.seriesPath)).body as { id: number; name: string };
    const joined = await createHub(api, other);
    await joinHub(api, blocked, joined.id);
    const follow = await api.request.post(`/user/${blocked.id}/followed-series/${series.id}`).set(blocked.auth);
    expect(follow.status, JSON.stringify(follow.body)).toBe(200);
    await blockOk(blocker, blocked);

    const paths = [
      `/user/${blocked.username}`,
      `/user/${blocked.id}/created-hubs`,
      `/user/${blocked.id}/created-series`,
      `/user/${blocked.id}/member-hubs`,
      `/user/${blocked.id}/followed-series`,
      `/series/${encodeURIComponent(series.name)}/chapters`,
    ];
    for (const path of paths) {
      const asBlocker = await api.request.get(path).set(blocker.auth);
      const asOther = await api.request.get(path).set(other.auth);
      expect(asBlocker.status, path).toBe(200);
      // The same answer as for anyone else: nothing left out, no `hidden`.
      expect(asBlocker.body, path).toEqual(asOther.body);
      expect(JSON.stringify(asBlocker.body), path).not.toContain('"hidden"');
    }
    const lists = await Promise.all(paths.slice(1, 5).map((path) => api.request.get(path).set(blocker.auth)));
    expect(lists.map((res) => (res.body as unknown[]).length)).toEqual([1, 1, 2, 1]);
  });
});

describe("what a blocked user cannot do", () => {
  it("cannot reply to the blocker's comments (403) and writes nothing; replying to others in the thread is fine", async () => {
    const { blocker, blocked, other } = await people();
    const { path, post } = await newPost(api, other);
    const mine = await addComment(api, blocker, path, "Mine");
    const reply = await addComment(api, other, path, "Other's reply", mine.id);
    await blockOk(blocker, blocked);

    const res = await api.request.post(`${path}/comments`).set(blocked.auth).send({ content: "No", parentId: mine.id });
    expectError(res, 403, REPLY_TO_BLOCKER_MESSAGE);
    expect((await api.request.get(`/hub-posts/${post.id}`)).body.commentCount).toBe(2);
    await addComment(api, blocked, path, "To the other person", reply.id);
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });

  it("cannot mention the blocker (403) in a comment, an edited comment, a post or an edited post", async () => {
    const { blocker, blocked, other } = await people();
    const { path, hub } = await newPost(api, other, blocked);
    await blockOk(blocker, blocked);
    const mention = `Hello @${blocker.username}`;

    expectError(await api.request.post(`${path}/comments`).set(blocked.auth).send({ content: mention }), 403, MENTION_BLOCKER_MESSAGE);
    const comment = await addComment(api, blocked, path, `Hello @${other.username}`);
    expectError(
      await api.request.put(`/comments/${comment.id}`).set(blocked.auth).send({ content: mention }),
      403,
      MENTION_BLOCKER_MESSAGE,
    );
    expect((await api.request.get(`/comments/${comment.id}/replies`)).status).toBe(200);

    const post = await api.request
      .post("/hub-posts")
      .set(blocked.auth)
      .send({ title: "A valid title", content: mention, description: "x", hubId: hub.id });
    expectError(post, 403, MENTION_BLOCKER_MESSAGE);
    const own = await createPost(api, blocked, hub.id);
    const edit = await api.request.put(`/hub-posts/${own.id}`).set(blocked.auth).send({ title: "A valid title", content: mention });
    expectError(edit, 403, MENTION_BLOCKER_MESSAGE);
    expect((await api.request.get(`/hub-posts/${own.id}`)).body.content).not.toContain("@");
    // The other way round is allowed: a block only binds the blocked.
    await addComment(api, blocker, path, `Hi @${blocked.username}`);
  });

  it("makes no notifications for the blocker: comments, replies, joins", async () => {
    const { blocker, blocked, other } = await people();
    const { path, post, hub } = await newPost(api, blocker);
    await blockOk(blocker, blocked);

    const comment = await addComment(api, blocked, path, `On your post, @${other.username}`);
    expect(await notificationsAbout(api, { commentId: comment.id })).toEqual([
      expect.objectContaining({ userId: other.id, kind: "mention", actorId: blocked.id }),
    ]);
    await joinHub(api, blocked, hub.id);
    const joins = await api.db.kysely
      .selectFrom("Notification")
      .select("id")
      .where("userId", "=", blocker.id)
      .where("actorId", "=", blocked.id)
      .execute();
    expect(joins).toEqual([]);
    // Someone not blocked still tells the blocker.
    const fromOther = await addComment(api, other, path, "Hello");
    expect(await notificationsAbout(api, { commentId: fromOther.id })).toEqual([
      expect.objectContaining({ userId: blocker.id, kind: "comment", postId: post.id }),
    ]);
    expect((await api.request.get("/me/notifications/unread-count").set(blocker.auth)).body.count).toBe(1);
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });
});
