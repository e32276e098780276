// Per-user limits on new posts, new chapters and edits (issue 27, item 8; docs/api.md "Limits"): beyond them, 429
// with Retry-After and nothing written; other users are not held back. The tests set the limits low.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, joinHub } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ postRatePerHour: 3, editRatePerHour: 4, chapterRatePerHour: 2 });
});
afterAll(() => api.close());

/** A 429 as the limits answer it: the message, and a Retry-After of at least a second. */
function expectLimited(res: Awaited<ReturnType<TestApi["request"]["get"]>>, message: RegExp) {
  expectError(res, 429);
  expect(res.body.message).toMatch(message);
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
}

const postCount = async (hubId: number) =>
  (await api.db.kysely.selectFrom("Post").select("id").where("hubId", "=", hubId).execute()).length;

describe("new posts (POST_RATE_PER_HOUR)", () => {
  it("refuses a user's posts beyond the limit with 429 and Retry-After, writing nothing; others may still post", async () => {
    const [author, other] = [await api.register(), await api.register()];
    const hub = await createHub(api, author);
    await joinHub(api, other, hub.id);
    const post = (user: TestUser, i: number) =>
      api.request
        .post("/hub-posts")
        .set(user.auth)
        .send({ title: `Post ${i}`, content: "Content long enough", hubId: hub.id });

    for (let i = 0; i < 3; i++) expect((await post(author, i)).status).toBe(201);
    const refused = await post(author, 3);

    expectLimited(refused, /^You can publish at most 3 posts an hour\. Please try again in \d+ minutes?\.$/);
    expect((await post(other, 0)).status).toBe(201);
    expect(await postCount(hub.id)).toBe(4);
  });
});

describe("edits of comments and posts (EDIT_RATE_PER_HOUR)", () => {
  it("counts a user's comment and post edits together and refuses those beyond the limit, changing nothing", async () => {
    const author = await api.register();
    const { path, post } = await newPost(api, author);
    const comment = await addComment(api, author, path, "The first words");
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await api.request
            .put(`/comments/${comment.id}`)
            .set(author.auth)
            .send({ content: `Comment edit ${i}` })
        ).status,
      ).toBe(200);
      const postEdit = await api.request
        .put(`/hub-posts/${post.id}`)
        .set(author.auth)
        .send({ title: `Title ${i}`, content: `Post edit ${i}` });
      expect(postEdit.status).toBe(200);
    }

    const refusedComment = await api.request.put(`/comments/${comment.id}`).set(author.auth).send({ content: "Too many" });
    const refusedPost = await api.request.put(`/hub-posts/${post.id}`).set(author.auth).send({ title: "Too many", content: "Too many" });

    expectLimited(refusedComment, /^You can make at most 4 edits an hour\. Please try again in \d+ minutes?\.$/);
    expectLimited(refusedPost, /^You can make at most 4 edits an hour\. Please try again in \d+ minutes?\.$/);
    const stored = await api.db.kysely.selectFrom("Comment").select("content").where("id", "=", comment.id).executeTakeFirstOrThrow();
    expect(stored.content).toBe("Comment edit 1");
    expect((await api.request.get(`/hub-posts/${post.id}`)).body.title).toBe("Title 1");
  });

  it("holds back only the user who reached it", async () => {
    const [busy, calm] = [await api.register(), await api.register()];
    const { path } = await newPost(api, busy);
    const busyComment = await addComment(api, busy, path, "Busy");
    const calmComment = await addComment(api, calm, path, "Calm");
    for (let i = 0; i < 4; i++)
      await api.request
        .put(`/comments/${busyComment.id}`)
        .set(busy.auth)
        .send({ content: `Busy ${i}` });

    expect((await api.request.put(`/comments/${busyComment.id}`).set(busy.auth).send({ content: "Again" })).status).toBe(429);
    expect((await api.request.put(`/comments/${calmComment.id}`).set(calm.auth).send({ content: "Calm edit" })).status).toBe(200);
  });
});

describe("new chapters (CHAPTER_RATE_PER_HOUR)", () => {
  it("refuses a user's chapters beyond the limit with 429 and Retry-After, publishing nothing", async () => {
    const author = await api.register();
    const { seriesPath } = await newChapter(api, author); // the first of the two allowed
    const page = await uploadPng(api, author);
    expect(
      (
        await api.request
          .post(`${seriesPath}/chapters`)
          .set(author.auth)
          .send({ title: "Two", pages: [page] })
      ).status,
    ).toBe(201);

    const refused = await api.request
      .post(`${seriesPath}/chapters`)
      .set(author.auth)
      .send({ title: "Three", pages: [page] });

    expectLimited(refused, /^You can publish at most 2 chapters an hour\. Please try again in \d+ minutes?\.$/);
    expect((await api.request.get(`${seriesPath}/chapters`)).body.totalElements).toBe(2);
  });
});

describe("the settings", () => {
  it("reads the limits from the environment, with defaults a real user never reaches; 0 turns one off", () => {
    const base = { NODE_ENV: "test", JWT_SECRET: "a-secret-long-enough-for-tests", DATA_DIR: "/tmp/inkwell-limits-config" } as const;
    const defaults = loadConfig(base);
    expect([defaults.postRatePerHour, defaults.editRatePerHour, defaults.chapterRatePerHour]).toEqual([30, 120, 60]);
    const set = loadConfig({ ...base, POST_RATE_PER_HOUR: "5", EDIT_RATE_PER_HOUR: "0", CHAPTER_RATE_PER_HOUR: "7" });
    expect([set.postRatePerHour, set.editRatePerHour, set.chapterRatePerHour]).toEqual([5, 0, 7]);
  });
});
