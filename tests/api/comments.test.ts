// Comments on posts and chapters (docs/api.md §10, docs/decisions/017-discussion.md): lists and their orders, replies,
// who may write, edit and delete, tombstones, the counts, notifications and mentions, the rate limit.
import fs from "node:fs";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { counterMismatches } from "../../seed/counters.ts";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost, notificationsAbout, signedInUsers, unreadOf } from "../helpers/comments.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { hubPath, ids, insertUsers } from "../helpers/fixtures.ts";
import { testEngine } from "../helpers/test-data-dir.ts";

let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser, dave: TestUser;
setUpSharedTestApi(["alice", "bob", "carol", "dave"], (started, users) => {
  api = started;
  [alice, bob, carol, dave] = users;
});

const T = Date.UTC(2026, 0, 1);

/** Sets comments' createdAt straight in the table (ties on purpose), then drops the API's cached answers. */
async function setCreatedAt(dates: [number, number][]) {
  for (const [id, createdAt] of dates) await api.db.kysely.updateTable("Comment").set({ createdAt }).where("id", "=", id).execute();
  api.dataChanged();
}

async function like(user: TestUser, commentId: number) {
  expect((await api.request.post(`/comments/${commentId}/like`).set(user.auth)).status).toBe(200);
}

/** Five top-level comments on a new post with known likes and dates: c1 and c3 tie on likes and date, c1 and c2 on date. */
async function rankedComments() {
  const { path } = await newPost(api, alice);
  const c = [];
  for (let i = 1; i <= 5; i++) c.push((await addComment(api, bob, path, `Comment ${i}`)).id);
  const [c1, c2, c3, c4, c5] = c as [number, number, number, number, number];
  await like(carol, c1);
  await like(dave, c1);
  await like(carol, c3);
  await like(dave, c3);
  await like(carol, c5);
  await setCreatedAt([
    [c1, T],
    [c2, T],
    [c3, T],
    [c4, T - 1000],
    [c5, T + 1000],
  ]);
  return { path, c1, c2, c3, c4, c5 };
}

