import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectFieldErrorAsMessage } from "../helpers/expect-error.ts";
import { countRows } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi, alice: TestUser, bob: TestUser;

setUpSharedTestApi(["alice", "bob"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

let seriesSeq = 0;
/** A unique series name per call, so tests in this file do not collide. */
const uniqueName = (prefix = "Series") => `${prefix} ${++seriesSeq}`;

async function createSeries(user: TestUser, body: Record<string, unknown> = {}) {
  const res = await api.request
    .post("/series")
    .set(user.auth)
    .send({ name: uniqueName(), ...body });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; description: string };
}

const seriesCount = () => countRows(api, "Series");

describe("POST /series", () => {
  it("creates a series and answers the full series shape", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "Space Pirates", description: "Arr, in space." });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Space Pirates",
      description: "Arr, in space.",
      author: alice.id,
      authorName: "alice",
      followersCount: 0,
      profileImageId: null,
      profileBannerId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      chapterCount: 0,
      latestChapter: null,
      followedByMe: false,
      removed: null,
      tags: [],
      status: "ongoing",
      contentRating: "general",
      readingDirection: "vertical",
      lastChapterAt: null,
    });
  });

  it("accepts a body with only a name (the first product's form) and defaults the description to empty", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "Only A Name" });

    expect(res.status).toBe(201);
    expect(res.body.description).toBe("");
  });

  it("trims the name before saving it", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "   Trimmed Tales \t " });

    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Trimmed Tales");
  });

  it("keeps Unicode names and finds them again by their URL-encoded name", async () => {
    const created = await api.request.post("/series").set(alice.auth).send({ name: "ワンピース Café ñandú" });

    const found = await api.request.get(`/series/${encodeURIComponent("ワンピース Café ñandú")}`);

    expect(created.status).toBe(201);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: created.body.id, name: "ワンピース Café ñandú" });
  });

  it.each([
    ["a missing", {}],
    ["a null", { name: null }],
    ["an empty", { name: "" }],
    ["an all-space", { name: "    " }],
  ])("rejects %s name with 'Series name is required'", async (_label, body) => {
    const before = await seriesCount();

    const res = await api.request.post("/series").set(alice.auth).send(body);

    expectFieldErrorAsMessage(res, "name", "Series name is required");
    expect(await seriesCount()).toBe(before);
  });

  it("rejects a 2-character name with 'Series name must be at least 3 characters'", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "ab" });

    expectFieldErrorAsMessage(res, "name", "Series name must be at least 3 characters");
  });

  it("counts the length after trimming", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "  ab  " });

    expectFieldErrorAsMessage(res, "name", "Series name must be at least 3 characters");
  });

  it("accepts a name of exactly 3 characters", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "Abc" });

    expect(res.status).toBe(201);
  });

  it("accepts a name of exactly 100 characters", async () => {
    const name = "N".repeat(100);

    const res = await api.request.post("/series").set(alice.auth).send({ name });

    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });

  it("rejects a 101-character name with 'Series name must be less than 100 characters'", async () => {
    const res = await api.request
      .post("/series")
      .set(alice.auth)
      .send({ name: "L".repeat(101) });

    expectFieldErrorAsMessage(res, "name", "Series name must be less than 100 characters");
  });

  it("counts characters, not UTF-16 units: 100 emoji are a valid name", async () => {
    const res = await api.request
      .post("/series")
      .set(alice.auth)
      .send({ name: "🐉".repeat(100) });

    expect(res.status).toBe(201);
  });

  it("rejects a name that is not text", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: 12345 });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "name", message: expect.any(String) });
  });

  it.each(["top", "search", "TOP", "Search", " sEaRcH ", "ｔｏｐ"])("rejects the reserved name %j", async (name) => {
    const before = await seriesCount();

    const res = await api.request.post("/series").set(alice.auth).send({ name });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "name", message: expect.stringContaining("reserved") });
    expect(await seriesCount()).toBe(before);
  });

  it.each(["id", "ID", "  iD  "])("rejects the name %j (reserved, and too short anyway)", async (name) => {
    const before = await seriesCount();

    const res = await api.request.post("/series").set(alice.auth).send({ name });

    expectFieldErrorAsMessage(res, "name", "Series name must be at least 3 characters");
    expect(await seriesCount()).toBe(before);
  });

  it("rejects a name containing '/'", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "AC/DC Comics" });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "name", message: expect.stringContaining("/") });
  });

  it("rejects a name containing a control character", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: "Bad\u0007Name" });

    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe("name");
  });

  it("rejects a description over 500 characters", async () => {
    const res = await api.request
      .post("/series")
      .set(alice.auth)
      .send({ name: uniqueName(), description: "d".repeat(501) });

    expectFieldErrorAsMessage(res, "description", "Description must be less than 500 characters");
  });

  it("answers 409 'A series with this name already exists' for a taken name", async () => {
    await api.request.post("/series").set(alice.auth).send({ name: "Taken Name" });

    const res = await api.request.post("/series").set(bob.auth).send({ name: "Taken Name" });

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: "Conflict", message: "A series with this name already exists" });
  });

  it("treats names that differ only in case as taken", async () => {
    await api.request.post("/series").set(alice.auth).send({ name: "Case Study" });
    const before = await seriesCount();

    const res = await api.request.post("/series").set(bob.auth).send({ name: "  cASE sTUDY " });

    expect(res.status).toBe(409);
    expect(await seriesCount()).toBe(before);
  });

  it("treats non-ASCII names that differ only in case as taken", async () => {
    await api.request.post("/series").set(alice.auth).send({ name: "Ёлка Зима" });

    const res = await api.request.post("/series").set(bob.auth).send({ name: "ёлка зима" });

    expect(res.status).toBe(409);
  });

  it("answers 401 without a token", async () => {
    const before = await seriesCount();

    const res = await api.request.post("/series").send({ name: uniqueName() });

    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, error: "Unauthorized" });
    expect(await seriesCount()).toBe(before);
  });

  it("answers 401 for a tampered token", async () => {
    const res = await api.request.post("/series").set("Authorization", `Bearer ${alice.token}x`).send({ name: uniqueName() });

    expect(res.status).toBe(401);
  });

  it("answers 400 for malformed JSON and creates nothing", async () => {
    const before = await seriesCount();

    const res = await api.request.post("/series").set(alice.auth).set("Content-Type", "application/json").send('{"name": "Broken');

    expect(res.status).toBe(400);
    expect(await seriesCount()).toBe(before);
  });

  it("sets a logo and a banner the author uploaded", async () => {
    const logo = await uploadPng(api, alice);
    const banner = await uploadPng(api, alice);

    const res = await api.request
      .post("/series")
      .set(alice.auth)
      .send({ name: uniqueName(), profileImageId: logo, profileBannerId: banner });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ profileImageId: logo, profileBannerId: banner });
  });

  it("rejects a logo another user uploaded with a field error, creating nothing", async () => {
    const bobsImage = await uploadPng(api, bob);
    const before = await seriesCount();

    const res = await api.request.post("/series").set(alice.auth).send({ name: uniqueName(), profileImageId: bobsImage });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "profileImageId", message: expect.any(String) }]);
    expect(await seriesCount()).toBe(before);
  });

  it("rejects a banner id that is no image at all", async () => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: uniqueName(), profileBannerId: 999_999 });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "profileBannerId", message: expect.any(String) }]);
  });

  it.each([0, -1, 1.5, "7"])("rejects the image id %j with a field error", async (profileImageId) => {
    const res = await api.request.post("/series").set(alice.auth).send({ name: uniqueName(), profileImageId });

    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe("profileImageId");
  });
});

