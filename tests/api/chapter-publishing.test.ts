import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectFieldErrorAsMessage } from "../helpers/expect-error.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi, alice: TestUser, bob: TestUser;
/** Images alice uploaded, free to use as pages and covers. */
let pics: number[];
/** An image bob uploaded. */
let bobsPic: number;

setUpSharedTestApi(["alice", "bob"], async (started, users) => {
  api = started;
  [alice, bob] = users;
  pics = [];
  for (let i = 0; i < 6; i++) pics.push(await uploadPng(api, alice));
  bobsPic = await uploadPng(api, bob);
});

/** Image rows owned by `user`, written straight to the table: enough to publish hundreds of pages. */
async function insertImageRows(user: TestUser, count: number): Promise<number[]> {
  const row = {
    fileName: "bulk.png",
    contentType: "image/png",
    size: 100,
    width: 40,
    height: 60,
    authorId: user.id,
    createdAt: Date.now(),
  };
  const inserted = await api.db.kysely
    .insertInto("Image")
    .values(Array.from({ length: count }, () => row))
    .returning("id")
    .execute();
  return inserted.map((r) => r.id).sort((a, b) => a - b);
}

let seriesSeq = 0;
async function createSeries(user: TestUser = alice): Promise<{ id: number; name: string; path: string }> {
  const res = await api.request
    .post("/series")
    .set(user.auth)
    .send({ name: `Chapters Test ${++seriesSeq}` });
  expect(res.status).toBe(201);
  return { id: res.body.id, name: res.body.name, path: `/series/${encodeURIComponent(res.body.name)}` };
}

const publish = (seriesPath: string, body: Record<string, unknown>, user: TestUser = alice) =>
  api.request
    .post(`${seriesPath}/chapters`)
    .set(user.auth)
    .send({ title: "A chapter", pages: [pics[0]], ...body });

async function published(seriesPath: string, body: Record<string, unknown> = {}) {
  const res = await publish(seriesPath, body);
  expect(res.status).toBe(201);
  return res.body as { id: number; number: number; coverId: number };
}

/** What a failed write must leave untouched: rows in Chapter and ChapterPage, and the counter. */
async function footprint(seriesId: number) {
  const { rows } = await sql<{ chapters: number; pages: number; chapterCount: number }>`SELECT
    (SELECT COUNT(*) FROM "Chapter" WHERE "seriesId" = ${seriesId}) AS chapters,
    (SELECT COUNT(*) FROM "ChapterPage" WHERE "chapterId" IN (SELECT id FROM "Chapter" WHERE "seriesId" = ${seriesId})) AS pages,
    (SELECT "chapterCount" FROM "Series" WHERE id = ${seriesId}) AS "chapterCount"`.execute(api.db.kysely);
  return rows[0]!;
}

