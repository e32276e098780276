import { beforeAll, describe, expect, it } from "vitest";
import { nowMs } from "../../server/db/dates.ts";
import { startTestApi, setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser;

setUpSharedTestApi(["alice", "bob", "carol"], (started, users) => {
  api = started;
  [alice, bob, carol] = users;
});

interface SeriesRef {
  id: number;
  name: string;
  /** The URL-encoded path of the series, `/series/{name}`. */
  path: string;
}

async function createSeries(name: string, author: TestUser = alice): Promise<SeriesRef> {
  const res = await api.request.post("/series").set(author.auth).send({ name });
  expect(res.status).toBe(201);
  return { id: res.body.id, name: res.body.name, path: `/series/${encodeURIComponent(res.body.name)}` };
}

async function publish(series: SeriesRef, body: Record<string, unknown>, author: TestUser = alice) {
  const res = await api.request.post(`${series.path}/chapters`).set(author.auth).send(body);
  expect(res.status).toBe(201);
  return res.body as { id: number; number: number };
}

async function like(series: SeriesRef, number: number, user: TestUser) {
  const res = await api.request.post(`${series.path}/${number}/like`).set(user.auth);
  expect(res.status).toBe(200);
}

/**
 * Chapters written straight into the tables (one page each), for long lists. Keeps
 * Series.chapterCount equal to the rows; likes stay 0.
 */
async function insertChapters(series: SeriesRef, authorId: number, pageImageId: number, numbers: number[]) {
  await api.db.kysely.transaction().execute(async (trx) => {
    for (const number of numbers) {
      const { id } = await trx
        .insertInto("Chapter")
        .values({
          seriesId: series.id,
          number,
          title: `Inserted ${number}`,
          description: "",
          content: "notes",
          likes: 0,
          date: nowMs(),
          coverId: pageImageId,
          authorId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.insertInto("ChapterPage").values({ chapterId: id, position: 0, imageId: pageImageId }).execute();
    }
    await trx
      .updateTable("Series")
      .set((eb) => ({ chapterCount: eb("chapterCount", "+", numbers.length) }))
      .where("id", "=", series.id)
      .execute();
  });
}

const numbers = (res: { body: { content: { number: number }[] } }) => res.body.content.map((c) => c.number);

describe("GET /series/{name}/{chapterNumber}", () => {
  let gaps: SeriesRef;
  let tall: number;
  let wide: number;

  beforeAll(async () => {
    gaps = await createSeries("Gap Years");
    tall = await uploadPng(api, alice, 30, 90);
    wide = await uploadPng(api, alice, 120, 50);
    await publish(gaps, { title: "One", pages: [tall] });
    await publish(gaps, { title: "Two", description: "Second", content: "**Bold** notes", pages: [wide, tall] });
    await publish(gaps, { title: "Five", number: 5, pages: [wide] });
  });

  it("answers the chapter with content, pages and neighbours", async () => {
    const res = await api.request.get(`${gaps.path}/2`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      number: 2,
      title: "Two",
      description: "Second",
      content: "**Bold** notes",
      likes: 0,
      coverId: wide,
      authorId: alice.id,
      authorName: "alice",
      seriesId: gaps.id,
      seriesName: "Gap Years",
      pageCount: 2,
      likedByMe: false,
      previousNumber: 1,
      nextNumber: 5,
    });
  });

  it("lists the pages in their order with each image's size", async () => {
    const res = await api.request.get(`${gaps.path}/2`);

    expect(res.body.pages).toEqual([
      { imageId: wide, width: 120, height: 50 },
      { imageId: tall, width: 30, height: 90 },
    ]);
  });

  it("has no previous chapter at the first one", async () => {
    const res = await api.request.get(`${gaps.path}/1`);

    expect(res.body).toMatchObject({ previousNumber: null, nextNumber: 2 });
  });

  it("has no next chapter at the last one, skipping the gap backwards", async () => {
    const res = await api.request.get(`${gaps.path}/5`);

    expect(res.body).toMatchObject({ previousNumber: 2, nextNumber: null });
  });

  it("has neither neighbour in a series with one chapter", async () => {
    const single = await createSeries("Just One Shot");
    await publish(single, { title: "Only", pages: [tall] });

    const res = await api.request.get(`${single.path}/1`);

    expect(res.body).toMatchObject({ previousNumber: null, nextNumber: null });
  });

  it("finds the series by name in any case", async () => {
    const res = await api.request.get("/series/GAP%20yEARS/5");

    expect(res.status).toBe(200);
    expect(res.body.title).toBe("Five");
  });

  it("finds the series by id when the name is all digits and matches no series", async () => {
    const res = await api.request.get(`/series/${gaps.id}/1`);

    expect(res.status).toBe(200);
    expect(res.body.seriesId).toBe(gaps.id);
  });

  it("follows its series through a rename", async () => {
    const renamed = await createSeries("Working Title");
    await publish(renamed, { title: "Pilot", pages: [tall] });
    await api.request.put(`/series/${renamed.id}`).set(alice.auth).send({ name: "Final Title" });

    const moved = await api.request.get("/series/Final%20Title/1");
    const old = await api.request.get(`${renamed.path}/1`);

    expect(moved.body).toMatchObject({ title: "Pilot", seriesName: "Final Title" });
    expect(old.status).toBe(404);
  });

  it("answers 404 'Chapter not found' for a number in the gap", async () => {
    const res = await api.request.get(`${gaps.path}/3`);

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, error: "Not Found", message: "Chapter not found" });
  });

  it("answers 404 for an unknown series", async () => {
    const res = await api.request.get("/series/Never%20Written/1");

    expect(res.status).toBe(404);
  });

  it.each(["abc", "0", "-1", "1.5", "99999999999"])("answers 400 for the chapter number %j", async (number) => {
    const res = await api.request.get(`${gaps.path}/${number}`);

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("chapterNumber");
  });

  it("does not show another series' chapter under this series' name", async () => {
    const other = await createSeries("Other Shelf", bob);
    await publish(other, { title: "Bob's", pages: [await uploadPng(api, bob)] }, bob);
    await publish(other, { title: "Bob's 2", pages: [await uploadPng(api, bob)] }, bob);
    await publish(other, { title: "Bob's 3", pages: [await uploadPng(api, bob)] }, bob);

    const res = await api.request.get(`${gaps.path}/3`);

    expect(res.status).toBe(404);
  });
});