describe("GET /series/{name} and /series/id/{id}", () => {
  it("finds a series by its name in any case", async () => {
    const series = await createSeries(alice, { name: "Moon Rabbit Diaries" });

    const res = await api.request.get("/series/mOON%20rabbit%20DIARIES");

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: series.id, name: "Moon Rabbit Diaries", authorName: "alice", followedByMe: false });
  });

  it("finds a series by id under /series/id/{id}", async () => {
    const series = await createSeries(alice);

    const res = await api.request.get(`/series/id/${series.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: series.id, name: series.name });
  });

  it("falls back to the id when an all-digit name matches no series (the edit form's call)", async () => {
    const series = await createSeries(alice);

    const res = await api.request.get(`/series/${series.id}`);

    expect(res.status).toBe(200);
    expect(res.body.name).toBe(series.name);
  });

  it("prefers a series named with digits over the id fallback", async () => {
    const target = await createSeries(alice);
    const digitsName = String(target.id).padStart(3, "0");
    const named = await createSeries(bob, { name: digitsName });

    const res = await api.request.get(`/series/${digitsName}`);

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(named.id);
  });

  it("answers 404 'No series found.' for an unknown name", async () => {
    const res = await api.request.get("/series/Nothing%20Like%20This");

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, error: "Not Found", message: "No series found." });
  });

  it("answers 404 for an unknown numeric id on both paths", async () => {
    const byName = await api.request.get("/series/987654");
    const byId = await api.request.get("/series/id/987654");

    expect(byName.status).toBe(404);
    expect(byId.status).toBe(404);
  });

  it.each(["abc", "0", "-3", "99999999999"])("answers 400 for the id %j under /series/id/{id}", async (id) => {
    const res = await api.request.get(`/series/id/${id}`);

    expect(res.status).toBe(400);
  });

  it("answers 400, not 5xx, for a malformed percent-encoding in the name", async () => {
    const res = await api.request.get("/series/%E0%A4%A");

    expect(res.status).toBe(400);
  });

  it("answers 401 on this public path for an unparseable token", async () => {
    const series = await createSeries(alice);

    const res = await api.request.get(`/series/id/${series.id}`).set("Authorization", "Bearer not.a.jwt");

    expect(res.status).toBe(401);
  });

  it("shows followedByMe to a follower only", async () => {
    const series = await createSeries(alice);
    const follow = await api.request.post(`/user/${bob.id}/followed-series/${series.id}`).set(bob.auth);

    const asBob = await api.request.get(`/series/${encodeURIComponent(series.name)}`).set(bob.auth);
    const asAlice = await api.request.get(`/series/${encodeURIComponent(series.name)}`).set(alice.auth);
    const asGuest = await api.request.get(`/series/id/${series.id}`);

    expect(follow.body).toEqual({ following: true, followersCount: 1 });
    expect(asBob.body).toMatchObject({ followedByMe: true, followersCount: 1 });
    expect(asAlice.body).toMatchObject({ followedByMe: false, followersCount: 1 });
    expect(asGuest.body).toMatchObject({ followedByMe: false, followersCount: 1 });
  });

  it("clears followedByMe after unfollowing", async () => {
    const series = await createSeries(alice);
    await api.request.post(`/user/${bob.id}/followed-series/${series.id}`).set(bob.auth);
    await api.request.delete(`/user/${bob.id}/followed-series/${series.id}`).set(bob.auth);

    const res = await api.request.get(`/series/id/${series.id}`).set(bob.auth);

    expect(res.body).toMatchObject({ followedByMe: false, followersCount: 0 });
  });
});

describe("PUT /series/{id}", () => {
  it("renames a series: the new name is found, the old one is gone", async () => {
    const series = await createSeries(alice, { name: "Before Rename" });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: "  After Rename  " });
    const oldName = await api.request.get("/series/Before%20Rename");
    const newName = await api.request.get("/series/after%20rename");

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: series.id, name: "After Rename", author: alice.id });
    expect(oldName.status).toBe(404);
    expect(newName.body.id).toBe(series.id);
  });

  it("allows changing only the case of the series' own name", async () => {
    const series = await createSeries(alice, { name: "Lower Case Me" });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: "LOWER CASE ME" });

    expect(res.status).toBe(200);
    expect(res.body.name).toBe("LOWER CASE ME");
  });

  it("answers 409 when renaming to another series' name in another case", async () => {
    await createSeries(bob, { name: "Already Here" });
    const series = await createSeries(alice, { name: "Wants That Name" });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: "already HERE" });
    const unchanged = await api.request.get(`/series/id/${series.id}`);

    expect(res.status).toBe(409);
    expect(res.body.message).toBe("A series with this name already exists");
    expect(unchanged.body.name).toBe("Wants That Name");
  });

  it("updates the description when one is given", async () => {
    const series = await createSeries(alice, { description: "old" });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: series.name, description: "new words" });

    expect(res.body.description).toBe("new words");
  });

  it("keeps the description when the body carries only a name (the first product's edit form, docs/api.md §5)", async () => {
    const series = await createSeries(alice, { description: "Keep me" });

    const res = await api.request
      .put(`/series/${series.id}`)
      .set(alice.auth)
      .send({ name: `${series.name} v2` });

    expect(res.status).toBe(200);
    expect(res.body.description).toBe("Keep me");
  });

  it("clears the description when it is given as null", async () => {
    const series = await createSeries(alice, { description: "Going away" });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: series.name, description: null });

    expect(res.body.description).toBe("");
  });

  it("answers 403 to a user who is not the author and changes nothing", async () => {
    const series = await createSeries(alice);

    const res = await api.request.put(`/series/${series.id}`).set(bob.auth).send({ name: "Hijacked Name" });
    const after = await api.request.get(`/series/id/${series.id}`);

    expect(res.status).toBe(403);
    expect(res.body.status).toBe(403);
    expect(after.body.name).toBe(series.name);
  });

  it("answers 401 without a token", async () => {
    const series = await createSeries(alice);

    const res = await api.request.put(`/series/${series.id}`).send({ name: "No Token Rename" });

    expect(res.status).toBe(401);
  });

  it("answers 404 for an unknown series id", async () => {
    const res = await api.request.put("/series/987654").set(alice.auth).send({ name: "Ghost Series" });

    expect(res.status).toBe(404);
  });

  it("answers 400 for a non-numeric id", async () => {
    const res = await api.request.put("/series/not-a-number").set(alice.auth).send({ name: "Whatever Name" });

    expect(res.status).toBe(400);
  });

  it("validates the new name with the messages of docs/web.md §4", async () => {
    const series = await createSeries(alice);

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: "x" });

    expectFieldErrorAsMessage(res, "name", "Series name must be at least 3 characters");
  });

  it("rejects renaming to a reserved name", async () => {
    const series = await createSeries(alice);

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: "Search" });

    expect(res.status).toBe(400);
  });

  it("sets a logo and a banner the author uploaded", async () => {
    const series = await createSeries(alice);
    const logo = await uploadPng(api, alice);
    const banner = await uploadPng(api, alice);

    const res = await api.request
      .put(`/series/${series.id}`)
      .set(alice.auth)
      .send({ name: series.name, profileImageId: logo, profileBannerId: banner });

    expect(res.body).toMatchObject({ profileImageId: logo, profileBannerId: banner });
  });

  it("keeps the logo and banner when the body leaves them out", async () => {
    const logo = await uploadPng(api, alice);
    const banner = await uploadPng(api, alice);
    const series = await createSeries(alice, { profileImageId: logo, profileBannerId: banner });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: series.name, description: "edited" });

    expect(res.body).toMatchObject({ profileImageId: logo, profileBannerId: banner });
  });

  it("clears an image given as null and keeps the other", async () => {
    const logo = await uploadPng(api, alice);
    const banner = await uploadPng(api, alice);
    const series = await createSeries(alice, { profileImageId: logo, profileBannerId: banner });

    const res = await api.request.put(`/series/${series.id}`).set(alice.auth).send({ name: series.name, profileImageId: null });

    expect(res.body).toMatchObject({ profileImageId: null, profileBannerId: banner });
  });

  it("rejects another user's image as banner with a field error and changes nothing", async () => {
    const series = await createSeries(alice, { description: "steady" });
    const bobsImage = await uploadPng(api, bob);

    const res = await api.request
      .put(`/series/${series.id}`)
      .set(alice.auth)
      .send({ name: "Renamed Anyway", description: "changed", profileBannerId: bobsImage });
    const after = await api.request.get(`/series/id/${series.id}`);

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "profileBannerId", message: expect.any(String) }]);
    expect(after.body).toMatchObject({ name: series.name, description: "steady", profileBannerId: null });
  });
});

describe("series lists", () => {
  let listApi: TestApi;
  let author: TestUser;
  let readers: TestUser[];
  let created: { id: number; name: string }[];

  beforeAll(async () => {
    listApi = await startTestApi();
    author = await listApi.register("lister");
    readers = [await listApi.register("reader1"), await listApi.register("reader2"), await listApi.register("reader3")];
    created = [];
    for (const name of ["Alpha Star", "Beta 50% Off", "Gamma_Ray", "Delta Star", "Epsilon"]) {
      const res = await listApi.request.post("/series").set(author.auth).send({ name });
      created.push(res.body);
    }
    // Followers: Beta 3, Delta 1, Gamma 1, Alpha 0, Epsilon 0.
    const follow = (reader: TestUser, seriesIndex: number) =>
      listApi.request.post(`/user/${reader.id}/followed-series/${created[seriesIndex]!.id}`).set(reader.auth);
    for (const reader of readers) await follow(reader, 1);
    await follow(readers[0]!, 3);
    await follow(readers[1]!, 2);
  });
  afterAll(() => listApi.close());

  const names = (res: { body: { content: { name: string }[] } }) => res.body.content.map((s) => s.name);

  it("GET /series lists newest first with paging totals", async () => {
    const res = await listApi.request.get("/series?page=1&per_page=10");

    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Epsilon", "Delta Star", "Gamma_Ray", "Beta 50% Off", "Alpha Star"]);
    expect(res.body).toMatchObject({ page: 1, perPage: 10, totalPages: 1, totalElements: 5 });
  });

  it("list items carry the series card fields", async () => {
    const res = await listApi.request.get("/series?per_page=1");

    expect(Object.keys(res.body.content[0]).sort()).toEqual(
      [
        "author",
        "authorName",
        "chapterCount",
        "createdAt",
        "description",
        "followersCount",
        "id",
        "latestChapter",
        "name",
        "profileBannerId",
        "profileImageId",
        "removed",
        "tags",
        "status",
        "contentRating",
        "readingDirection",
        "lastChapterAt",
      ].sort(),
    );
  });

  it("splits pages by per_page and reports the true totals", async () => {
    const first = await listApi.request.get("/series?page=1&per_page=2");
    const last = await listApi.request.get("/series?page=3&per_page=2");

    expect(names(first)).toEqual(["Epsilon", "Delta Star"]);
    expect(names(last)).toEqual(["Alpha Star"]);
    expect(last.body).toMatchObject({ page: 3, perPage: 2, totalPages: 3, totalElements: 5 });
  });

  it("answers an empty page past the end with the true totals", async () => {
    const res = await listApi.request.get("/series?page=9&per_page=2");

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: [], page: 9, perPage: 2, totalPages: 3, totalElements: 5 });
  });

  it("accepts size as an alias of per_page", async () => {
    const res = await listApi.request.get("/series?size=2");

    expect(res.body.perPage).toBe(2);
    expect(res.body.content).toHaveLength(2);
  });

  it("accepts per_page up to 1000", async () => {
    const res = await listApi.request.get("/series?per_page=1000");

    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(5);
  });

  it.each(["per_page=1001", "per_page=0", "page=0", "page=abc", "size=-1", "page=1.5"])("answers 400 for %s", async (query) => {
    const res = await listApi.request.get(`/series?${query}`);

    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
  });

  it("GET /series/top orders by followers, ties by id desc", async () => {
    const res = await listApi.request.get("/series/top?per_page=10");

    expect(names(res)).toEqual(["Beta 50% Off", "Delta Star", "Gamma_Ray", "Epsilon", "Alpha Star"]);
    expect(res.body.content.map((s: { followersCount: number }) => s.followersCount)).toEqual([3, 1, 1, 0, 0]);
  });

  it("GET /series/top without a page size uses the default and the totals", async () => {
    const res = await listApi.request.get("/series/top");

    expect(res.body).toMatchObject({ page: 1, perPage: 10, totalElements: 5 });
  });

  it("GET /series/top?per_page=2 gives the two most followed", async () => {
    const res = await listApi.request.get("/series/top?per_page=2");

    expect(names(res)).toEqual(["Beta 50% Off", "Delta Star"]);
    expect(res.body.totalPages).toBe(3);
  });

  it("search matches a substring case-insensitively, newest first", async () => {
    const res = await listApi.request.get("/series/search?name=STAR&page=1&per_page=10");

    expect(names(res)).toEqual(["Delta Star", "Alpha Star"]);
    expect(res.body).toMatchObject({ totalElements: 2, totalPages: 1 });
  });

  it("search treats % and _ as plain characters", async () => {
    const percent = await listApi.request.get("/series/search?name=%25");
    const underscore = await listApi.request.get("/series/search?name=_");

    expect(names(percent)).toEqual(["Beta 50% Off"]);
    expect(names(underscore)).toEqual(["Gamma_Ray"]);
  });

  it("search pages its results with true totals", async () => {
    const res = await listApi.request.get("/series/search?name=a&page=2&per_page=2");

    // "a" is in Alpha, Beta, Gamma, Delta (not Epsilon): newest first.
    expect(names(res)).toEqual(["Beta 50% Off", "Alpha Star"]);
    expect(res.body).toMatchObject({ page: 2, totalPages: 2, totalElements: 4 });
  });

  it("search with no match answers an empty page", async () => {
    const res = await listApi.request.get("/series/search?name=zzz");

    expect(res.body).toEqual({ content: [], page: 1, perPage: 10, totalPages: 1, totalElements: 0 });
  });

  it("search without a name lists every series", async () => {
    const res = await listApi.request.get("/series/search");

    expect(res.body.totalElements).toBe(5);
  });

  it("search rejects bad paging with 400", async () => {
    const res = await listApi.request.get("/series/search?name=a&per_page=5000");

    expect(res.status).toBe(400);
  });

  it("GET /series/top is not shadowed by a series lookup", async () => {
    const res = await listApi.request.get("/series/TOP");

    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty("content");
  });
});
