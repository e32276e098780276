// Deleting posts, chapters, series and hubs (docs/api.md §15, docs/decisions/018-governance.md): afterwards the thing
// and everything inside it answer 404, every count and list moved in the same transaction, and its images that
// nothing else uses are gone from the store (the data folder, or the S3 bucket on the postgres project).
import { describe, expect, it } from "vitest";
import { counterMismatches } from "../../seed/counters.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, joinHub, uniqueName } from "../helpers/fixtures.ts";
import { keptImageBytes, uploadPng } from "../helpers/images.ts";
import { NO_COUNTER_MISMATCHES } from "../helpers/seeded-folder.ts";
import { storedImageReader, storedImages } from "../helpers/stored-images.ts";
import { HUB_BATCH_POSTS, SERIES_BATCH_CHAPTERS } from "../../server/deletion/deletion.queries.ts";

let api: TestApi;
let author: TestUser;
let reader: TestUser;
let stranger: TestUser;

setUpSharedTestApi(["del_author", "del_reader", "del_stranger"], (started, users) => {
  api = started;
  [author, reader, stranger] = users;
});

const unread = async (user: TestUser) => (await api.request.get("/me/notifications/unread-count").set(user.auth)).body.count as number;
const imageUrl = (id: number) => `http://localhost/images/${id}`;
const hubDetail = async (name: string) => (await api.request.get(hubPath(name))).body as { postCount: number; memberCount: number };

const { track, expectImageGone } = storedImages(() => api);
const originalOf = (id: number, width?: number) => storedImageReader(api, id, width);

/** The release job finished (no release rows, no job): images still used stay. */
async function releasesDone() {
  await expect
    .poll(async () => (await api.db.kysely.selectFrom("ImageRelease").select("imageId").execute()).length, { timeout: 10_000 })
    .toBe(0);
  await expect
    .poll(async () => (await api.db.kysely.selectFrom("Job").select("id").where("kind", "=", "image-release").execute()).length, {
      timeout: 10_000,
    })
    .toBe(0);
}

/** Grants or takes back admin (User.isAdmin, 0 or 1). */
const setAdmin = (user: TestUser, on: boolean) =>
  api.db.kysely
    .updateTable("User")
    .set({ isAdmin: on ? 1 : 0 })
    .where("id", "=", user.id)
    .execute();

async function expectCountersConsistent() {
  expect(await counterMismatches(api.db.kysely)).toEqual(NO_COUNTER_MISMATCHES);
}

