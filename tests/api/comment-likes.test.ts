// Likes of comments (docs/api.md §6, §10): idempotent, answering the new state, exact under concurrency.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newPost, signedInUsers } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";

let api: TestApi, alice: TestUser, bob: TestUser;
setUpSharedTestApi(["alice", "bob"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

async function newComment() {
  const { path } = await newPost(api, alice);
  const comment = await addComment(api, alice, path, "Like me");
  return { path, id: comment.id, like: `/comments/${comment.id}/like` };
}

/** The likes column and the rows behind it. */
async function likeCounts(commentId: number) {
  const { likes } = await api.db.kysely.selectFrom("Comment").select("likes").where("id", "=", commentId).executeTakeFirstOrThrow();
  const { rows } = await api.db.kysely
    .selectFrom("CommentLike")
    .select((eb) => eb.fn.countAll<number>().as("rows"))
    .where("commentId", "=", commentId)
    .executeTakeFirstOrThrow();
  return { likes, rows: Number(rows) };
}

describe("POST and DELETE /comments/{id}/like", () => {
  it("likes once however often it is sent, and answers the new state", async () => {
    const { id, like } = await newComment();

    const first = await api.request.post(like).set(bob.auth);
    const again = await api.request.post(like).set(bob.auth);

    expect(first.body).toEqual({ liked: true, likes: 1 });
    expect(again.body).toEqual({ liked: true, likes: 1 });
    expect(await likeCounts(id)).toEqual({ likes: 1, rows: 1 });
  });

  it("unlikes, and unliking what was never liked changes nothing", async () => {
    const { id, like } = await newComment();
    await api.request.post(like).set(bob.auth);

    const unliked = await api.request.delete(like).set(bob.auth);
    const never = await api.request.delete(like).set(alice.auth);

    expect(unliked.body).toEqual({ liked: false, likes: 0 });
    expect(never.body).toEqual({ liked: false, likes: 0 });
    expect(await likeCounts(id)).toEqual({ likes: 0, rows: 0 });
  });

  it("shows likes and likedByMe in the lists", async () => {
    const { path, like } = await newComment();
    await api.request.post(like).set(bob.auth);

    expect((await api.request.get(`${path}/comments`).set(bob.auth)).body.content[0]).toMatchObject({ likes: 1, likedByMe: true });
    expect((await api.request.get(`${path}/comments`).set(alice.auth)).body.content[0]).toMatchObject({ likes: 1, likedByMe: false });
  });

  it("answers 401 without a token and 404 for no comment", async () => {
    const { like } = await newComment();

    expectError(await api.request.post(like), 401);
    expectError(await api.request.delete(like), 401);
    expectError(await api.request.post("/comments/987654321/like").set(bob.auth), 404, "Comment not found");
    expectError(await api.request.delete("/comments/987654321/like").set(bob.auth), 404, "Comment not found");
  });

  it("counts exactly under 50 concurrent likes, then 50 concurrent unlikes", async () => {
    const { id, like } = await newComment();
    const users = await signedInUsers(api, 50);

    const liked = await Promise.all(users.map((u) => api.request.post(like).set(u.auth)));
    expect(liked.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...liked.map((r) => r.body.likes as number))).toBe(50);
    expect(await likeCounts(id)).toEqual({ likes: 50, rows: 50 });

    await Promise.all(users.map((u) => api.request.delete(like).set(u.auth)));
    expect(await likeCounts(id)).toEqual({ likes: 0, rows: 0 });
  });
});
