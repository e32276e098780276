import { beforeAll, describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { countRows, createHub, createPost, hubPath, ids, insertPost, joinHub, VALID_POST } from "../helpers/fixtures.ts";

let api: TestApi, alice: TestUser, bob: TestUser;
setUpSharedTestApi(["alice", "bob"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

describe("POST /hub-posts", () => {
  it("answers 201 with the full post, content included", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ ...VALID_POST, hubId: hub.id });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: VALID_POST.title,
      content: VALID_POST.content,
      description: VALID_POST.description,
      date: expect.any(String),
      likes: 0,
      commentCount: 0,
      authorId: alice.id,
      authorName: alice.username,
      hubId: hub.id,
      hubName: hub.name,
      likedByMe: false,
      authorProfileImageID: null,
      removed: null,
    });
    expect(new Date(res.body.date).toISOString()).toBe(res.body.date);
  });

  it("counts the new post in its hub's postCount", async () => {
    const hub = await createHub(api, alice);
    await createPost(api, alice, hub.id);

    const res = await api.request.get(`/hubs/id/${hub.id}`);

    expect(res.body.postCount).toBe(1);
  });

  it("answers 401 without a token and creates nothing", async () => {
    const hub = await createHub(api, alice);
    const before = await countRows(api, "Post");

    const res = await api.request.post("/hub-posts").send({ ...VALID_POST, hubId: hub.id });

    expect(res.status).toBe(401);
    expect(await countRows(api, "Post")).toBe(before);
  });

  it("answers 403 with the message of docs/api.md §5 to a non-member and creates nothing", async () => {
    const hub = await createHub(api, alice);
    const before = await countRows(api, "Post");

    const res = await api.request
      .post("/hub-posts")
      .set(bob.auth)
      .send({ ...VALID_POST, hubId: hub.id });

    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 403, error: "Forbidden", message: "You do not have permission to post in this hub" });
    expect(await countRows(api, "Post")).toBe(before);
  });

  it("lets a user post once they joined the hub", async () => {
    const hub = await createHub(api, alice);
    await joinHub(api, bob, hub.id);

    const res = await api.request
      .post("/hub-posts")
      .set(bob.auth)
      .send({ ...VALID_POST, hubId: hub.id });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ authorId: bob.id, authorName: bob.username, hubId: hub.id });
  });

  it("answers 403 to a user who left the hub", async () => {
    const hub = await createHub(api, alice);
    await joinHub(api, bob, hub.id);
    await api.request.delete(`/user/${bob.id}/member-hubs/${hub.id}`).set(bob.auth);

    const res = await api.request
      .post("/hub-posts")
      .set(bob.auth)
      .send({ ...VALID_POST, hubId: hub.id });

    expect(res.status).toBe(403);
  });

  it("answers 404 'Hub not found' for an unknown hub", async () => {
    const before = await countRows(api, "Post");

    const res = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ ...VALID_POST, hubId: 987654 });

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Hub not found");
    expect(await countRows(api, "Post")).toBe(before);
  });

  it.each([
    ["a missing hubId", { hubId: undefined }],
    ["a hubId that is text", { hubId: "1" }],
    ["a fractional hubId", { hubId: 1.5 }],
    ["a zero hubId", { hubId: 0 }],
  ])("rejects %s on the hubId field", async (_case, override) => {
    const res = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ ...VALID_POST, ...override });

    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(["hubId"]);
  });

  it.each([
    ["a missing title", { title: undefined }, "title", "Post title is required"],
    ["an empty title", { title: "" }, "title", "Post title is required"],
    ["a title of spaces", { title: "      " }, "title", "Post title is required"],
    ["a title of 4 characters", { title: "abcd" }, "title", "Title must be at least 5 characters"],
    ["a title of 4 characters once trimmed", { title: "  abcd  " }, "title", "Title must be at least 5 characters"],
    ["a title of 4 characters once composed", { title: "e\u0301e\u0301e\u0301e\u0301" }, "title", "Title must be at least 5 characters"],
    ["a title of 201 characters", { title: "t".repeat(201) }, "title", "Title must be less than 200 characters"],
    ["a missing content", { content: undefined }, "content", "Post content is required"],
    ["an empty content", { content: "" }, "content", "Post content is required"],
    ["a content of 9 characters", { content: "123456789" }, "content", "Content must be at least 10 characters"],
    ["a content of 10001 characters", { content: "c".repeat(10_001) }, "content", "Content must be less than 10000 characters"],
    ["a description of 301 characters", { description: "d".repeat(301) }, "description", "Description must be less than 300 characters"],
  ])("rejects %s with its message (docs/web.md §4) and creates nothing", async (_case, override, field, message) => {
    const hub = await createHub(api, alice);
    const before = await countRows(api, "Post");

    const res = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ ...VALID_POST, hubId: hub.id, ...override });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: "Bad Request", message });
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await countRows(api, "Post")).toBe(before);
  });

  it.each([
    ["a title of 5 characters", { title: "abcde" }],
    ["a title of 200 characters", { title: "t".repeat(200) }],
    ["a content of 10 characters", { content: "0123456789" }],
    ["a content of 10000 characters", { content: "c".repeat(10_000) }],
    ["a description of 300 characters", { description: "d".repeat(300) }],
    ["no description", { description: undefined }],
  ])("accepts %s", async (_case, override) => {
    const hub = await createHub(api, alice);

    const res = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ ...VALID_POST, hubId: hub.id, ...override });

    expect(res.status).toBe(201);
  });

  it("stores a missing description as empty", async () => {
    const hub = await createHub(api, alice);

    const post = await createPost(api, alice, hub.id, { description: undefined });

    expect((await api.request.get(`/hub-posts/${post.id}`)).body.description).toBe("");
  });

  it("stores title, content and description trimmed", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request
      .post("/hub-posts")
      .set(alice.auth)
      .send({ title: "  Trimmed title  ", content: "\n  Some **markdown** body\n\n", description: " short ", hubId: hub.id });

    expect(res.body).toMatchObject({ title: "Trimmed title", content: "Some **markdown** body", description: "short" });
  });

  it("keeps line breaks inside the content", async () => {
    const hub = await createHub(api, alice);
    const content = "# Heading\n\nA paragraph\twith a tab.";

    const post = await createPost(api, alice, hub.id, { content });

    expect((await api.request.get(`/hub-posts/${post.id}`)).body.content).toBe(content);
  });
});