describe("POST /series/{name}/chapters", () => {
  it("publishes chapter 1 and answers the full chapter detail", async () => {
    const series = await createSeries();
    const wide = await uploadPng(api, alice, 80, 30);

    const res = await publish(series.path, {
      title: "  The Beginning  ",
      description: "Where it starts",
      content: "# Notes\nThanks for reading!",
      pages: [wide, pics[0]],
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      number: 1,
      title: "The Beginning",
      description: "Where it starts",
      content: "# Notes\nThanks for reading!",
      likes: 0,
      commentCount: 0,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      coverId: wide,
      authorId: alice.id,
      authorName: "alice",
      seriesId: series.id,
      seriesName: series.name,
      pageCount: 2,
      likedByMe: false,
      readByMe: false,
      pages: [
        { imageId: wide, width: 80, height: 30 },
        { imageId: pics[0], width: 40, height: 60 },
      ],
      previousNumber: null,
      removed: null,
      nextNumber: null,
    });
  });

  it("defaults description and content to empty", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { title: "Bare" });

    expect(res.body).toMatchObject({ description: "", content: "" });
  });

  it("uses the chosen cover when one is given", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { pages: [pics[0], pics[1]], coverId: pics[2] });

    expect(res.body.coverId).toBe(pics[2]);
  });

  it("uses the first page as cover when the cover is null", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { pages: [pics[3], pics[1]], coverId: null });

    expect(res.body.coverId).toBe(pics[3]);
  });

  it("numbers chapters with the next free number (max + 1)", async () => {
    const series = await createSeries();
    await published(series.path);
    await published(series.path, { number: 5 });

    const res = await publish(series.path, {});

    expect(res.body.number).toBe(6);
  });

  it("accepts a given number that fills a gap", async () => {
    const series = await createSeries();
    await published(series.path);
    await published(series.path, { number: 4 });

    const res = await publish(series.path, { number: 2 });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ number: 2, previousNumber: 1, nextNumber: 4 });
  });

  it("gives concurrent publishes distinct numbers and counts each once", async () => {
    const series = await createSeries();

    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => publish(series.path, { title: `Rush ${i}` })));

    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.map((r) => r.body.number).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await footprint(series.id)).toEqual({ chapters: 5, pages: 5, chapterCount: 5 });
  });

  it("answers 409 for a given number that exists and writes nothing", async () => {
    const series = await createSeries();
    await published(series.path);
    const before = await footprint(series.id);

    const res = await publish(series.path, { number: 1, pages: [pics[1], pics[2]] });

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: "Conflict" });
    expect(await footprint(series.id)).toEqual(before);
  });

  it("finds the series by name in any case", async () => {
    const series = await createSeries();

    const res = await publish(`/series/${encodeURIComponent(series.name.toUpperCase())}`, {});

    expect(res.status).toBe(201);
    expect(res.body.seriesId).toBe(series.id);
  });

  it("updates the series' chapterCount and latestChapter", async () => {
    const series = await createSeries();
    await published(series.path, { title: "One" });
    const second = await published(series.path, { title: "Two", pages: [pics[4]] });

    const detail = await api.request.get(series.path);

    expect(detail.body.chapterCount).toBe(2);
    expect(detail.body.latestChapter).toEqual({ id: second.id, number: 2, title: "Two", date: expect.any(String), coverId: pics[4] });
  });

  it("keeps the highest number as latestChapter when a lower number is published later", async () => {
    const series = await createSeries();
    await published(series.path, { number: 7, title: "Seven" });
    await published(series.path, { number: 3, title: "Three" });

    const list = await api.request.get(`/series/search?name=${encodeURIComponent(series.name)}`);

    expect(list.body.content[0]).toMatchObject({ chapterCount: 2, latestChapter: { number: 7, title: "Seven" } });
  });

  it("answers 403 to a user who is not the series' author, writing nothing", async () => {
    const series = await createSeries();
    const before = await footprint(series.id);

    const res = await publish(series.path, { pages: [bobsPic] }, bob);

    expect(res.status).toBe(403);
    expect(res.body.status).toBe(403);
    expect(await footprint(series.id)).toEqual(before);
  });

  it("answers 401 to a guest", async () => {
    const series = await createSeries();

    const res = await api.request.post(`${series.path}/chapters`).send({ title: "Guest", pages: [pics[0]] });

    expect(res.status).toBe(401);
    expect((await footprint(series.id)).chapters).toBe(0);
  });

  it("answers 404 for an unknown series", async () => {
    const res = await publish("/series/No%20Such%20Series", {});

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("No series found.");
  });

  it.each([
    ["a missing", {}],
    ["an empty", { title: "" }],
    ["a blank", { title: "   " }],
    ["a null", { title: null }],
  ])("rejects %s title with 'Chapter title is required'", async (_label, title) => {
    const series = await createSeries();

    const res = await api.request
      .post(`${series.path}/chapters`)
      .set(alice.auth)
      .send({ pages: [pics[0]], ...title });

    expectFieldErrorAsMessage(res, "title", "Chapter title is required");
    expect((await footprint(series.id)).chapters).toBe(0);
  });

  it("accepts a one-character title", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { title: "X" });

    expect(res.status).toBe(201);
  });

  it("rejects a title that spans several lines", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { title: "First line\nSecond line" });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "title", message: expect.any(String) });
  });

  it("accepts a 200-character title and rejects 201", async () => {
    const series = await createSeries();

    const ok = await publish(series.path, { title: "t".repeat(200) });
    const tooLong = await publish(series.path, { title: "t".repeat(201) });

    expect(ok.status).toBe(201);
    expectFieldErrorAsMessage(tooLong, "title", "Chapter title must be less than 200 characters");
  });

  it("accepts a 300-character description and rejects 301", async () => {
    const series = await createSeries();

    const ok = await publish(series.path, { description: "d".repeat(300) });
    const tooLong = await publish(series.path, { description: "d".repeat(301) });

    expect(ok.status).toBe(201);
    expectFieldErrorAsMessage(tooLong, "description", "Description must be less than 300 characters");
  });

  it("accepts 10000 characters of content and rejects 10001", async () => {
    const series = await createSeries();

    const ok = await publish(series.path, { content: "c".repeat(10_000) });
    const tooLong = await publish(series.path, { content: "c".repeat(10_001) });

    expect(ok.status).toBe(201);
    expect(ok.body.content).toHaveLength(10_000);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toContainEqual({ field: "content", message: expect.stringContaining("10000") });
  });

  it.each([
    ["an empty list", []],
    ["a missing list", undefined],
    ["a null list", null],
  ])("rejects %s of pages with 'A chapter needs at least one page'", async (_label, pages) => {
    const series = await createSeries();

    const res = await api.request.post(`${series.path}/chapters`).set(alice.auth).send({ title: "No pages", pages });

    expectFieldErrorAsMessage(res, "pages", "A chapter needs at least one page");
  });

  it("rejects 501 pages", async () => {
    const series = await createSeries();
    const pages = Array.from({ length: 501 }, (_, i) => i + 1);

    const res = await publish(series.path, { pages });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "pages", message: expect.stringContaining("500") });
    expect((await footprint(series.id)).chapters).toBe(0);
  });

  it("accepts 500 pages and keeps their order", async () => {
    const series = await createSeries();
    const pages = (await insertImageRows(alice, 500)).reverse();

    const res = await publish(series.path, { pages });

    expect(res.status).toBe(201);
    expect(res.body.pageCount).toBe(500);
    expect(res.body.pages.map((p: { imageId: number }) => p.imageId)).toEqual(pages);
  });

  it("rejects a page used twice", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { pages: [pics[0], pics[1], pics[0]] });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "pages", message: expect.any(String) });
    expect((await footprint(series.id)).chapters).toBe(0);
  });

  it.each([0, -4, 2.5, "3"])("rejects the page id %j", async (bad) => {
    const series = await createSeries();

    const res = await publish(series.path, { pages: [pics[0], bad] });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toMatch(/^pages/);
  });

  it("rejects pages that is not a list", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { pages: "1,2,3" });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("pages");
  });

  it("rejects a page another user uploaded and writes nothing", async () => {
    const series = await createSeries();
    const before = await footprint(series.id);

    const res = await publish(series.path, { pages: [pics[0], bobsPic] });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "pages", message: expect.any(String) }]);
    expect(await footprint(series.id)).toEqual(before);
  });

  it("rejects a page id that is no image", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { pages: [999_999] });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "pages", message: expect.any(String) }]);
  });

  it("rejects a cover another user uploaded", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { coverId: bobsPic });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "coverId", message: expect.any(String) }]);
    expect((await footprint(series.id)).chapters).toBe(0);
  });

  it("rejects an unknown cover id", async () => {
    const series = await createSeries();

    const res = await publish(series.path, { coverId: 999_999 });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "coverId", message: expect.any(String) }]);
  });

  it.each([0, -1, 1.5, "2", 100_001])("rejects the chapter number %j", async (number) => {
    const series = await createSeries();

    const res = await publish(series.path, { number });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("number");
  });

  it("answers 400 for malformed JSON and writes nothing", async () => {
    const series = await createSeries();

    const res = await api.request.post(`${series.path}/chapters`).set(alice.auth).set("Content-Type", "application/json").send("{");

    expect(res.status).toBe(400);
    expect((await footprint(series.id)).chapters).toBe(0);
  });
});