describe("GET /hubs/{hubName}/{postId}/comments", () => {
  it("sorts top by likes, then oldest, then id (the default)", async () => {
    const { path, c1, c2, c3, c4, c5 } = await rankedComments();

    const res = await api.request.get(`${path}/comments`);

    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([c1, c3, c5, c4, c2]);
    expect((await api.request.get(`${path}/comments?sort=top`)).body.content.map((c: { id: number }) => c.id)).toEqual([
      c1,
      c3,
      c5,
      c4,
      c2,
    ]);
  });

  it("sorts oldest first, ties by id", async () => {
    const { path, c1, c2, c3, c4, c5 } = await rankedComments();

    expect(ids((await api.request.get(`${path}/comments?sort=oldest`)).body)).toEqual([c4, c1, c2, c3, c5]);
  });

  it("sorts newest first, ties by id, newest id first", async () => {
    const { path, c1, c2, c3, c4, c5 } = await rankedComments();

    expect(ids((await api.request.get(`${path}/comments?sort=newest`)).body)).toEqual([c5, c3, c2, c1, c4]);
  });

  it("pages with the contract's body, and a page past the end is empty with the true totals", async () => {
    const { path, c4, c5 } = await rankedComments();

    const second = await api.request.get(`${path}/comments?per_page=2&page=2`);
    const past = await api.request.get(`${path}/comments?size=2&page=9`);

    expect(second.body).toMatchObject({ page: 2, perPage: 2, totalPages: 3, totalElements: 5 });
    expect(ids(second.body)).toEqual([c5, c4]);
    expect(past.body).toMatchObject({ content: [], page: 9, perPage: 2, totalPages: 3, totalElements: 5 });
  });

  it("lists top-level comments only, each with the contract's fields and likedByMe for the caller", async () => {
    const { path } = await newPost(api, alice);
    await api.request.put(`/user/${bob.id}`).set(bob.auth).send({});
    const top = await addComment(api, bob, path, "  **Top** level  ");
    await addComment(api, carol, path, "A reply", top.id);
    await like(carol, top.id);

    const mine = await api.request.get(`${path}/comments`).set(carol.auth);
    const guest = await api.request.get(`${path}/comments`);

    expect(mine.body.totalElements).toBe(1);
    expect(mine.body.content).toEqual([
      {
        id: top.id,
        content: "**Top** level",
        authorId: bob.id,
        authorName: bob.username,
        authorImageId: null,
        createdAt: expect.any(String),
        editedAt: null,
        likes: 1,
        likedByMe: true,
        parentId: null,
        replyCount: 1,
        deleted: false,
        removed: null,
      },
    ]);
    expect(guest.body.content[0].likedByMe).toBe(false);
  });

  it("names the author's profile image", async () => {
    const { path } = await newPost(api, alice);
    const { uploadPng } = await import("../helpers/images.ts");
    const avatar = await uploadPng(api, dave);
    expect((await api.request.put(`/user/${dave.id}`).set(dave.auth).send({ profileImageID: avatar })).status).toBe(200);

    const created = await api.request.post(`${path}/comments`).set(dave.auth).send({ content: "With a face" });

    expect(created.body.authorImageId).toBe(avatar);
    await api.request.put(`/user/${dave.id}`).set(dave.auth).send({ profileImageID: null });
  });

  it("answers 404 for an unknown post, a post of another hub and an unknown hub", async () => {
    const { hub, post } = await newPost(api, alice);
    const other = await newPost(api, alice);

    expectError(await api.request.get(`${hubPath(hub.name)}/987654/comments`), 404, "Post not found");
    expectError(await api.request.get(`${hubPath(other.hub.name)}/${post.id}/comments`), 404, "Post not found");
    expectError(await api.request.get(`/hubs/no-such-hub-at-all/${post.id}/comments`), 404, "Post not found");
  });

  it("refuses an unknown sort and bad paging (400)", async () => {
    const { path } = await newPost(api, alice);

    expectError(await api.request.get(`${path}/comments?sort=best`), 400, "sort must be top, oldest or newest");
    expectError(await api.request.get(`${path}/comments?page=0`), 400);
  });
});

describe("POST /hubs/{hubName}/{postId}/comments", () => {
  it("lets anyone signed in comment, member or not (201), and trims the content", async () => {
    const { path } = await newPost(api, alice);

    const res = await api.request.post(`${path}/comments`).set(dave.auth).send({ content: "  Not a member, still welcome  " });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ content: "Not a member, still welcome", authorId: dave.id, parentId: null, replyCount: 0, likes: 0 });
  });

  it("answers 401 without a token and stores nothing", async () => {
    const { path } = await newPost(api, alice);

    expectError(await api.request.post(`${path}/comments`).send({ content: "Hello" }), 401);
    expect((await api.request.get(`${path}/comments`)).body.totalElements).toBe(0);
  });

  it("checks the content: required, at most 5000 characters", async () => {
    const { path } = await newPost(api, alice);

    expectFieldError(
      await api.request.post(`${path}/comments`).set(bob.auth).send({ content: "   " }),
      "content",
      "Comment cannot be empty",
    );
    expectFieldError(await api.request.post(`${path}/comments`).set(bob.auth).send({}), "content", "Comment cannot be empty");
    expectFieldError(
      await api.request
        .post(`${path}/comments`)
        .set(bob.auth)
        .send({ content: "x".repeat(5001) }),
      "content",
      "Comment must be less than 5000 characters",
    );
    expect(
      (
        await api.request
          .post(`${path}/comments`)
          .set(bob.auth)
          .send({ content: "é".repeat(5000) })
      ).status,
    ).toBe(201);
  });

  it("answers 404 for a missing post", async () => {
    const { hub } = await newPost(api, alice);

    expectError(
      await api.request
        .post(`${hubPath(hub.name)}/987654/comments`)
        .set(bob.auth)
        .send({ content: "Hi" }),
      404,
      "Post not found",
    );
  });

  it("answers 400 for a parentId that names no comment of the same post", async () => {
    const { path } = await newPost(api, alice);
    const elsewhere = await newPost(api, alice);
    const foreign = await addComment(api, bob, elsewhere.path, "On another post");
    const chapter = await newChapter(api, alice);
    const onChapter = await addComment(api, bob, chapter.path, "On a chapter");

    for (const parentId of [foreign.id, onChapter.id, 2_000_000_000]) {
      const res = await api.request.post(`${path}/comments`).set(bob.auth).send({ content: "Reply", parentId });
      expectFieldError(res, "parentId", "parentId must name a comment of the same post or chapter");
    }
    expect((await api.request.get(`${path}/comments`)).body.totalElements).toBe(0);
    expect((await api.request.get(path)).body.commentCount).toBe(0);
  });
});