describe("DELETE /hub-posts/{id}", () => {
  it("removes the post with its comments, likes and notifications, moves every count, and removes its unused image", async () => {
    const hub = await createHub(api, author);
    await joinHub(api, reader, hub.id);
    // The join notification is about the hub: it stays.
    const authorBaseline = await unread(author);
    const readerBaseline = await unread(reader);
    const own = await uploadPng(api, author, 400, 300);
    const shared = await uploadPng(api, author);
    const post = await createPost(api, author, hub.id, { content: `Look ![a](${imageUrl(own)}) and ![b](${imageUrl(shared)})` });
    // Another post embeds the shared image: it stays.
    const other = await createPost(api, author, hub.id, { content: `Again ![b](${imageUrl(shared)})` });
    await api.request
      .post(`${hubPath(hub.name)}/${post.id}/like`)
      .set(reader.auth)
      .expect(200);
    const placePath = `${hubPath(hub.name)}/${post.id}`;
    const top = await addComment(api, reader, placePath, "A comment @del_author");
    await addComment(api, author, placePath, "A reply", top.id);
    await api.request.post(`/comments/${top.id}/like`).set(author.auth).expect(200);
    const authorUnreadBefore = await unread(author);
    const readerUnreadBefore = await unread(reader);
    expect(authorUnreadBefore).toBeGreaterThan(authorBaseline);
    expect(readerUnreadBefore).toBeGreaterThan(readerBaseline);
    expect((await hubDetail(hub.name)).postCount).toBe(2);

    await track(own, shared);
    // A kept rendition goes with the original.
    expect((await api.request.get(`/images/${own}?w=160`)).status).toBe(200);
    const rendition = await originalOf(own, 160);
    expect(await rendition()).not.toBeNull();
    const res = await api.request.delete(`/hub-posts/${post.id}`).set(author.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ type: "post", id: post.id, deleted: true });

    expectError(await api.request.get(`/hub-posts/${post.id}`), 404, "Post not found");
    expect((await api.request.get(placePath)).status).toBe(404);
    expect((await api.request.get(`${placePath}/comments`)).status).toBe(404);
    expect((await api.request.get(`/comments/${top.id}/replies`)).status).toBe(404);
    expect((await hubDetail(hub.name)).postCount).toBe(1);
    const latest = await api.request.get(`${hubPath(hub.name)}/posts/latest`);
    expect(latest.body.content.map((p: { id: number }) => p.id)).toEqual([other.id]);
    expect(latest.body.totalElements).toBe(1);
    const byLikes = await api.request.get(`${hubPath(hub.name)}/posts/by-likes`);
    expect(byLikes.body.content.map((p: { id: number }) => p.id)).toEqual([other.id]);
    const feed = await api.request.get("/me/feed").set(reader.auth);
    expect(JSON.stringify(feed.body)).not.toContain(`"id":${post.id},`);
    expect(await unread(author)).toBe(authorBaseline);
    expect(await unread(reader)).toBe(readerBaseline);
    const about = await api.db.kysely
      .selectFrom("Notification")
      .select("id")
      .where((eb) => eb.or([eb("postId", "=", post.id), eb("commentId", "=", top.id)]))
      .execute();
    expect(about).toEqual([]);
    await expectCountersConsistent();

    await expectImageGone(own);
    expect(await rendition()).toBeNull();
    await releasesDone();
    expect(await keptImageBytes(api, shared)).not.toBeNull();
    expect((await api.request.get(`/images/${shared}`)).status).toBe(200);
  });

  it("keeps an image of someone else's that the post embedded, even when nothing uses it any more", async () => {
    const hub = await createHub(api, author);
    await joinHub(api, reader, hub.id);
    const theirs = await uploadPng(api, reader);
    // The reader publishes the image in a post of theirs, the author embeds it, then the reader's post goes.
    const readers = await createPost(api, reader, hub.id, { content: `Mine ![r](${imageUrl(theirs)})` });
    const post = await createPost(api, author, hub.id, { content: `Borrowed ![r](${imageUrl(theirs)})` });
    await api.request.delete(`/hub-posts/${readers.id}`).set(reader.auth).expect(200);
    await releasesDone();
    expect((await api.request.get(`/images/${theirs}`)).status).toBe(200);

    await api.request.delete(`/hub-posts/${post.id}`).set(author.auth).expect(200);

    await releasesDone();
    expect(await keptImageBytes(api, theirs)).not.toBeNull();
    expect((await api.request.get(`/images/${theirs}`)).status).toBe(200);
  });

  it("lets a moderator of the hub and an admin delete, and no one else", async () => {
    const hub = await createHub(api, author);
    const [a, b, c] = [await createPost(api, author, hub.id), await createPost(api, author, hub.id), await createPost(api, author, hub.id)];
    expectError(await api.request.delete(`/hub-posts/${a.id}`).set(stranger.auth), 403);
    expect((await api.request.delete(`/hub-posts/${a.id}`)).status).toBe(401);

    await api.db.kysely
      .insertInto("HubModerator")
      .values({ hubId: hub.id, userId: stranger.id, addedById: author.id, createdAt: Date.now() })
      .execute();
    expect((await api.request.delete(`/hub-posts/${a.id}`).set(stranger.auth)).status).toBe(200);

    expectError(await api.request.delete(`/hub-posts/${b.id}`).set(reader.auth), 403);
    await setAdmin(reader, true);
    try {
      expect((await api.request.delete(`/hub-posts/${b.id}`).set(reader.auth)).status).toBe(200);
    } finally {
      await setAdmin(reader, false);
    }
    expectError(await api.request.delete(`/hub-posts/${b.id}`).set(author.auth), 404, "Post not found");
    expect((await hubDetail(hub.name)).postCount).toBe(1);
    expect((await api.request.get(`/hub-posts/${c.id}`)).status).toBe(200);
    await expectCountersConsistent();
  });
});