describe("PUT /series/{name}/{chapterNumber}", () => {
  const edit = (path: string, body: Record<string, unknown>, user: TestUser = alice) => api.request.put(path).set(user.auth).send(body);

  it("edits title, description and content and keeps the pages when `pages` is absent", async () => {
    const series = await createSeries();
    await published(series.path, { title: "Draft", pages: [pics[0], pics[1]] });

    const res = await edit(`${series.path}/1`, { title: "Final", description: "Now with words", content: "Thanks!" });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ number: 1, title: "Final", description: "Now with words", content: "Thanks!", pageCount: 2 });
    expect(res.body.pages.map((p: { imageId: number }) => p.imageId)).toEqual([pics[0], pics[1]]);
  });

  it("keeps description and content when the body leaves them out", async () => {
    const series = await createSeries();
    await published(series.path, { description: "Kept description", content: "Kept notes" });

    const res = await edit(`${series.path}/1`, { title: "Retitled" });

    expect(res.body).toMatchObject({ title: "Retitled", description: "Kept description", content: "Kept notes" });
  });

  it("clears the description when it is given as null", async () => {
    const series = await createSeries();
    await published(series.path, { description: "Going away" });

    const res = await edit(`${series.path}/1`, { title: "Same", description: null });

    expect(res.body.description).toBe("");
  });

  it("replaces the pages in the new order when `pages` is given", async () => {
    const series = await createSeries();
    await published(series.path, { pages: [pics[0], pics[1]] });

    const res = await edit(`${series.path}/1`, { title: "Reordered", pages: [pics[2], pics[1], pics[0]] });
    const reread = await api.request.get(`${series.path}/1`);

    expect(res.body.pages.map((p: { imageId: number }) => p.imageId)).toEqual([pics[2], pics[1], pics[0]]);
    expect(reread.body.pages.map((p: { imageId: number }) => p.imageId)).toEqual([pics[2], pics[1], pics[0]]);
    expect(reread.body.pageCount).toBe(3);
  });

  it("keeps the cover when coverId is absent", async () => {
    const series = await createSeries();
    await published(series.path, { pages: [pics[0]], coverId: pics[5] });

    const res = await edit(`${series.path}/1`, { title: "Same cover" });

    expect(res.body.coverId).toBe(pics[5]);
  });

  it("sets a new cover", async () => {
    const series = await createSeries();
    await published(series.path, { pages: [pics[0]] });

    const res = await edit(`${series.path}/1`, { title: "New cover", coverId: pics[4] });

    expect(res.body.coverId).toBe(pics[4]);
  });

  it("resets the cover to the first page when coverId is null", async () => {
    const series = await createSeries();
    await published(series.path, { pages: [pics[0], pics[1]], coverId: pics[5] });

    const res = await edit(`${series.path}/1`, { title: "Reset", coverId: null });

    expect(res.body.coverId).toBe(pics[0]);
  });

  it("resets the cover to the first of the new pages when both are given", async () => {
    const series = await createSeries();
    await published(series.path, { pages: [pics[0]], coverId: pics[5] });

    const res = await edit(`${series.path}/1`, { title: "Reset", coverId: null, pages: [pics[3], pics[0]] });

    expect(res.body.coverId).toBe(pics[3]);
  });

  it("keeps the number, likes and date", async () => {
    const series = await createSeries();
    const original = await published(series.path, { number: 3 });

    const res = await edit(`${series.path}/3`, { title: "Edited" });

    expect(res.body).toMatchObject({ id: original.id, number: 3, likes: 0, date: (original as unknown as { date: string }).date });
  });

  it("answers 403 to a user who is not the author and changes nothing", async () => {
    const series = await createSeries();
    await published(series.path, { title: "Mine", pages: [pics[0]] });

    const res = await edit(`${series.path}/1`, { title: "Yours", pages: [bobsPic] }, bob);
    const after = await api.request.get(`${series.path}/1`);

    expect(res.status).toBe(403);
    expect(after.body.title).toBe("Mine");
    expect(after.body.pages.map((p: { imageId: number }) => p.imageId)).toEqual([pics[0]]);
  });

  it("answers 401 to a guest", async () => {
    const series = await createSeries();
    await published(series.path);

    const res = await api.request.put(`${series.path}/1`).send({ title: "Guest edit" });

    expect(res.status).toBe(401);
  });

  it("answers 404 for an unknown chapter number", async () => {
    const series = await createSeries();
    await published(series.path);

    const res = await edit(`${series.path}/2`, { title: "Nothing here" });

    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Chapter not found");
  });

  it("answers 404 for an unknown series", async () => {
    const res = await edit("/series/Unknown%20Series%20Here/1", { title: "Nothing here" });

    expect(res.status).toBe(404);
  });

  it("answers 400 for a chapter number that is not a positive whole number", async () => {
    const series = await createSeries();

    const res = await edit(`${series.path}/0`, { title: "Zero" });

    expect(res.status).toBe(400);
  });

  it("rejects an empty title with 'Chapter title is required' and changes nothing", async () => {
    const series = await createSeries();
    await published(series.path, { title: "Keep" });

    const res = await edit(`${series.path}/1`, { title: " " });
    const after = await api.request.get(`${series.path}/1`);

    expectFieldErrorAsMessage(res, "title", "Chapter title is required");
    expect(after.body.title).toBe("Keep");
  });

  it("rejects an empty page list", async () => {
    const series = await createSeries();
    await published(series.path);

    const res = await edit(`${series.path}/1`, { title: "Empty", pages: [] });

    expectFieldErrorAsMessage(res, "pages", "A chapter needs at least one page");
  });

  it("rejects another user's image among the new pages and keeps the old pages", async () => {
    const series = await createSeries();
    await published(series.path, { title: "Keep", pages: [pics[0], pics[1]] });

    const res = await edit(`${series.path}/1`, { title: "Changed", pages: [pics[2], bobsPic] });
    const after = await api.request.get(`${series.path}/1`);

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "pages", message: expect.any(String) }]);
    expect(after.body).toMatchObject({ title: "Keep", pageCount: 2 });
    expect(after.body.pages.map((p: { imageId: number }) => p.imageId)).toEqual([pics[0], pics[1]]);
  });

  it("rejects another user's image as cover", async () => {
    const series = await createSeries();
    await published(series.path);

    const res = await edit(`${series.path}/1`, { title: "Cover", coverId: bobsPic });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "coverId", message: expect.any(String) }]);
  });
});