describe("replies", () => {
  it("stores a reply to a reply in the same thread, and GET /comments/{id}/replies lists the thread oldest first", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Top");
    const r1 = await addComment(api, carol, path, "First reply", top.id);
    const r2 = await addComment(api, dave, path, "Reply to the reply", r1.id);
    const r3 = await addComment(api, alice, path, "Another", top.id);
    await setCreatedAt([
      [r1.id, T],
      [r2.id, T - 5],
      [r3.id, T],
    ]);

    const replies = await api.request.get(`/comments/${top.id}/replies`);

    expect(r2.parentId).toBe(top.id);
    expect(replies.status).toBe(200);
    expect(ids(replies.body)).toEqual([r2.id, r1.id, r3.id]);
    expect(replies.body.totalElements).toBe(3);
    expect(replies.body.content.every((r: { parentId: number }) => r.parentId === top.id)).toBe(true);
    expect((await api.request.get(`${path}/comments`)).body.content[0].replyCount).toBe(3);
  });

  it("pages the replies", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Top");
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push((await addComment(api, carol, path, `Reply ${i}`, top.id)).id);

    const res = await api.request.get(`/comments/${top.id}/replies?per_page=2&page=3`);

    expect(res.body).toMatchObject({ page: 3, perPage: 2, totalPages: 3, totalElements: 5 });
    expect(ids(res.body)).toEqual([replies[4]]);
  });

  it("answers an empty page for a reply (its thread holds the replies) and 404 for no comment", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Top");
    const reply = await addComment(api, carol, path, "Reply", top.id);

    expect((await api.request.get(`/comments/${reply.id}/replies`)).body).toMatchObject({ content: [], totalElements: 0 });
    expectError(await api.request.get(`/comments/987654321/replies`), 404, "Comment not found");
  });
});

describe("comments on chapters", () => {
  it("lists, sorts and replies as on posts", async () => {
    const chapter = await newChapter(api, alice);
    const a = await addComment(api, bob, chapter.path, "First");
    const b = await addComment(api, carol, chapter.path, "Second");
    const reply = await addComment(api, dave, chapter.path, "Reply", a.id);
    await like(dave, b.id);

    expect(ids((await api.request.get(`${chapter.path}/comments`)).body)).toEqual([b.id, a.id]);
    expect(ids((await api.request.get(`${chapter.path}/comments?sort=oldest`)).body)).toEqual([a.id, b.id]);
    expect(ids((await api.request.get(`/comments/${a.id}/replies`)).body)).toEqual([reply.id]);
  });

  it("answers 404 for a missing chapter or series, 401 without a token", async () => {
    const chapter = await newChapter(api, alice);

    expectError(await api.request.get(`${chapter.seriesPath}/9/comments`), 404, "Chapter not found");
    expectError(await api.request.post(`${chapter.seriesPath}/9/comments`).set(bob.auth).send({ content: "Hi" }), 404, "Chapter not found");
    expectError(await api.request.get(`/series/no-such-series-here/1/comments`), 404, "Chapter not found");
    expectError(await api.request.post(`${chapter.path}/comments`).send({ content: "Hi" }), 401);
  });

  it("answers 400 for a parentId of another chapter", async () => {
    const one = await newChapter(api, alice);
    const two = await newChapter(api, alice);
    const there = await addComment(api, bob, two.path, "There");

    expectFieldError(
      await api.request.post(`${one.path}/comments`).set(bob.auth).send({ content: "Here", parentId: there.id }),
      "parentId",
      "parentId must name a comment of the same post or chapter",
    );
  });
});