describe("GET /series/{name}/chapters, /latest and /most-liked", () => {
  let shelf: SeriesRef;
  let ids: Record<number, number>;

  beforeAll(async () => {
    shelf = await createSeries("Four Chapters");
    const page = await uploadPng(api, alice);
    ids = {};
    for (const number of [1, 2, 3, 4])
      ids[number] = (await publish(shelf, { title: `Ch ${number}`, content: "secret notes", pages: [page] })).id;
    // Likes: 1 -> 2, 2 -> 0, 3 -> 2, 4 -> 1.
    await like(shelf, 1, bob);
    await like(shelf, 1, carol);
    await like(shelf, 3, bob);
    await like(shelf, 3, carol);
    await like(shelf, 4, bob);
  });

  it("lists chapters highest number first with paging totals", async () => {
    const res = await api.request.get(`${shelf.path}/chapters?page=1&per_page=10`);

    expect(res.status).toBe(200);
    expect(numbers(res)).toEqual([4, 3, 2, 1]);
    expect(res.body).toMatchObject({ page: 1, perPage: 10, totalPages: 1, totalElements: 4 });
  });

  it("/latest lists highest number first too", async () => {
    const res = await api.request.get(`${shelf.path}/chapters/latest`);

    expect(numbers(res)).toEqual([4, 3, 2, 1]);
  });

  it("/latest?per_page=1 gives the latest chapter", async () => {
    const res = await api.request.get(`${shelf.path}/chapters/latest?per_page=1`);

    expect(res.body.content).toHaveLength(1);
    expect(res.body.content[0]).toMatchObject({ id: ids[4], number: 4, title: "Ch 4" });
    expect(res.body).toMatchObject({ totalElements: 4, totalPages: 4 });
  });

  it("/most-liked orders by likes, ties by id desc", async () => {
    const res = await api.request.get(`${shelf.path}/chapters/most-liked?page=1&per_page=10`);

    expect(numbers(res)).toEqual([3, 1, 4, 2]);
    expect(res.body.content.map((c: { likes: number }) => c.likes)).toEqual([2, 2, 1, 0]);
  });

  it("/most-liked pages keep the same order across pages", async () => {
    const first = await api.request.get(`${shelf.path}/chapters/most-liked?page=1&per_page=3`);
    const second = await api.request.get(`${shelf.path}/chapters/most-liked?page=2&per_page=3`);

    expect([...numbers(first), ...numbers(second)]).toEqual([3, 1, 4, 2]);
    expect(second.body).toMatchObject({ totalPages: 2, totalElements: 4 });
  });

  it("list items carry the card fields but never content or pages", async () => {
    const res = await api.request.get(`${shelf.path}/chapters`);

    for (const item of res.body.content) {
      expect(item).not.toHaveProperty("content");
      expect(item).not.toHaveProperty("pages");
    }
    expect(res.body.content[0]).toEqual({
      id: ids[4],
      number: 4,
      title: "Ch 4",
      description: "",
      likes: 1,
      commentCount: 0,
      date: expect.any(String),
      coverId: expect.any(Number),
      authorId: alice.id,
      seriesId: shelf.id,
      seriesName: "Four Chapters",
      pageCount: 1,
      likedByMe: false,
      readByMe: false,
      removed: null,
    });
  });

  it("answers an empty page past the end with the true totals", async () => {
    const res = await api.request.get(`${shelf.path}/chapters?page=5&per_page=2`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: [], page: 5, perPage: 2, totalPages: 2, totalElements: 4 });
  });

  it("accepts size as an alias of per_page", async () => {
    const res = await api.request.get(`${shelf.path}/chapters/most-liked?page=2&size=2`);

    expect(numbers(res)).toEqual([4, 2]);
    expect(res.body.perPage).toBe(2);
  });

  it.each(["per_page=1001", "per_page=0", "page=0", "size=abc"])("answers 400 for %s", async (query) => {
    const res = await api.request.get(`${shelf.path}/chapters?${query}`);

    expect(res.status).toBe(400);
  });

  it("answers 404 for the chapters of an unknown series", async () => {
    const res = await api.request.get("/series/Nobody%20Wrote%20This/chapters");

    expect(res.status).toBe(404);
  });

  it("answers an empty list for a series without chapters", async () => {
    const empty = await createSeries("Empty Shelf");

    const res = await api.request.get(`${empty.path}/chapters/latest?per_page=1`);

    expect(res.body).toEqual({ content: [], page: 1, perPage: 1, totalPages: 1, totalElements: 0 });
  });

  it("follows the first product's recipe for previous and next (docs/api.md §3): read the total, then list them all", async () => {
    const probe = await api.request.get(`${shelf.path}/chapters?page=1&per_page=1`);
    const total = probe.body.totalElements as number;

    const all = await api.request.get(`${shelf.path}/chapters?page=1&per_page=${total}`);

    expect(total).toBe(4);
    expect(numbers(all)).toEqual([4, 3, 2, 1]);
    expect(all.body.totalPages).toBe(1);
  });
});

