// GET /me/state (docs/api.md "The viewer's state"): the caller's own user, unread count and latest reading position in
// one answer, always the caller's and never kept for anyone else.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { uniqueName } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi;
setUpSharedTestApi(
  [],
  (started) => {
    api = started;
  },
  { adminUsernames: ["state_admin"] },
);

const state = async (user: TestUser) => {
  const res = await api.request.get("/me/state").set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    user: { id: number; username: string; email: string | null; role: string; showMature: boolean | null };
    unreadCount: number;
    reading: { seriesId: number; chapterNumber: number; page: number; updatedAt: string } | null;
  };
};

/** A series of `author` with `chapters` chapters of two pages each. */
async function series(author: TestUser, chapters: number) {
  const res = await api.request
    .post("/series")
    .set(author.auth)
    .send({ name: uniqueName("State") });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const pages = [await uploadPng(api, author), await uploadPng(api, author)];
  for (let i = 0; i < chapters; i++) {
    const path = `/series/${encodeURIComponent(res.body.name as string)}/chapters`;
    expect(
      (
        await api.request
          .post(path)
          .set(author.auth)
          .send({ title: `Ch ${i + 1}`, pages })
      ).status,
    ).toBe(201);
  }
  return res.body as { id: number; name: string };
}

const save = async (user: TestUser, seriesId: number, chapterNumber: number, page: number) =>
  expect((await api.request.put(`/me/progress/${seriesId}`).set(user.auth).send({ chapterNumber, page })).status).toBe(200);

describe("GET /me/state", () => {
  it("is signed in only", async () => {
    expectError(await api.request.get("/me/state"), 401);
  });

  it("answers the caller's own user (role, showMature), unread count and no reading position at first", async () => {
    const reader = await api.register();
    const admin = await api.register("state_admin");
    const fresh = await state(reader);
    expect(fresh).toEqual({
      user: expect.objectContaining({ id: reader.id, username: reader.username, email: reader.email, role: "user", showMature: false }),
      unreadCount: 0,
      reading: null,
    });
    // The same user answer GET /user/{username} gives the caller about themselves.
    expect(fresh.user).toEqual((await api.request.get(`/user/${reader.username}`).set(reader.auth)).body);
    expect((await state(admin)).user.role).toBe("admin");
    expect((await api.request.put(`/user/${reader.id}`).set(reader.auth).send({ showMature: true })).status).toBe(200);
    expect((await state(reader)).user.showMature).toBe(true);
  });

  it("counts unread notifications as /me/notifications/unread-count does", async () => {
    const [owner, follower] = [await api.register(), await api.register()];
    const s = await series(owner, 1);
    expect((await api.request.post(`/user/${follower.id}/followed-series/${s.id}`).set(follower.auth)).status).toBe(200);
    const count = (await api.request.get("/me/notifications/unread-count").set(owner.auth)).body.count as number;
    expect(count).toBeGreaterThan(0);
    expect((await state(owner)).unreadCount).toBe(count);
    expect((await state(follower)).unreadCount).toBe(0);
  });

  it("answers the most recently saved position over every series (the first of GET /me/progress)", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const [a, b] = [await series(author, 3), await series(author, 2)];
    await save(reader, a.id, 2, 2);
    expect((await state(reader)).reading).toMatchObject({ seriesId: a.id, chapterNumber: 2, page: 2 });
    await save(reader, b.id, 1, 1);
    expect((await state(reader)).reading).toMatchObject({ seriesId: b.id, chapterNumber: 1, page: 1 });
    // Latest write wins: back to an older chapter of the first series.
    await save(reader, a.id, 1, 1);
    const now = await state(reader);
    expect(now.reading).toMatchObject({ seriesId: a.id, chapterNumber: 1, page: 1 });
    const list = (await api.request.get("/me/progress?per_page=1").set(reader.auth)).body.content[0];
    expect(now.reading).toEqual({
      seriesId: list.series.id,
      chapterNumber: list.chapterNumber,
      page: list.page,
      updatedAt: list.updatedAt,
    });
  });

  it("is each caller's own: two users asking in turn never get each other's answer", async () => {
    const [author, one, two] = [await api.register(), await api.register(), await api.register()];
    const s = await series(author, 2);
    await save(one, s.id, 2, 1);
    expect((await api.request.post(`/user/${one.id}/followed-series/${s.id}`).set(one.auth)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const [first, second] = [await state(one), await state(two)];
      expect(first.user.id).toBe(one.id);
      expect(first.reading).toMatchObject({ seriesId: s.id, chapterNumber: 2 });
      expect(second.user).toMatchObject({ id: two.id, email: two.email });
      expect(second.reading).toBeNull();
    }
    expect((await state(author)).unreadCount).toBe(1);
  });
});
