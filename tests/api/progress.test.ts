// Reading progress (docs/api.md "Reading progress"): PUT /me/progress/{seriesId} saves where the caller
// is (the latest write wins), GET /me/progress lists the series in progress most recent first, and chapters carry
// readByMe (last page reached, or moved on to a later chapter). Progress goes with the chapter, series or account.
import { describe, expect, it, vi } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { uniqueName } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi;
setUpSharedTestApi([], (started) => {
  api = started;
});

interface Shelf {
  id: number;
  name: string;
  path: string;
}

/** A series of `author` with chapters 1..pageCounts.length, chapter i having pageCounts[i-1] pages. */
async function shelf(author: TestUser, pageCounts: number[]): Promise<Shelf> {
  const res = await api.request
    .post("/series")
    .set(author.auth)
    .send({ name: uniqueName("Series") });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const path = `/series/${encodeURIComponent(res.body.name as string)}`;
  const images: number[] = [];
  for (let i = 0; i < Math.max(...pageCounts); i++) images.push(await uploadPng(api, author));
  for (const [i, count] of pageCounts.entries()) {
    const chapter = await api.request
      .post(`${path}/chapters`)
      .set(author.auth)
      .send({ title: `Ch ${i + 1}`, pages: images.slice(0, count) });
    expect(chapter.status, JSON.stringify(chapter.body)).toBe(201);
  }
  return { id: res.body.id as number, name: res.body.name as string, path };
}

const save = (user: TestUser, seriesId: number, body: Record<string, unknown>) =>
  api.request.put(`/me/progress/${seriesId}`).set(user.auth).send(body);

async function saveOk(user: TestUser, seriesId: number, chapterNumber: number, page: number) {
  const res = await save(user, seriesId, { chapterNumber, page });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { seriesId: number; chapterNumber: number; page: number; updatedAt: string };
}