describe("DELETE /series/{name}/{chapterNumber}", () => {
  it("removes the chapter with its pages, comments and notifications, and its page images", async () => {
    const chapter = await newChapter(api, author);
    await api.request
      .post(`/user/${reader.id}/followed-series/${(await api.request.get(chapter.seriesPath)).body.id}`)
      .set(reader.auth)
      .expect(200);
    const baseline = await unread(author);
    const pages = await api.db.kysely.selectFrom("ChapterPage").select("imageId").where("chapterId", "=", chapter.id).execute();
    await addComment(api, reader, chapter.path, "Nice pages");
    await api.request.post(`${chapter.path}/like`).set(reader.auth).expect(200);
    expect(await unread(author)).toBeGreaterThan(baseline);

    await track(...pages.map((p) => p.imageId));
    expectError(await api.request.delete(chapter.path).set(stranger.auth), 403);
    const res = await api.request.delete(chapter.path).set(author.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ type: "chapter", id: chapter.id, deleted: true });

    expectError(await api.request.get(chapter.path), 404, "Chapter not found");
    const series = await api.request.get(chapter.seriesPath);
    expect(series.body.chapterCount).toBe(0);
    expect((await api.request.get(`${chapter.seriesPath}/chapters`)).body.totalElements).toBe(0);
    expect(await unread(author)).toBe(baseline);
    await expectCountersConsistent();
    for (const { imageId } of pages) await expectImageGone(imageId);
    expectError(await api.request.delete(chapter.path).set(author.auth), 404, "Chapter not found");
  });
});

