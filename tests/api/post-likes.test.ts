import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { countRows, createHub, createPost, hubPath } from "../helpers/fixtures.ts";

let api: TestApi, alice: TestUser, bob: TestUser;
setUpSharedTestApi(["alice", "bob"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

/** A fresh hub with one post by alice; answers the post's like URL and detail URL. */
async function newPost() {
  const hub = await createHub(api, alice);
  const post = await createPost(api, alice, hub.id);
  const base = hubPath(hub.name);
  return { hub, post, like: `${base}/${post.id}/like`, detail: `${base}/${post.id}`, list: `${base}/posts/latest` };
}

describe("POST /hubs/{hubName}/{postId}/like", () => {
  it("answers the new state and count", async () => {
    const { like } = await newPost();

    const res = await api.request.post(like).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ liked: true, likes: 1 });
  });

  it("counts a second like by the same user once", async () => {
    const { like, detail } = await newPost();
    await api.request.post(like).set(bob.auth);

    const res = await api.request.post(like).set(bob.auth);

    expect(res.body).toEqual({ liked: true, likes: 1 });
    expect((await api.request.get(detail)).body.likes).toBe(1);
  });

  it("counts likes by different users separately", async () => {
    const { like } = await newPost();
    await api.request.post(like).set(alice.auth);

    const res = await api.request.post(like).set(bob.auth);

    expect(res.body).toEqual({ liked: true, likes: 2 });
  });

  it("answers 401 without a token and counts nothing", async () => {
    const { like, detail } = await newPost();

    const res = await api.request.post(like);

    expect(res.status).toBe(401);
    expect((await api.request.get(detail)).body.likes).toBe(0);
  });

  it("answers 404 'Post not found' for a post liked under another hub and counts nothing", async () => {
    const { post } = await newPost();
    const other = await createHub(api, alice);
    const before = await countRows(api, "PostLike");

    const res = await api.request.post(`/hubs/${encodeURIComponent(other.name)}/${post.id}/like`).set(bob.auth);

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Post not found");
    expect(await countRows(api, "PostLike")).toBe(before);
  });

  it("answers 404 for an unknown post", async () => {
    const { hub } = await newPost();

    const res = await api.request.post(`/hubs/${encodeURIComponent(hub.name)}/987654/like`).set(bob.auth);

    expect(res.status).toBe(404);
  });

  it("answers 404 for an unknown hub", async () => {
    const { post } = await newPost();

    const res = await api.request.post(`/hubs/no-such-hub-anywhere/${post.id}/like`).set(bob.auth);

    expect(res.status).toBe(404);
  });

  it("answers 400 for a post id that is not a number", async () => {
    const { hub } = await newPost();

    const res = await api.request.post(`/hubs/${encodeURIComponent(hub.name)}/abc/like`).set(bob.auth);

    expect(res.status).toBe(400);
  });
});

describe("DELETE /hubs/{hubName}/{postId}/like", () => {
  it("removes the caller's like and answers the new state and count", async () => {
    const { like } = await newPost();
    await api.request.post(like).set(alice.auth);
    await api.request.post(like).set(bob.auth);

    const res = await api.request.delete(like).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ liked: false, likes: 1 });
  });

  it("changes nothing when the caller never liked the post", async () => {
    const { like } = await newPost();
    await api.request.post(like).set(alice.auth);

    const res = await api.request.delete(like).set(bob.auth);

    expect(res.body).toEqual({ liked: false, likes: 1 });
  });

  it("counts a second unlike once", async () => {
    const { like, detail } = await newPost();
    await api.request.post(like).set(bob.auth);
    await api.request.delete(like).set(bob.auth);

    const res = await api.request.delete(like).set(bob.auth);

    expect(res.body).toEqual({ liked: false, likes: 0 });
    expect((await api.request.get(detail)).body.likes).toBe(0);
  });

  it("answers 401 without a token and keeps the like", async () => {
    const { like, detail } = await newPost();
    await api.request.post(like).set(bob.auth);

    const res = await api.request.delete(like);

    expect(res.status).toBe(401);
    expect((await api.request.get(detail)).body.likes).toBe(1);
  });

  it("answers 404 for a post unliked under another hub", async () => {
    const { post } = await newPost();
    const other = await createHub(api, alice);

    const res = await api.request.delete(`/hubs/${encodeURIComponent(other.name)}/${post.id}/like`).set(bob.auth);

    expect(res.status).toBe(404);
  });
});