describe("GET /hub-posts/{id}", () => {
  it("answers the post with its content", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request.get(`/hub-posts/${post.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, content: VALID_POST.content, hubName: hub.name, authorName: alice.username });
  });

  it("answers 404 'Post not found' for an unknown post", async () => {
    const res = await api.request.get("/hub-posts/987654");

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Post not found");
  });

  it("answers 400 for an id that is not a number", async () => {
    const res = await api.request.get("/hub-posts/abc");

    expect(res.status).toBe(400);
  });
});

describe("PUT /hub-posts/{id}", () => {
  it("lets the author edit title, content and description", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);
    const edit = { title: "Edited title", content: "Edited content body", description: "Edited" };

    const res = await api.request.put(`/hub-posts/${post.id}`).set(alice.auth).send(edit);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, ...edit, hubId: hub.id, authorId: alice.id });
  });

  it("keeps the post's date, likes and hub when edited", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);
    await api.request.post(`/hubs/${hub.id}/${post.id}/like`).set(bob.auth);
    const before = (await api.request.get(`/hub-posts/${post.id}`)).body;

    const res = await api.request.put(`/hub-posts/${post.id}`).set(alice.auth).send({ title: "New title", content: "New content here" });

    expect(res.body).toMatchObject({ date: before.date, likes: 1, hubId: hub.id });
  });

  it("keeps the description when the edit leaves it out", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id, { description: "Kept words" });

    const res = await api.request.put(`/hub-posts/${post.id}`).set(alice.auth).send({ title: "New title", content: "New content here" });

    expect(res.body.description).toBe("Kept words");
  });

  it("clears the description when the edit sends null", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id, { description: "Soon gone" });

    const res = await api.request
      .put(`/hub-posts/${post.id}`)
      .set(alice.auth)
      .send({ title: "New title", content: "New content here", description: null });

    expect(res.body.description).toBe("");
  });

  it("answers 403 to someone other than the author and changes nothing", async () => {
    const hub = await createHub(api, alice);
    await joinHub(api, bob, hub.id);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request.put(`/hub-posts/${post.id}`).set(bob.auth).send({ title: "Hijacked title", content: "Hijacked content" });

    expect(res.status).toBe(403);
    expect((await api.request.get(`/hub-posts/${post.id}`)).body.title).toBe(VALID_POST.title);
  });

  it("answers 401 without a token", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request.put(`/hub-posts/${post.id}`).send(VALID_POST);

    expect(res.status).toBe(401);
  });

  it("answers 404 for an unknown post", async () => {
    const res = await api.request.put("/hub-posts/987654").set(alice.auth).send(VALID_POST);

    expect(res.status).toBe(404);
  });

  it.each([
    [{ title: "abcd" }, "title", "Title must be at least 5 characters"],
    [{ title: "" }, "title", "Post title is required"],
    [{ content: "short" }, "content", "Content must be at least 10 characters"],
    [{ content: "c".repeat(10_001) }, "content", "Content must be less than 10000 characters"],
    [{ description: "d".repeat(301) }, "description", "Description must be less than 300 characters"],
  ])("rejects %j with its message (docs/web.md §4) and keeps the post", async (override, field, message) => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request
      .put(`/hub-posts/${post.id}`)
      .set(alice.auth)
      .send({ ...VALID_POST, ...override });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect((await api.request.get(`/hub-posts/${post.id}`)).body).toMatchObject(VALID_POST);
  });
});

describe("GET /hubs/{hubName}/{postId}", () => {
  it("answers the post with its content under its hub's name, in any case", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request.get(`${hubPath(hub.name.toUpperCase())}/${post.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, content: VALID_POST.content, hubId: hub.id, hubName: hub.name });
  });

  it("answers 404 'Post not found' for a post requested under another hub", async () => {
    const hub = await createHub(api, alice);
    const other = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request.get(`${hubPath(other.name)}/${post.id}`);

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Post not found");
  });

  it("answers 404 for an unknown post in a known hub", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.get(`${hubPath(hub.name)}/987654`);

    expect(res.status).toBe(404);
  });

  it("answers 404 for an unknown hub", async () => {
    const hub = await createHub(api, alice);
    const post = await createPost(api, alice, hub.id);

    const res = await api.request.get(`/hubs/no-such-hub-anywhere/${post.id}`);

    expect(res.status).toBe(404);
  });

  it("answers 400 for a post id that is not a number", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.get(`${hubPath(hub.name)}/abc`);

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("postId");
  });
});

