// Deleting an account (docs/api.md "Deleting an account", decision 018): a user who has done
// everything leaves; afterwards every count and list is right, their images are gone from the store, their name and
// email are free, their tokens are refused, and everybody else's work is still there.
import { describe, expect, it } from "vitest";
import { counterMismatches } from "../../seed/counters.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, joinHub } from "../helpers/fixtures.ts";
import { keptImageBytes, uploadPng } from "../helpers/images.ts";
import { NO_COUNTER_MISMATCHES } from "../helpers/seeded-folder.ts";
import { storedImages } from "../helpers/stored-images.ts";

let api: TestApi;
let friend: TestUser;
let moderator: TestUser;

setUpSharedTestApi(["acct_friend", "acct_moderator"], (started, users) => {
  api = started;
  [friend, moderator] = users;
});

const { track, expectImageGone } = storedImages(() => api);
const imageUrl = (id: number) => `http://localhost/images/${id}`;
const unread = async (user: TestUser) => (await api.request.get("/me/notifications/unread-count").set(user.auth)).body.count as number;
const get = async (path: string, user?: TestUser) => {
  const req = api.request.get(path);
  const res = await (user ? req.set(user.auth) : req);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};
type CommentBody = { id: number; deleted: boolean; authorId: number | null; content: string; replyCount: number };
const commentsOf = async (placePath: string) => (await get(`${placePath}/comments?sort=oldest`)).content as CommentBody[];
const deleteAccount = (user: TestUser, as: TestUser = user, password = user.password) =>
  api.request.delete(`/user/${user.id}`).set(as.auth).send({ password });

/** Rows that still name the user, table by table (all should be empty). */
async function rowsNaming(userId: number) {
  const k = api.db.kysely;
  return {
    user: await k.selectFrom("User").select("id").where("id", "=", userId).execute(),
    hubs: await k.selectFrom("Hub").select("id").where("authorId", "=", userId).execute(),
    posts: await k.selectFrom("Post").select("id").where("authorId", "=", userId).execute(),
    series: await k.selectFrom("Series").select("id").where("authorId", "=", userId).execute(),
    comments: await k.selectFrom("Comment").select("id").where("authorId", "=", userId).execute(),
    images: await k.selectFrom("Image").select("id").where("authorId", "=", userId).execute(),
    memberships: await k.selectFrom("Membership").select("hubId").where("userId", "=", userId).execute(),
    follows: await k.selectFrom("Follow").select("seriesId").where("userId", "=", userId).execute(),
    postLikes: await k.selectFrom("PostLike").select("postId").where("userId", "=", userId).execute(),
    chapterLikes: await k.selectFrom("ChapterLike").select("chapterId").where("userId", "=", userId).execute(),
    commentLikes: await k.selectFrom("CommentLike").select("commentId").where("userId", "=", userId).execute(),
    moderatorRows: await k.selectFrom("HubModerator").select("hubId").where("userId", "=", userId).execute(),
    notificationsTo: await k.selectFrom("Notification").select("id").where("userId", "=", userId).execute(),
    notificationsFrom: await k.selectFrom("Notification").select("id").where("actorId", "=", userId).execute(),
  };
}