describe("long chapter lists", () => {
  let saga: SeriesRef;

  beforeAll(async () => {
    saga = await createSeries("Long Saga");
    const page = await uploadPng(api, alice);
    await insertChapters(
      saga,
      alice.id,
      page,
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it("totalElements equals the number of chapters", async () => {
    const res = await api.request.get(`${saga.path}/chapters?per_page=10`);

    expect(res.body).toMatchObject({ totalElements: 25, totalPages: 3 });
  });

  it("pages through every chapter once, highest number first", async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => api.request.get(`${saga.path}/chapters?page=${page}&per_page=10`)));

    expect(pages.flatMap(numbers)).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect(pages[2]!.body.content).toHaveLength(5);
  });

  it("continues numbering after the highest inserted chapter", async () => {
    const res = await api.request
      .post(`${saga.path}/chapters`)
      .set(alice.auth)
      .send({ title: "Twenty-six", pages: [await uploadPng(api, alice)] });
    const latest = await api.request.get(`${saga.path}/chapters/latest?per_page=1`);

    expect(res.body).toMatchObject({ number: 26, previousNumber: 25, nextNumber: null });
    expect(latest.body.content[0].number).toBe(26);
    expect(latest.body.totalElements).toBe(26);
  });

  it("per_page=1000 lists them all on one page", async () => {
    const res = await api.request.get(`${saga.path}/chapters?per_page=1000`);

    expect(res.body.content.length).toBe(res.body.totalElements);
    expect(res.body.totalPages).toBe(1);
  });
});

describe("latest chapter on series cards (home page)", () => {
  it("each top series carries its latest chapter, or null without chapters", async () => {
    const fresh = await startTestApi();
    try {
      const author = await fresh.register("homeauthor");
      const page = await uploadPng(fresh, author);
      await fresh.request.post("/series").set(author.auth).send({ name: "With Chapters" });
      await fresh.request.post("/series").set(author.auth).send({ name: "Without Chapters" });
      await fresh.request
        .post("/series/With%20Chapters/chapters")
        .set(author.auth)
        .send({ title: "First", pages: [page] });
      await fresh.request
        .post("/series/With%20Chapters/chapters")
        .set(author.auth)
        .send({ title: "Second", pages: [page] });

      const res = await fresh.request.get("/series/top?per_page=10");
      const byName = Object.fromEntries(res.body.content.map((s: { name: string }) => [s.name, s]));

      expect(byName["With Chapters"]).toMatchObject({ chapterCount: 2, latestChapter: { number: 2, title: "Second", coverId: page } });
      expect(byName["Without Chapters"]).toMatchObject({ chapterCount: 0, latestChapter: null });
    } finally {
      await fresh.close();
    }
  });
});