describe("PUT /comments/{id}", () => {
  it("lets the author edit, trims and sets editedAt", async () => {
    const { path } = await newPost(api, alice);
    const comment = await addComment(api, bob, path, "Before");

    const res = await api.request.put(`/comments/${comment.id}`).set(bob.auth).send({ content: "  After  " });

    expect(res.status).toBe(200);
    expect(res.body.content).toBe("After");
    expect(Date.parse(res.body.editedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.createdAt));
    expect((await api.request.get(`${path}/comments`)).body.content[0]).toMatchObject({ content: "After", editedAt: res.body.editedAt });
  });

  it("refuses anyone else, the post's author and the hub's creator included (403)", async () => {
    const { path } = await newPost(api, alice);
    const comment = await addComment(api, bob, path, "Mine");

    for (const user of [alice, carol]) {
      expectError(
        await api.request.put(`/comments/${comment.id}`).set(user.auth).send({ content: "Theirs" }),
        403,
        "Only the author can edit this comment",
      );
    }
    expect((await api.request.get(`${path}/comments`)).body.content[0]).toMatchObject({ content: "Mine", editedAt: null });
  });

  it("answers 401 without a token, 404 for no comment, 400 for empty content", async () => {
    const { path } = await newPost(api, alice);
    const comment = await addComment(api, bob, path, "Mine");

    expectError(await api.request.put(`/comments/${comment.id}`).send({ content: "x" }), 401);
    expectError(await api.request.put(`/comments/987654321`).set(bob.auth).send({ content: "x" }), 404, "Comment not found");
    expectFieldError(
      await api.request.put(`/comments/${comment.id}`).set(bob.auth).send({ content: "" }),
      "content",
      "Comment cannot be empty",
    );
  });
});