type Item = { series: { id: number; name: string }; chapterNumber: number; page: number; updatedAt: string; unreadChapters: number };
async function continueList(user: TestUser, query = "") {
  const res = await api.request.get(`/me/progress${query}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { content: Item[]; totalElements: number; totalPages: number; page: number; perPage: number };
}

async function readMarks(s: Shelf, user?: TestUser): Promise<Record<number, boolean>> {
  const req = api.request.get(`${s.path}/chapters?per_page=100`);
  const res = await (user ? req.set(user.auth) : req);
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body.content as { number: number; readByMe: boolean }[]).map((c) => [c.number, c.readByMe]));
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("PUT /me/progress/{seriesId}", () => {
  it("saves the position, answers it, and is idempotent", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [3, 2]);
    const saved = await saveOk(reader, s.id, 1, 2);
    expect(saved).toEqual({ seriesId: s.id, chapterNumber: 1, page: 2, updatedAt: expect.stringMatching(/Z$/) });
    expect(await saveOk(reader, s.id, 1, 2)).toMatchObject({ chapterNumber: 1, page: 2 });
    const res = await api.request.get(`/me/progress/${s.id}`).set(reader.auth);
    expect(res.body).toEqual({ progress: { seriesId: s.id, chapterNumber: 1, page: 2, updatedAt: expect.any(String) } });
    const list = await continueList(reader);
    expect(list).toMatchObject({ totalElements: 1, totalPages: 1 });
    expect(list.content[0]).toMatchObject({ series: { id: s.id, name: s.name }, chapterNumber: 1, page: 2, unreadChapters: 1 });
    // Nobody else's progress moved.
    expect((await api.request.get(`/me/progress/${s.id}`).set(author.auth)).body).toEqual({ progress: null });
  });

  it("refuses bad input with 400, unknown series or chapters with 404, and changes nothing", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [3]);
    expectFieldError(await save(reader, s.id, { chapterNumber: 1, page: 4 }), "page", "Page must be between 1 and 3");
    expectFieldError(await save(reader, s.id, { chapterNumber: 1, page: 0 }), "page");
    expectFieldError(await save(reader, s.id, { chapterNumber: 1, page: 1.5 }), "page");
    expectFieldError(await save(reader, s.id, { chapterNumber: 1, page: "2" }), "page");
    expectFieldError(await save(reader, s.id, { chapterNumber: 0, page: 1 }), "chapterNumber");
    expectFieldError(await save(reader, s.id, { page: 1 }), "chapterNumber");
    expectFieldError(await save(reader, s.id, { chapterNumber: 1, page: 1, opened: "yes" }), "opened");
    expectError(await save(reader, s.id, { chapterNumber: 2, page: 1 }), 404, "Chapter not found");
    expectError(await save(reader, 99_999_999, { chapterNumber: 1, page: 1 }), 404, "No series found.");
    expectError(await api.request.put("/me/progress/abc").set(reader.auth).send({ chapterNumber: 1, page: 1 }), 400);
    expectError(await api.request.put(`/me/progress/${s.id}`).set(reader.auth).send("{oops"), 400);
    expectError(await api.request.get("/me/progress/99999999").set(reader.auth), 404);
    expect((await continueList(reader)).totalElements).toBe(0);
  });

  it("asks for a signed-in caller (401)", async () => {
    expectError(await api.request.put("/me/progress/1").send({ chapterNumber: 1, page: 1 }), 401);
    expectError(await api.request.get("/me/progress"), 401);
    expectError(await api.request.get("/me/progress/1"), 401);
    expectError(await api.request.get("/me/progress").set({ Authorization: "Bearer nope" }), 401);
  });

  it("lets the latest write win, also an older chapter written after a newer one", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [3, 3, 3]);
    await saveOk(reader, s.id, 3, 2);
    await tick();
    expect(await saveOk(reader, s.id, 1, 1)).toMatchObject({ chapterNumber: 1, page: 1 });
    expect((await continueList(reader)).content[0]).toMatchObject({ chapterNumber: 1, page: 1, unreadChapters: 2 });
    // Within a chapter too: back from page 3 to page 2.
    await saveOk(reader, s.id, 1, 3);
    await saveOk(reader, s.id, 1, 2);
    expect((await continueList(reader)).content[0]).toMatchObject({ chapterNumber: 1, page: 2 });
  });

  it("keeps a position further into the chapter on a chapter-level save (opened), and moves it otherwise", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [5, 5]);
    await saveOk(reader, s.id, 1, 4);
    const kept = await save(reader, s.id, { chapterNumber: 1, page: 1, opened: true });
    expect(kept.body).toMatchObject({ chapterNumber: 1, page: 4 });
    const moved = await save(reader, s.id, { chapterNumber: 2, page: 1, opened: true });
    expect(moved.body).toMatchObject({ chapterNumber: 2, page: 1 });
    expect((await continueList(reader)).content[0]).toMatchObject({ chapterNumber: 2, page: 1 });
  });
});

describe("the response cache", () => {
  it("keeps the guests' answers across progress saves (nothing they show moved), and still drops them on other writes", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [2]);
    // A chapter's notification job moves the data version when it is done: let it finish first.
    await vi.waitFor(async () => expect(await api.db.kysely.selectFrom("Job").select("id").execute()).toEqual([]), { timeout: 10_000 });
    const title = async () => ((await api.request.get(`${s.path}/chapters`)).body.content as { title: string }[])[0]!.title;
    expect(await title()).toBe("Ch 1");
    // Renamed behind the API's back: a kept answer still says "Ch 1".
    await api.db.kysely.updateTable("Chapter").set({ title: "Renamed" }).where("seriesId", "=", s.id).execute();
    await saveOk(reader, s.id, 1, 2);
    expect(await title()).toBe("Ch 1");
    expect((await api.request.post(`${s.path}/1/like`).set(reader.auth)).status).toBe(200);
    expect(await title()).toBe("Renamed");
  });
});

describe("readByMe", () => {
  it("marks a chapter read once its last page is reached, on the list and the detail, for that reader only", async () => {
    const [author, reader, other] = [await api.register(), await api.register(), await api.register()];
    const s = await shelf(author, [3, 2]);
    await saveOk(reader, s.id, 1, 2);
    expect(await readMarks(s, reader)).toEqual({ 1: false, 2: false });
    await saveOk(reader, s.id, 1, 3);
    expect(await readMarks(s, reader)).toEqual({ 1: true, 2: false });
    expect((await api.request.get(`${s.path}/1`).set(reader.auth)).body.readByMe).toBe(true);
    expect((await api.request.get(`${s.path}/2`).set(reader.auth)).body.readByMe).toBe(false);
    // Going back keeps it read; others and guests see false.
    await saveOk(reader, s.id, 1, 1);
    expect(await readMarks(s, reader)).toEqual({ 1: true, 2: false });
    expect(await readMarks(s, other)).toEqual({ 1: false, 2: false });
    expect(await readMarks(s)).toEqual({ 1: false, 2: false });
    expect((await api.request.get(`${s.path}/1`)).body.readByMe).toBe(false);
  });

  it("marks the chapter the reader was in read when they move on to a later one, not an earlier one", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [4, 4, 4]);
    await saveOk(reader, s.id, 2, 1);
    await saveOk(reader, s.id, 3, 1);
    expect(await readMarks(s, reader)).toEqual({ 1: false, 2: true, 3: false });
    await saveOk(reader, s.id, 1, 1);
    expect(await readMarks(s, reader)).toEqual({ 1: false, 2: true, 3: false });
  });

  it("marks the following feed's chapters too", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const s = await shelf(author, [1]);
    expect((await api.request.post(`/user/${reader.id}/followed-series/${s.id}`).set(reader.auth)).status).toBeLessThan(300);
    await saveOk(reader, s.id, 1, 1);
    const feed = await api.request.get("/me/feed").set(reader.auth);
    expect(feed.status).toBe(200);
    const item = (feed.body.content as { chapter?: { seriesId: number; readByMe: boolean } }[]).find((i) => i.chapter?.seriesId === s.id);
    expect(item?.chapter?.readByMe).toBe(true);
  });
});

describe("GET /me/progress", () => {
  it("lists most recently read first, pages, and counts the chapters after the one in progress that are not removed", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const a = await shelf(author, [1, 1, 1, 1]);
    const b = await shelf(author, [2]);
    const c = await shelf(author, [1, 1]);
    await saveOk(reader, a.id, 2, 1);
    await tick();
    await saveOk(reader, b.id, 1, 2);
    await tick();
    await saveOk(reader, c.id, 1, 1);
    let list = await continueList(reader);
    expect(list.content.map((i) => [i.series.id, i.chapterNumber, i.page, i.unreadChapters])).toEqual([
      [c.id, 1, 1, 1],
      [b.id, 1, 2, 0],
      [a.id, 2, 1, 2],
    ]);
    expect(list).toMatchObject({ totalElements: 3, totalPages: 1 });
    // A save moves its series to the top.
    await tick();
    await saveOk(reader, a.id, 3, 1);
    list = await continueList(reader, "?per_page=2");
    expect(list.content.map((i) => i.series.id)).toEqual([a.id, c.id]);
    expect(list).toMatchObject({ totalElements: 3, totalPages: 2, perPage: 2 });
    expect((await continueList(reader, "?per_page=2&page=2")).content.map((i) => i.series.id)).toEqual([b.id]);
    expect((await continueList(reader, "?page=9")).content).toEqual([]);
    expectError(await api.request.get("/me/progress?per_page=0").set(reader.auth), 400);

    // A chapter removed by moderators is not waiting to be read.
    await api.db.kysely
      .updateTable("Chapter")
      .set({ removedReason: "spam", removedAt: Date.now() })
      .where("seriesId", "=", a.id)
      .where("number", "=", 4)
      .execute();
    expect((await continueList(reader)).content[0]).toMatchObject({ chapterNumber: 3, unreadChapters: 0 });
  });

  it("breaks ties of the same time by series id, highest first", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const a = await shelf(author, [1]);
    const b = await shelf(author, [1]);
    await saveOk(reader, a.id, 1, 1);
    await saveOk(reader, b.id, 1, 1);
    await api.db.kysely.updateTable("ReadingProgress").set({ updatedAt: 1_000 }).where("userId", "=", reader.id).execute();
    expect((await continueList(reader)).content.map((i) => i.series.id)).toEqual([b.id, a.id]);
  });
});

describe("deletion", () => {
  const rows = async (userId: number) => ({
    progress: await api.db.kysely.selectFrom("ReadingProgress").selectAll().where("userId", "=", userId).execute(),
    read: await api.db.kysely.selectFrom("ChapterRead").selectAll().where("userId", "=", userId).execute(),
  });

  it("drops progress and read marks with a deleted chapter, a deleted series and a deleted account", async () => {
    const [author, reader] = [await api.register(), await api.register()];
    const a = await shelf(author, [1, 1]);
    const b = await shelf(author, [1]);
    await saveOk(reader, a.id, 1, 1);
    await saveOk(reader, a.id, 2, 1);
    await saveOk(reader, b.id, 1, 1);
    expect(await rows(reader.id)).toMatchObject({ progress: { length: 2 }, read: { length: 3 } });

    // The chapter in progress goes: its progress row and read mark go with it; chapter 1's mark stays.
    expect((await api.request.delete(`${a.path}/2`).set(author.auth)).status).toBe(200);
    let left = await rows(reader.id);
    expect(left.progress.map((r) => r.seriesId)).toEqual([b.id]);
    expect(left.read).toHaveLength(2);

    expect((await api.request.delete(`/series/${b.id}`).set(author.auth)).status).toBe(200);
    left = await rows(reader.id);
    expect(left.progress).toEqual([]);
    expect(left.read).toHaveLength(1);
    expect((await continueList(reader)).totalElements).toBe(0);

    await saveOk(reader, a.id, 1, 1);
    const gone = await api.request.delete(`/user/${reader.id}`).set(reader.auth).send({ password: reader.password });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(await rows(reader.id)).toEqual({ progress: [], read: [] });
  });
});