describe("likedByMe", () => {
  it("is true in the detail for the liker, false for another user and for a guest", async () => {
    const { like, detail } = await newPost();
    await api.request.post(like).set(bob.auth);

    const [liker, other, guest] = await Promise.all([
      api.request.get(detail).set(bob.auth),
      api.request.get(detail).set(alice.auth),
      api.request.get(detail),
    ]);

    expect([liker.body.likedByMe, other.body.likedByMe, guest.body.likedByMe]).toEqual([true, false, false]);
  });

  it("is true in GET /hub-posts/{id} for the liker", async () => {
    const { post, like } = await newPost();
    await api.request.post(like).set(bob.auth);

    const res = await api.request.get(`/hub-posts/${post.id}`).set(bob.auth);

    expect(res.body).toMatchObject({ likedByMe: true, likes: 1 });
  });

  it("is true in the lists for the liker only", async () => {
    const { post, like, list } = await newPost();
    await api.request.post(like).set(bob.auth);
    const byLikes = list.replace(/latest$/, "by-likes");

    const [liker, other, guest, likerByLikes] = await Promise.all([
      api.request.get(list).set(bob.auth),
      api.request.get(list).set(alice.auth),
      api.request.get(list),
      api.request.get(byLikes).set(bob.auth),
    ]);

    const mine = (body: { content: { id: number; likedByMe: boolean }[] }) => body.content.find((p) => p.id === post.id)?.likedByMe;
    expect([mine(liker.body), mine(other.body), mine(guest.body), mine(likerByLikes.body)]).toEqual([true, false, false, true]);
  });

  it("marks only the liked post in a list of several", async () => {
    const { hub, like, post, list } = await newPost();
    const unliked = await createPost(api, alice, hub.id);
    await api.request.post(like).set(bob.auth);

    const res = await api.request.get(list).set(bob.auth);

    const liked = Object.fromEntries(res.body.content.map((p: { id: number; likedByMe: boolean }) => [p.id, p.likedByMe]));
    expect(liked).toEqual({ [post.id]: true, [unliked.id]: false });
  });

  it("is false again after the liker unlikes", async () => {
    const { like, detail } = await newPost();
    await api.request.post(like).set(bob.auth);
    await api.request.delete(like).set(bob.auth);

    const res = await api.request.get(detail).set(bob.auth);

    expect(res.body).toMatchObject({ likedByMe: false, likes: 0 });
  });

  it("moves a post up the by-likes list once liked", async () => {
    const { hub, post, list } = await newPost();
    const later = await createPost(api, alice, hub.id);
    const byLikes = list.replace(/latest$/, "by-likes");
    await api.request.post(`/hubs/${encodeURIComponent(hub.name)}/${post.id}/like`).set(bob.auth);

    const res = await api.request.get(byLikes);

    expect(res.body.content.map((p: { id: number }) => p.id)).toEqual([post.id, later.id]);
  });
});

describe("counts under concurrency", () => {
  it("keeps likes equal to the like rows after a burst of likes and unlikes", async () => {
    const { post, like, detail } = await newPost();
    const users = await Promise.all(Array.from({ length: 6 }, () => api.register()));

    await Promise.all(
      users.flatMap((u, i) => [
        api.request.post(like).set(u.auth),
        api.request.post(like).set(u.auth),
        ...(i % 2 === 0 ? [api.request.delete(like).set(u.auth)] : []),
      ]),
    );

    const rows = await api.db.kysely.selectFrom("PostLike").select("userId").where("postId", "=", post.id).execute();
    expect((await api.request.get(detail)).body.likes).toBe(rows.length);
  });
});