describe("DELETE /comments/{id}", () => {
  it("lets the author delete a comment without replies: it is gone with its likes", async () => {
    const { path } = await newPost(api, alice);
    const comment = await addComment(api, bob, path, "Regret");
    await like(carol, comment.id);

    const res = await api.request.delete(`/comments/${comment.id}`).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: comment.id, deleted: true, tombstone: false });
    expect((await api.request.get(`${path}/comments`)).body.totalElements).toBe(0);
    expect(await api.db.kysely.selectFrom("CommentLike").select("userId").where("commentId", "=", comment.id).execute()).toEqual([]);
    expect(await api.db.kysely.selectFrom("Comment").select("id").where("id", "=", comment.id).execute()).toEqual([]);
  });

  it("lets the hub's creator delete comments on its posts, not the post's author who did not create the hub", async () => {
    const { path } = await newPost(api, alice, bob);
    const comment = await addComment(api, carol, path, "Off topic");

    expectError(await api.request.delete(`/comments/${comment.id}`).set(bob.auth), 403, "You cannot delete this comment");
    expect((await api.request.delete(`/comments/${comment.id}`).set(alice.auth)).status).toBe(200);
  });

  it("lets the series' author delete comments on its chapters", async () => {
    const chapter = await newChapter(api, alice);
    const comment = await addComment(api, bob, chapter.path, "Spoilers");

    expect((await api.request.delete(`/comments/${comment.id}`).set(alice.auth)).status).toBe(200);
    expect((await api.request.get(`${chapter.path}/comments`)).body.totalElements).toBe(0);
  });

  it("refuses everyone else (403), and a hub's creator on a chapter's comments", async () => {
    const chapter = await newChapter(api, bob);
    const comment = await addComment(api, carol, chapter.path, "Stays");
    const { path } = await newPost(api, alice);
    const onPost = await addComment(api, carol, path, "Stays too");

    expectError(await api.request.delete(`/comments/${comment.id}`).set(alice.auth), 403, "You cannot delete this comment");
    expectError(await api.request.delete(`/comments/${onPost.id}`).set(dave.auth), 403, "You cannot delete this comment");
    expectError(await api.request.delete(`/comments/${onPost.id}`), 401);
    expectError(await api.request.delete(`/comments/987654321`).set(alice.auth), 404, "Comment not found");
    expect((await api.request.get(`${chapter.path}/comments`)).body.totalElements).toBe(1);
  });

  it("keeps a top-level comment with replies as a tombstone: no content, no author, likes kept, replies still listed", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Controversial");
    const reply = await addComment(api, carol, path, "I disagree", top.id);
    await like(dave, top.id);

    const res = await api.request.delete(`/comments/${top.id}`).set(bob.auth);
    const list = await api.request.get(`${path}/comments`).set(dave.auth);

    expect(res.body).toEqual({ id: top.id, deleted: true, tombstone: true });
    expect(list.body.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({
      id: top.id,
      content: "",
      authorId: null,
      authorName: null,
      authorImageId: null,
      deleted: true,
      likes: 1,
      likedByMe: true,
      replyCount: 1,
    });
    expect(ids((await api.request.get(`/comments/${top.id}/replies`)).body)).toEqual([reply.id]);
  });

  it("refuses to edit, like or delete a tombstone again (404), but it can still be answered", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Gone soon");
    await addComment(api, carol, path, "Reply", top.id);
    await api.request.delete(`/comments/${top.id}`).set(bob.auth);

    expectError(await api.request.put(`/comments/${top.id}`).set(bob.auth).send({ content: "Back" }), 404, "Comment not found");
    expectError(await api.request.post(`/comments/${top.id}/like`).set(carol.auth), 404, "Comment not found");
    expectError(await api.request.delete(`/comments/${top.id}`).set(alice.auth), 404, "Comment not found");
    const late = await addComment(api, dave, path, "Late reply", top.id);
    expect(late.parentId).toBe(top.id);
  });

  it("removes a tombstone with its last reply, likes and all", async () => {
    const { path } = await newPost(api, alice);
    const keep = await addComment(api, dave, path, "Unrelated");
    const top = await addComment(api, bob, path, "Thread");
    const r1 = await addComment(api, carol, path, "One", top.id);
    const r2 = await addComment(api, dave, path, "Two", top.id);
    await like(carol, top.id);
    await api.request.delete(`/comments/${top.id}`).set(bob.auth);

    await api.request.delete(`/comments/${r1.id}`).set(carol.auth);
    const kept = (await api.request.get(`${path}/comments`)).body;
    expect(ids(kept)).toContain(top.id);
    expect(kept.totalElements).toBe(2);
    const last = await api.request.delete(`/comments/${r2.id}`).set(dave.auth);

    expect(last.body).toEqual({ id: r2.id, deleted: true, tombstone: false });
    const after = (await api.request.get(`${path}/comments`)).body;
    expect(ids(after)).toEqual([keep.id]);
    expect(after.totalElements).toBe(1);
    expectError(await api.request.get(`/comments/${top.id}/replies`), 404, "Comment not found");
    expect(await api.db.kysely.selectFrom("CommentLike").select("userId").where("commentId", "=", top.id).execute()).toEqual([]);
    expect((await api.request.get(path)).body.commentCount).toBe(1);
  });

  it("keeps a live top-level comment when its last reply goes", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Alive");
    const reply = await addComment(api, carol, path, "Reply", top.id);

    await api.request.delete(`/comments/${reply.id}`).set(carol.auth);

    expect((await api.request.get(`${path}/comments`)).body.content[0]).toMatchObject({ id: top.id, deleted: false, replyCount: 0 });
  });
});