describe("GET /hubs/{name}/posts/latest and /by-likes", () => {
  const T = Date.UTC(2025, 5, 1);
  let hub: { id: number; name: string };
  const post = {} as Record<"old" | "tieA" | "tieB" | "newest" | "mid", number>;
  beforeAll(async () => {
    hub = await createHub(api, alice);
    post.old = await insertPost(api, { hubId: hub.id, authorId: alice.id, title: "Old and loved", date: T, likes: 3 });
    post.tieA = await insertPost(api, { hubId: hub.id, authorId: alice.id, title: "Tie alpha", date: T + 1000, likes: 1 });
    post.tieB = await insertPost(api, { hubId: hub.id, authorId: alice.id, title: "Tie beta", date: T + 1000, likes: 1 });
    post.newest = await insertPost(api, { hubId: hub.id, authorId: alice.id, title: "Newest", date: T + 2000, likes: 0 });
    post.mid = await insertPost(api, { hubId: hub.id, authorId: alice.id, title: "Middle", date: T + 500, likes: 3 });
  });

  it("lists the latest posts by date descending, ties broken by id descending", async () => {
    const res = await api.request.get(`${hubPath(hub.name)}/posts/latest`);

    expect(ids(res.body)).toEqual([post.newest, post.tieB, post.tieA, post.mid, post.old]);
    expect(res.body).toMatchObject({ page: 1, perPage: 10, totalPages: 1, totalElements: 5 });
  });

  it("lists the most liked posts by likes descending, ties broken by id descending", async () => {
    const res = await api.request.get(`${hubPath(hub.name)}/posts/by-likes`);

    expect(ids(res.body)).toEqual([post.mid, post.old, post.tieB, post.tieA, post.newest]);
    expect(res.body.content.map((p: { likes: number }) => p.likes)).toEqual([3, 3, 1, 1, 0]);
  });

  it("answers the hub's latest post alone with per_page=1", async () => {
    const res = await api.request.get(`${hubPath(hub.name)}/posts/latest?per_page=1`);

    expect(ids(res.body)).toEqual([post.newest]);
    expect(res.body).toMatchObject({ totalPages: 5, totalElements: 5 });
  });

  it("pages with the size alias", async () => {
    const res = await api.request.get(`${hubPath(hub.name)}/posts/by-likes?page=2&size=2`);

    expect(ids(res.body)).toEqual([post.tieB, post.tieA]);
    expect(res.body).toMatchObject({ page: 2, perPage: 2, totalPages: 3 });
  });

  it("leaves content out of list items and names author and hub", async () => {
    const res = await api.request.get(`${hubPath(hub.name)}/posts/latest`);

    for (const item of res.body.content) {
      expect(item).not.toHaveProperty("content");
      expect(item).toMatchObject({ authorName: alice.username, hubName: hub.name, hubId: hub.id, likedByMe: false });
    }
  });

  it("finds the hub by name in any case and by numeric id", async () => {
    const [byCase, byId] = await Promise.all([
      api.request.get(`${hubPath(hub.name.toLowerCase())}/posts/latest`),
      api.request.get(`/hubs/${hub.id}/posts/latest`),
    ]);

    expect(ids(byCase.body)).toHaveLength(5);
    expect(ids(byId.body)).toEqual(ids(byCase.body));
  });

  it("answers an empty list for a hub without posts", async () => {
    const empty = await createHub(api, alice);

    const res = await api.request.get(`${hubPath(empty.name)}/posts/latest`);

    expect(res.body).toEqual({ content: [], page: 1, perPage: 10, totalPages: 1, totalElements: 0 });
  });

  it.each(["latest", "by-likes"])("answers 404 'No hub found.' for the %s posts of an unknown hub", async (order) => {
    const res = await api.request.get(`/hubs/no-such-hub-anywhere/posts/${order}`);

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("No hub found.");
  });

  it("lists only the hub's own posts", async () => {
    const other = await createHub(api, alice);
    const elsewhere = await createPost(api, alice, other.id);

    const res = await api.request.get(`${hubPath(hub.name)}/posts/latest?per_page=100`);

    expect(ids(res.body)).not.toContain(elsewhere.id);
  });
});