describe("DELETE /series/{id} and DELETE /hubs/{id}", () => {
  it("removes a series with its chapters, follows and logo; lists, search and totals move", async () => {
    const logo = await uploadPng(api, author);
    const name = uniqueName("Doomed");
    const created = await api.request.post("/series").set(author.auth).send({ name, profileImageId: logo });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const page = await uploadPng(api, author);
    await api.request
      .post(`/series/${id}/chapters`)
      .set(author.auth)
      .send({ title: "One", pages: [page] })
      .expect(201);
    await api.request.post(`/user/${reader.id}/followed-series/${id}`).set(reader.auth).expect(200);
    const total = (await api.request.get("/series")).body.totalElements as number;

    await track(logo, page);
    expectError(await api.request.delete(`/series/${id}`).set(reader.auth), 403);
    expect((await api.request.delete(`/series/${id}`).set(author.auth)).body).toEqual({ type: "series", id, deleted: true });

    expectError(await api.request.get(`/series/${id}`), 404);
    expect((await api.request.get(`/series/${id}/1`)).status).toBe(404);
    expect((await api.request.get("/series")).body.totalElements).toBe(total - 1);
    expect((await api.request.get(`/series/search?name=${encodeURIComponent(name)}`)).body.totalElements).toBe(0);
    expect((await api.request.get(`/user/${reader.id}/followed-series`)).body.map((s: { id: number }) => s.id)).not.toContain(id);
    expect((await api.request.get(`/user/${author.id}/created-series`)).body.map((s: { id: number }) => s.id)).not.toContain(id);
    await expectCountersConsistent();
    await expectImageGone(logo);
    await expectImageGone(page);
  });

  it("removes a hub with its posts, comments, members and logo; an image another place uses stays", async () => {
    const baseline = await unread(author);
    const logo = await uploadPng(api, author);
    const kept = await uploadPng(api, author);
    const hub = await createHub(api, author, { profileImageId: logo });
    await joinHub(api, reader, hub.id);
    const post = await createPost(api, author, hub.id, { content: `![k](${imageUrl(kept)})` });
    await addComment(api, reader, `${hubPath(hub.name)}/${post.id}`, "Hello there");
    // The avatar of the author also uses `kept`.
    await api.request.put(`/user/${author.id}`).set(author.auth).send({ profileImageID: kept }).expect(200);
    const total = (await api.request.get("/hubs")).body.totalElements as number;

    await track(logo, kept);
    expectError(await api.request.delete(`/hubs/${hub.id}`).set(reader.auth), 403);
    expect((await api.request.delete(`/hubs/${hub.id}`).set(author.auth)).body).toEqual({ type: "hub", id: hub.id, deleted: true });

    expect((await api.request.get(hubPath(hub.name))).status).toBe(404);
    expect((await api.request.get(`/hub-posts/${post.id}`)).status).toBe(404);
    expect((await api.request.get("/hubs")).body.totalElements).toBe(total - 1);
    expect((await api.request.get(`/hubs/search?name=${encodeURIComponent(hub.name)}`)).body.totalElements).toBe(0);
    expect((await api.request.get(`/user/${reader.id}/member-hubs`)).body.map((h: { id: number }) => h.id)).not.toContain(hub.id);
    expect(await unread(author)).toBe(baseline);
    await expectCountersConsistent();
    await expectImageGone(logo);
    await releasesDone();
    expect(await keptImageBytes(api, kept)).not.toBeNull();
    // The name is free again.
    expect((await api.request.post("/hubs").set(author.auth).send({ name: hub.name })).status).toBe(201);
  });

  it("empties a hub of more posts than a batch in several transactions, and a series of more chapters than a batch", async () => {
    const hub = await createHub(api, author);
    const posts = HUB_BATCH_POSTS * 2 + 7;
    const now = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < posts; i += 500) {
      const rows = Array.from({ length: Math.min(500, posts - i) }, (_, k) => ({
        title: `P${i + k}`,
        content: "Text",
        date: now + i + k,
        authorId: author.id,
        hubId: hub.id,
        commentCount: 1,
        threadCount: 1,
      }));
      const made = await api.db.kysely.insertInto("Post").values(rows).returning("id").execute();
      await api.db.kysely
        .insertInto("Comment")
        .values(made.map((p) => ({ postId: p.id, authorId: reader.id, content: "Hi", createdAt: now })))
        .execute();
      ids.push(...made.map((p) => p.id));
    }
    await api.db.kysely.updateTable("Hub").set({ postCount: posts }).where("id", "=", hub.id).execute();
    const series = await api.request
      .post("/series")
      .set(author.auth)
      .send({ name: uniqueName("Long") });
    const page = await uploadPng(api, author);
    const chapters = SERIES_BATCH_CHAPTERS + 3;
    await api.db.kysely
      .insertInto("Chapter")
      .values(
        Array.from({ length: chapters }, (_, k) => ({
          seriesId: series.body.id,
          number: k + 1,
          title: `C${k}`,
          date: now + k,
          authorId: author.id,
          coverId: page,
        })),
      )
      .execute();
    await api.db.kysely.updateTable("Series").set({ chapterCount: chapters }).where("id", "=", series.body.id).execute();
    api.dataChanged();
    await expectCountersConsistent();

    expect((await api.request.delete(`/hubs/${hub.id}`).set(author.auth)).status).toBe(200);
    expect((await api.request.delete(`/series/${series.body.id}`).set(author.auth)).status).toBe(200);

    expect((await api.request.get(hubPath(hub.name))).status).toBe(404);
    expect((await api.request.get(`/series/${series.body.id}`)).status).toBe(404);
    expect(await api.db.kysely.selectFrom("Post").select("id").where("id", "in", ids).execute()).toEqual([]);
    expect(await api.db.kysely.selectFrom("Comment").select("id").where("postId", "in", ids.slice(0, 500)).execute()).toEqual([]);
    expect(await api.db.kysely.selectFrom("Chapter").select("id").where("seriesId", "=", series.body.id).execute()).toEqual([]);
    await expectCountersConsistent();
  });

  it("lets an admin delete someone else's series and hub", async () => {
    const hub = await createHub(api, author);
    const series = await api.request
      .post("/series")
      .set(author.auth)
      .send({ name: uniqueName("Admin") });
    await setAdmin(stranger, true);
    try {
      expect((await api.request.delete(`/hubs/${hub.id}`).set(stranger.auth)).status).toBe(200);
      expect((await api.request.delete(`/series/${series.body.id}`).set(stranger.auth)).status).toBe(200);
    } finally {
      await setAdmin(stranger, false);
    }
    expectError(await api.request.delete(`/hubs/${hub.id}`).set(author.auth), 404);
  });
});