describe("commentCount", () => {
  it("counts comments and replies, not deleted ones, in a post's detail and in the hub's lists", async () => {
    const { hub, path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "One");
    await addComment(api, carol, path, "Two", top.id);
    const gone = await addComment(api, dave, path, "Three");
    await api.request.delete(`/comments/${gone.id}`).set(dave.auth);
    await api.request.delete(`/comments/${top.id}`).set(bob.auth); // a tombstone: not counted

    const detail = await api.request.get(path);
    const latest = await api.request.get(`${hubPath(hub.name)}/posts/latest`);
    const byLikes = await api.request.get(`${hubPath(hub.name)}/posts/by-likes`);
    const byId = await api.request.get(`/hub-posts/${detail.body.id}`);

    expect(detail.body.commentCount).toBe(1);
    expect(byId.body.commentCount).toBe(1);
    expect(latest.body.content[0].commentCount).toBe(1);
    expect(byLikes.body.content[0].commentCount).toBe(1);
  });

  it("counts a chapter's comments in its detail and in the series' chapter lists", async () => {
    const chapter = await newChapter(api, alice);
    const top = await addComment(api, bob, chapter.path, "One");
    await addComment(api, carol, chapter.path, "Two", top.id);
    await addComment(api, carol, chapter.path, "Three");

    expect((await api.request.get(chapter.path)).body.commentCount).toBe(3);
    for (const list of ["/chapters", "/chapters/latest", "/chapters/most-liked"]) {
      expect((await api.request.get(`${chapter.seriesPath}${list}`)).body.content[0].commentCount).toBe(3);
    }
  });

  it("is backfilled by the threadCount migration: top-level comments per post and chapter, tombstones included", async () => {
    const { path } = await newPost(api, alice);
    const chapter = await newChapter(api, alice);
    const top = await addComment(api, bob, path, "Thread");
    await addComment(api, carol, path, "Reply", top.id);
    await addComment(api, carol, path, "Another");
    await api.request.delete(`/comments/${top.id}`).set(bob.auth); // a tombstone: a thread still
    await addComment(api, dave, chapter.path, "On the chapter");
    const updates = fs
      .readFileSync(`prisma/${testEngine === "postgres" ? "postgres/" : ""}migrations/20261124090000_thread_count/migration.sql`, "utf8")
      .split(";")
      .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
      .filter((statement) => statement.startsWith("UPDATE"));

    await api.db.kysely.updateTable("Post").set({ threadCount: 0 }).execute();
    await api.db.kysely.updateTable("Chapter").set({ threadCount: 0 }).execute();
    for (const statement of updates) await sql.raw(statement).execute(api.db.kysely);
    api.dataChanged();

    expect(updates).toHaveLength(2);
    expect(await counterMismatches(api.db.kysely)).toMatchObject({ postThreads: 0, chapterThreads: 0 });
    expect((await api.request.get(`${path}/comments`)).body.totalElements).toBe(2);
    expect((await api.request.get(`${chapter.path}/comments`)).body.totalElements).toBe(1);
  });

  it("stays exact under 50 concurrent comments and replies, and 50 concurrent likes", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Busy thread");
    const users = await signedInUsers(api, 50);

    const created = await Promise.all(
      users.map((u, i) =>
        api.request
          .post(`${path}/comments`)
          .set(u.auth)
          .send(i % 2 === 0 ? { content: `Top ${i}` } : { content: `Reply ${i}`, parentId: top.id }),
      ),
    );
    const liked = await Promise.all(users.map((u) => api.request.post(`/comments/${top.id}/like`).set(u.auth)));

    expect(created.map((r) => r.status)).toEqual(users.map(() => 201));
    expect(liked.map((r) => r.status)).toEqual(users.map(() => 200));
    expect((await api.request.get(path)).body.commentCount).toBe(51);
    const list = await api.request.get(`${path}/comments?per_page=100`);
    expect(list.body.totalElements).toBe(26);
    expect(list.body.content[0]).toMatchObject({ id: top.id, likes: 50, replyCount: 25 });
    expect(await counterMismatches(api.db.kysely)).toMatchObject({
      commentLikes: 0,
      commentReplies: 0,
      postComments: 0,
      chapterComments: 0,
      postThreads: 0,
      chapterThreads: 0,
    });
  });

  it("stays exact when replies are deleted and added at once, the tombstone's thread included", async () => {
    const { path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Thread");
    const users = await signedInUsers(api, 20);
    const replies = await Promise.all(
      users.map(
        async (u) =>
          (await api.request.post(`${path}/comments`).set(u.auth).send({ content: "Early", parentId: top.id })).body.id as number,
      ),
    );
    await api.request.delete(`/comments/${top.id}`).set(bob.auth);

    const results = await Promise.all([
      ...users.map((u, i) => api.request.delete(`/comments/${replies[i]}`).set(u.auth)),
      ...users.slice(0, 10).map((u) => api.request.post(`${path}/comments`).set(u.auth).send({ content: "Late", parentId: top.id })),
    ]);

    // A late reply that found the tombstone already gone is refused (400); every other write went through.
    const refused = results.slice(20).filter((r) => r.status === 400).length;
    expect(results.slice(0, 20).map((r) => r.status)).toEqual(users.map(() => 200));
    expect(results.slice(20).every((r) => r.status === 201 || r.status === 400)).toBe(true);
    expect((await api.request.get(path)).body.commentCount).toBe(10 - refused);
    expect(await counterMismatches(api.db.kysely)).toMatchObject({
      commentLikes: 0,
      commentReplies: 0,
      postComments: 0,
      chapterComments: 0,
      postThreads: 0,
      chapterThreads: 0,
    });
  });
});

