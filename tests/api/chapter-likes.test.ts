import { beforeAll, describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser;
let page: number;

setUpSharedTestApi(["alice", "bob", "carol"], async (started, users) => {
  api = started;
  [alice, bob, carol] = users;
  page = await uploadPng(api, alice);
});

let seriesSeq = 0;
/** A new series of alice's with `count` chapters (1..count); answers its URL path. */
async function seriesWithChapters(count = 1): Promise<string> {
  const created = await api.request
    .post("/series")
    .set(alice.auth)
    .send({ name: `Likeable ${++seriesSeq}` });
  const path = `/series/${encodeURIComponent(created.body.name)}`;
  for (let i = 0; i < count; i++) {
    const res = await api.request
      .post(`${path}/chapters`)
      .set(alice.auth)
      .send({ title: `Chapter ${i + 1}`, pages: [page] });
    expect(res.status).toBe(201);
  }
  return path;
}

/** The likes column and the rows behind it for the chapter at `path` (`/series/{name}/{n}`). */
async function likeCounts(path: string) {
  const chapter = await api.request.get(path);
  const { rows } = await api.db.kysely
    .selectFrom("ChapterLike")
    .select((eb) => eb.fn.countAll<number>().as("rows"))
    .where("chapterId", "=", chapter.body.id as number)
    .executeTakeFirstOrThrow();
  return { likes: chapter.body.likes as number, rows };
}

describe("POST and DELETE /series/{name}/{chapterNumber}/like", () => {
  it("likes a chapter and answers the new state", async () => {
    const path = await seriesWithChapters();

    const res = await api.request.post(`${path}/1/like`).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ liked: true, likes: 1 });
  });

  it("counts a second like by the same user once", async () => {
    const path = await seriesWithChapters();
    await api.request.post(`${path}/1/like`).set(bob.auth);

    const again = await api.request.post(`${path}/1/like`).set(bob.auth);

    expect(again.body).toEqual({ liked: true, likes: 1 });
    expect(await likeCounts(`${path}/1`)).toEqual({ likes: 1, rows: 1 });
  });

  it("counts likes from different users", async () => {
    const path = await seriesWithChapters();
    await api.request.post(`${path}/1/like`).set(bob.auth);

    const res = await api.request.post(`${path}/1/like`).set(carol.auth);

    expect(res.body).toEqual({ liked: true, likes: 2 });
  });

  it("lets the author like their own chapter", async () => {
    const path = await seriesWithChapters();

    const res = await api.request.post(`${path}/1/like`).set(alice.auth);

    expect(res.body).toEqual({ liked: true, likes: 1 });
  });

  it("removes a like and answers the new state", async () => {
    const path = await seriesWithChapters();
    await api.request.post(`${path}/1/like`).set(bob.auth);
    await api.request.post(`${path}/1/like`).set(carol.auth);

    const res = await api.request.delete(`${path}/1/like`).set(bob.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ liked: false, likes: 1 });
  });

  it("changes nothing when unliking a chapter that was never liked", async () => {
    const path = await seriesWithChapters();
    await api.request.post(`${path}/1/like`).set(carol.auth);

    const res = await api.request.delete(`${path}/1/like`).set(bob.auth);

    expect(res.body).toEqual({ liked: false, likes: 1 });
    expect(await likeCounts(`${path}/1`)).toEqual({ likes: 1, rows: 1 });
  });

  it("changes nothing on a second unlike", async () => {
    const path = await seriesWithChapters();
    await api.request.post(`${path}/1/like`).set(bob.auth);
    await api.request.delete(`${path}/1/like`).set(bob.auth);

    const res = await api.request.delete(`${path}/1/like`).set(bob.auth);

    expect(res.body).toEqual({ liked: false, likes: 0 });
  });

  it("only likes the chapter it names", async () => {
    const path = await seriesWithChapters(2);

    await api.request.post(`${path}/2/like`).set(bob.auth);

    expect((await likeCounts(`${path}/1`)).likes).toBe(0);
    expect((await likeCounts(`${path}/2`)).likes).toBe(1);
  });

  it("keeps the count equal to its rows after a burst of concurrent toggles", async () => {
    const path = await seriesWithChapters();
    const users = [alice, bob, carol];
    const burst = users.flatMap((user) => [
      api.request.post(`${path}/1/like`).set(user.auth),
      api.request.post(`${path}/1/like`).set(user.auth),
      api.request.delete(`${path}/1/like`).set(user.auth),
      api.request.post(`${path}/1/like`).set(user.auth),
    ]);

    const results = await Promise.all(burst);

    expect(results.every((r) => r.status === 200)).toBe(true);
    const counts = await likeCounts(`${path}/1`);
    expect(counts.likes).toBe(counts.rows);
  });

  it("answers 401 to a guest and changes nothing", async () => {
    const path = await seriesWithChapters();

    const liked = await api.request.post(`${path}/1/like`);
    const unliked = await api.request.delete(`${path}/1/like`);

    expect(liked.status).toBe(401);
    expect(unliked.status).toBe(401);
    expect(liked.body).toMatchObject({ status: 401, error: "Unauthorized" });
    expect(await likeCounts(`${path}/1`)).toEqual({ likes: 0, rows: 0 });
  });

  it("answers 401 for a tampered token", async () => {
    const path = await seriesWithChapters();

    const res = await api.request.post(`${path}/1/like`).set("Authorization", `Bearer ${bob.token.slice(0, -2)}xx`);

    expect(res.status).toBe(401);
  });

  it("answers 404 'Chapter not found' for an unknown chapter", async () => {
    const path = await seriesWithChapters();

    const liked = await api.request.post(`${path}/2/like`).set(bob.auth);
    const unliked = await api.request.delete(`${path}/2/like`).set(bob.auth);

    expect(liked.status).toBe(404);
    expect(liked.body.message).toBe("Chapter not found");
    expect(unliked.status).toBe(404);
  });

  it("answers 404 for an unknown series", async () => {
    const res = await api.request.post("/series/No%20Such%20Thing/1/like").set(bob.auth);

    expect(res.status).toBe(404);
  });

  it("answers 400 for a chapter number that is not a positive whole number", async () => {
    const path = await seriesWithChapters();

    const res = await api.request.post(`${path}/zero/like`).set(bob.auth);

    expect(res.status).toBe(400);
  });
});