describe("DELETE /user/{id}", () => {
  it("removes everything of a user who did everything, moves every count, and leaves everybody else's work", async () => {
    const leaver = await api.register(`acct_leaver_${process.pid}`);
    const friendUnreadBefore = await unread(friend);
    const friendImage = await uploadPng(api, friend);

    // The leaver's avatar, a hub only they post in (the friend comments there), and a hub with the friend's post.
    const avatar = await uploadPng(api, leaver);
    await api.request.put(`/user/${leaver.id}`).set(leaver.auth).send({ profileImageID: avatar }).expect(200);
    const solo = await createHub(api, leaver);
    const soloPost = await createPost(api, leaver, solo.id);
    await addComment(api, friend, `${hubPath(solo.name)}/${soloPost.id}`, "Nice one");
    const logo = await uploadPng(api, leaver);
    const shared = await createHub(api, leaver, { profileImageId: logo });
    await joinHub(api, friend, shared.id);
    const friendPostInShared = await createPost(api, friend, shared.id);
    const leaverPostInShared = await createPost(api, leaver, shared.id);
    await api.request.put(`/hubs/${shared.id}/moderators/${moderator.id}`).set(leaver.auth).expect(200);

    // The friend's hub: the leaver joins, moderates, posts (with their image and the friend's), likes and comments.
    const friendHub = await createHub(api, friend);
    // The friend's image, shown in the friend's post and embedded by the leaver too.
    const friendPost = await createPost(api, friend, friendHub.id, { content: `Mine ![f](${imageUrl(friendImage)})` });
    const friendPostPath = `${hubPath(friendHub.name)}/${friendPost.id}`;
    await joinHub(api, leaver, friendHub.id);
    await api.request.put(`/hubs/${friendHub.id}/moderators/${leaver.id}`).set(friend.auth).expect(200);
    const embedded = await uploadPng(api, leaver);
    const leaverPost = await createPost(api, leaver, friendHub.id, {
      content: `Mine ![m](${imageUrl(embedded)}) and theirs ![t](${imageUrl(friendImage)})`,
    });
    await addComment(api, friend, `${hubPath(friendHub.name)}/${leaverPost.id}`, "On your post");
    await api.request.post(`${friendPostPath}/like`).set(leaver.auth).expect(200);
    const answered = await addComment(api, leaver, friendPostPath, "A comment someone answers");
    const friendReply = await addComment(api, friend, friendPostPath, "The answer", answered.id);
    await addComment(api, leaver, friendPostPath, "A comment nobody answers @acct_friend");
    const friendComment = await addComment(api, friend, friendPostPath, "The friend's own comment");
    await addComment(api, leaver, friendPostPath, "A reply to the friend", friendComment.id);
    await api.request.post(`/comments/${friendComment.id}/like`).set(leaver.auth).expect(200);

    // Series: the leaver's own (followed and commented by the friend), and the friend's (followed, liked, commented).
    const ownChapter = await newChapter(api, leaver);
    const ownSeries = await get(ownChapter.seriesPath);
    await api.request.post(`/user/${friend.id}/followed-series/${ownSeries.id}`).set(friend.auth).expect(200);
    await addComment(api, friend, ownChapter.path, "Great chapter");
    const pages = await api.db.kysely.selectFrom("ChapterPage").select("imageId").where("chapterId", "=", ownChapter.id).execute();
    const friendChapter = await newChapter(api, friend);
    const friendSeries = await get(friendChapter.seriesPath);
    await api.request.post(`/user/${leaver.id}/followed-series/${friendSeries.id}`).set(leaver.auth).expect(200);
    await api.request.post(`${friendChapter.path}/like`).set(leaver.auth).expect(200);
    await addComment(api, leaver, friendChapter.path, "On the friend's chapter");

    // A report by the leaver (it stays, without a reporter); the moderator blocks the leaver, who blocks the friend.
    const report = await api.request
      .post("/reports")
      .set(leaver.auth)
      .send({ subject: { type: "post", id: friendPost.id }, reason: "spam" });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    await api.request.put(`/me/blocks/${leaver.id}`).set(moderator.auth).expect(200);
    await api.request.put(`/me/blocks/${friend.id}`).set(leaver.auth).expect(200);

    expect(await unread(friend)).toBeGreaterThan(friendUnreadBefore);
    expect(await unread(leaver)).toBeGreaterThan(0);
    const leaverImages = [avatar, logo, embedded, ...pages.map((p) => p.imageId)];
    await track(...leaverImages);

    // Refused: a wrong password (a field error), someone else, an admin, a guest.
    const wrong = await deleteAccount(leaver, leaver, "not-the-password");
    expectError(wrong, 400);
    expect(wrong.body.errors).toEqual([{ field: "password", message: "Current password is incorrect" }]);
    expectError(await deleteAccount(leaver, friend, friend.password), 403);
    await api.db.kysely.updateTable("User").set({ isAdmin: 1 }).where("id", "=", moderator.id).execute();
    try {
      expectError(await deleteAccount(leaver, moderator, moderator.password), 403);
    } finally {
      await api.db.kysely.updateTable("User").set({ isAdmin: 0 }).where("id", "=", moderator.id).execute();
    }
    expect((await api.request.delete(`/user/${leaver.id}`).send({ password: leaver.password })).status).toBe(401);
    expect((await get(`/user/id/${leaver.id}`)).username).toBe(leaver.username);

    const res = await deleteAccount(leaver);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ type: "user", id: leaver.id, deleted: true });

    // The account: gone, its token refused, its name and email free.
    expect((await api.request.get(`/user/id/${leaver.id}`)).status).toBe(404);
    expect((await api.request.get("/me/notifications").set(leaver.auth)).status).toBe(401);
    expect((await api.request.post("/auth/login").send({ username: leaver.username, password: leaver.password })).status).toBe(401);
    expect(await rowsNaming(leaver.id)).toEqual({
      user: [],
      hubs: [],
      posts: [],
      series: [],
      comments: [],
      images: [],
      memberships: [],
      follows: [],
      postLikes: [],
      chapterLikes: [],
      commentLikes: [],
      moderatorRows: [],
      notificationsTo: [],
      notificationsFrom: [],
    });

    // Its hub where only it posted is gone; the other passed to its moderator, without the leaver's logo and post.
    expect((await api.request.get(hubPath(solo.name))).status).toBe(404);
    const sharedAfter = await get(hubPath(shared.name));
    expect(sharedAfter).toMatchObject({ authorId: moderator.id, authorName: moderator.username, profileImageId: null, postCount: 1 });
    expect((await get(`${hubPath(shared.name)}/moderators`)).items.map((m: { id: number }) => m.id)).toEqual([moderator.id]);
    expect((await get(`${hubPath(shared.name)}/posts/latest`)).content.map((p: { id: number }) => p.id)).toEqual([friendPostInShared.id]);
    expect((await api.request.get(`/hub-posts/${leaverPostInShared.id}`)).status).toBe(404);

    // The friend's hub: the leaver's post, membership, moderator row and like are gone; the counts moved.
    const friendHubAfter = await get(hubPath(friendHub.name));
    expect(friendHubAfter).toMatchObject({ postCount: 1, memberCount: 1 });
    expect(friendHubAfter.moderators.map((m: { id: number }) => m.id)).toEqual([friend.id]);
    expect((await api.request.get(`/hub-posts/${leaverPost.id}`)).status).toBe(404);
    const friendPostAfter = await get(`/hub-posts/${friendPost.id}`);
    // Left: the tombstone's reply, and the friend's own comment (the leaver's reply to it went).
    expect(friendPostAfter).toMatchObject({ likes: 0, commentCount: 2 });
    const threads = await commentsOf(friendPostPath);
    expect(threads.map((c) => c.id)).toEqual([answered.id, friendComment.id]);
    expect(threads[0]).toMatchObject({ deleted: true, authorId: null, content: "", replyCount: 1 });
    expect(threads[1]).toMatchObject({ deleted: false, authorId: friend.id, likes: 0, replyCount: 0 });
    expect((await get(`/comments/${answered.id}/replies`)).content.map((c: { id: number }) => c.id)).toEqual([friendReply.id]);

    // Series: the leaver's is gone with its chapter; the friend's lost a follower, a like and a comment.
    expect((await api.request.get(ownChapter.seriesPath)).status).toBe(404);
    expect((await get(`/user/${friend.id}/followed-series`)).map((s: { id: number }) => s.id)).not.toContain(ownSeries.id);
    expect(await get(friendChapter.seriesPath)).toMatchObject({ followersCount: 0 });
    expect(await get(friendChapter.path)).toMatchObject({ likes: 0, commentCount: 0 });

    // Notifications the leaver caused are gone with their unread counts; every stored count matches its rows.
    expect(await unread(friend)).toBe(friendUnreadBefore);
    expect((await get("/me/blocks", moderator)).content).toEqual([]);
    const reports = await api.db.kysely.selectFrom("Report").select("reporterId").where("subjectId", "=", friendPost.id).execute();
    expect(reports).toEqual([{ reporterId: null }]);
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);

    // The leaver's images are gone from the store; the friend's image the leaver embedded stays.
    for (const id of leaverImages) await expectImageGone(id);
    expect(await keptImageBytes(api, friendImage)).not.toBeNull();

    // The name and the email can be registered again.
    const again = await api.request.post("/auth/register").send({ username: leaver.username, email: leaver.email, password: "another1" });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("refuses the token of a deleted account, a second deletion included", async () => {
    const leaver = await api.register(`acct_short_${process.pid}`);
    expect((await deleteAccount(leaver)).status).toBe(200);
    expect((await deleteAccount(leaver)).status).toBe(401);
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });

  it("deletes more posts and comments than a batch holds", async () => {
    const leaver = await api.register(`acct_busy_${process.pid}`);
    const hub = await createHub(api, friend);
    await joinHub(api, leaver, hub.id);
    const post = await createPost(api, friend, hub.id);
    const now = Date.now();
    const posts = await api.db.kysely
      .insertInto("Post")
      .values(
        Array.from({ length: 120 }, (_, i) => ({ title: `P${i}`, content: "Text", date: now + i, authorId: leaver.id, hubId: hub.id })),
      )
      .returning("id")
      .execute();
    await api.db.kysely
      .insertInto("Comment")
      .values(Array.from({ length: 450 }, (_, i) => ({ postId: post.id, authorId: leaver.id, content: `C${i}`, createdAt: now + i })))
      .execute();
    await api.db.kysely.updateTable("Hub").set({ postCount: 121 }).where("id", "=", hub.id).execute();
    await api.db.kysely.updateTable("Post").set({ commentCount: 450, threadCount: 450 }).where("id", "=", post.id).execute();
    api.dataChanged();
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);

    expect((await deleteAccount(leaver)).status).toBe(200);

    expect(
      await api.db.kysely
        .selectFrom("Post")
        .select("id")
        .where(
          "id",
          "in",
          posts.map((p) => p.id),
        )
        .execute(),
    ).toEqual([]);
    expect(await get(hubPath(hub.name))).toMatchObject({ postCount: 1, memberCount: 1 });
    expect(await get(`/hub-posts/${post.id}`)).toMatchObject({ commentCount: 0 });
    expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
  });
});