describe("notifications of a new comment", () => {
  it("tells the post's author of a top-level comment, and each person mentioned, once, with the strongest kind", async () => {
    const { post, path } = await newPost(api, alice);
    const carolBefore = await unreadOf(api, carol.id);

    const comment = await addComment(
      api,
      bob,
      path,
      `Hi @${alice.username} and @${carol.username.toUpperCase()}, @${bob.username} @nobody_here_x`,
    );

    const base = { actorId: bob.id, commentId: comment.id, postId: post.id, chapterId: null };
    expect(await notificationsAbout(api, { commentId: comment.id })).toEqual([
      { userId: alice.id, kind: "comment", ...base },
      { userId: carol.id, kind: "mention", ...base },
    ]);
    expect(await unreadOf(api, carol.id)).toBe(carolBefore + 1);
  });

  it("tells the author of the comment answered of a reply (not the post's author), also when it answered a reply", async () => {
    const { post, path } = await newPost(api, alice);
    const top = await addComment(api, bob, path, "Top");

    const reply = await addComment(api, carol, path, `Agreed @${dave.username} @${bob.username}`, top.id);
    const replyToReply = await addComment(api, dave, path, "Thanks", reply.id);

    const base = { commentId: reply.id, postId: post.id, chapterId: null };
    expect(await notificationsAbout(api, { commentId: reply.id })).toEqual([
      { userId: bob.id, kind: "reply", actorId: carol.id, ...base },
      { userId: dave.id, kind: "mention", actorId: carol.id, ...base },
    ]);
    expect(await notificationsAbout(api, { commentId: replyToReply.id })).toEqual([
      { userId: carol.id, kind: "reply", actorId: dave.id, commentId: replyToReply.id, postId: post.id, chapterId: null },
    ]);
  });

  it("tells the chapter's author, with the chapter as subject", async () => {
    const chapter = await newChapter(api, alice);

    const comment = await addComment(api, bob, chapter.path, "Great pages");

    expect(await notificationsAbout(api, { commentId: comment.id })).toEqual([
      { userId: alice.id, kind: "comment", actorId: bob.id, commentId: comment.id, postId: null, chapterId: chapter.id },
    ]);
  });

  it("tells nobody of their own comment or reply", async () => {
    const { path } = await newPost(api, alice);
    const before = await unreadOf(api, alice.id);

    const top = await addComment(api, alice, path, `My own post, @${alice.username}`);
    const reply = await addComment(api, alice, path, "And my own reply", top.id);

    expect(await notificationsAbout(api, { commentId: top.id })).toEqual([]);
    expect(await notificationsAbout(api, { commentId: reply.id })).toEqual([]);
    expect(await unreadOf(api, alice.id)).toBe(before);
  });

  it("tells at most 10 people mentioned in one comment", async () => {
    const { path } = await newPost(api, alice);
    const userIds = await insertUsers(api, 12);
    const names = await api.db.kysely.selectFrom("User").select(["id", "username"]).where("id", "in", userIds).orderBy("id").execute();

    const comment = await addComment(api, alice, path, names.map((u) => `@${u.username}`).join(" "));

    const told = await notificationsAbout(api, { commentId: comment.id });
    expect(told.map((n) => n.userId)).toEqual(names.slice(0, 10).map((u) => u.id));
    expect(told.every((n) => n.kind === "mention")).toBe(true);
  });

  it("tells people newly mentioned in an edit, not those mentioned before", async () => {
    const { path } = await newPost(api, alice);
    const comment = await addComment(api, bob, path, `Hello @${carol.username}`);

    await api.request
      .put(`/comments/${comment.id}`)
      .set(bob.auth)
      .send({ content: `Hello @${carol.username} and @${dave.username}` });

    const mentions = (await notificationsAbout(api, { commentId: comment.id })).filter((n) => n.kind === "mention");
    expect(mentions.map((n) => n.userId)).toEqual([carol.id, dave.id]);
  });

  it("takes a deleted comment's notifications with it, and the unread counts with them", async () => {
    const { path } = await newPost(api, alice);
    const before = await unreadOf(api, carol.id);
    const comment = await addComment(api, bob, path, `Psst @${carol.username}`);
    expect(await unreadOf(api, carol.id)).toBe(before + 1);

    await api.request.delete(`/comments/${comment.id}`).set(bob.auth);

    expect(await notificationsAbout(api, { commentId: comment.id })).toEqual([]);
    expect(await unreadOf(api, carol.id)).toBe(before);
  });
});