describe("likedByMe", () => {
  let path: string;

  beforeAll(async () => {
    path = await seriesWithChapters(2);
    await api.request.post(`${path}/2/like`).set(bob.auth);
  });

  it("is true in the chapter detail for the liker", async () => {
    const res = await api.request.get(`${path}/2`).set(bob.auth);

    expect(res.body).toMatchObject({ likedByMe: true, likes: 1 });
  });

  it("is false in the chapter detail for another user and for a guest", async () => {
    const asCarol = await api.request.get(`${path}/2`).set(carol.auth);
    const asGuest = await api.request.get(`${path}/2`);

    expect(asCarol.body.likedByMe).toBe(false);
    expect(asGuest.body.likedByMe).toBe(false);
  });

  it.each(["", "/latest", "/most-liked"])("marks only the liked chapter in /chapters%s for the liker", async (suffix) => {
    const res = await api.request.get(`${path}/chapters${suffix}`).set(bob.auth);

    const liked = Object.fromEntries(res.body.content.map((c: { number: number; likedByMe: boolean }) => [c.number, c.likedByMe]));
    expect(liked).toEqual({ 1: false, 2: true });
  });

  it("is false in lists for another user and for a guest", async () => {
    const asCarol = await api.request.get(`${path}/chapters`).set(carol.auth);
    const asGuest = await api.request.get(`${path}/chapters/most-liked`);

    expect(asCarol.body.content.some((c: { likedByMe: boolean }) => c.likedByMe)).toBe(false);
    expect(asGuest.body.content.some((c: { likedByMe: boolean }) => c.likedByMe)).toBe(false);
  });

  it("turns false again after unliking", async () => {
    const own = await seriesWithChapters();
    await api.request.post(`${own}/1/like`).set(carol.auth);
    await api.request.delete(`${own}/1/like`).set(carol.auth);

    const res = await api.request.get(`${own}/1`).set(carol.auth);

    expect(res.body).toMatchObject({ likedByMe: false, likes: 0 });
  });
});