describe("mentions in posts", () => {
  it("tells each person mentioned in a new post, and on edit only those newly mentioned", async () => {
    const { hub } = await newPost(api, alice);
    const created = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ title: "Mentions", content: `Thanks @${bob.username} and @${alice.username}!`, hubId: hub.id });
    expect(created.status).toBe(201);
    const postId = created.body.id as number;

    expect(await notificationsAbout(api, { postId, commentId: null })).toEqual([
      { userId: bob.id, kind: "mention", actorId: alice.id, commentId: null, postId, chapterId: null },
    ]);

    const edited = await api.request
      .put(`/hub-posts/${postId}`)
      .set(alice.auth)
      .send({ title: "Mentions", content: `Thanks @${bob.username}, @${carol.username} and @${dave.username}!` });
    expect(edited.status).toBe(200);

    expect((await notificationsAbout(api, { postId, commentId: null })).map((n) => n.userId)).toEqual([bob.id, carol.id, dave.id]);
  });
});

describe("the comment rate limit (COMMENT_RATE_PER_MINUTE)", () => {
  it("refuses a user's comments beyond the limit with 429 and Retry-After; others may still comment", async () => {
    const limited = await startTestApi({ commentRatePerMinute: 3 });
    try {
      const [author, other] = [await limited.register("rate_author"), await limited.register("rate_other")];
      const hub = (await limited.request.post("/hubs").set(author.auth).send({ name: "Rate Hub" })).body;
      const post = (
        await limited.request.post("/hub-posts").set(author.auth).send({ title: "A post", content: "Long enough content", hubId: hub.id })
      ).body;
      const path = `${hubPath(hub.name)}/${post.id}/comments`;

      for (let i = 0; i < 3; i++)
        expect(
          (
            await limited.request
              .post(path)
              .set(author.auth)
              .send({ content: `Comment ${i}` })
          ).status,
        ).toBe(201);
      const refused = await limited.request.post(path).set(author.auth).send({ content: "One too many" });

      expectError(refused, 429);
      expect(refused.body.message).toMatch(/^You can post at most 3 comments a minute\. Please try again in \d+ seconds?\.$/);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect((await limited.request.post(path).set(other.auth).send({ content: "Still fine" })).status).toBe(201);
      expect((await limited.request.get(path)).body.totalElements).toBe(4);
    } finally {
      await limited.close();
    }
  });
});
