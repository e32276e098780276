import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import {
  countRows,
  createHub,
  createPost,
  hubPath,
  ids,
  insertHub,
  insertPost,
  insertUsers,
  joinHub,
  uniqueName,
} from "../helpers/fixtures.ts";

let api: TestApi, alice: TestUser, bob: TestUser;
setUpSharedTestApi(["alice", "bob"], (started, users) => {
  api = started;
  [alice, bob] = users;
});

describe("POST /hubs", () => {
  it("answers 201 with the full hub card, its creator as first member", async () => {
    const name = uniqueName("Manga Lovers");

    const res = await api.request.post("/hubs").set(alice.auth).send({ name, description: "All about manga" });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name,
      description: "All about manga",
      memberCount: 1,
      followersCount: 1,
      postCount: 0,
      profileImageId: null,
      profileBannerId: null,
      authorId: alice.id,
      authorName: alice.username,
      createdAt: expect.any(String),
      latestPost: null,
      joinedByMe: true,
      moderators: [{ id: alice.id, username: alice.username }],
      moderatedByMe: true,
      removed: null,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it("lists the new hub among its creator's member hubs", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.get(`/user/${alice.id}/member-hubs`);

    expect(res.body.map((h: { id: number }) => h.id)).toContain(hub.id);
  });

  it("answers 401 without a token and creates nothing", async () => {
    const before = await countRows(api, "Hub");

    const res = await api.request.post("/hubs").send({ name: uniqueName(), description: "" });

    expect(res.status).toBe(401);
    expect(await countRows(api, "Hub")).toBe(before);
  });

  it("stores the name and description trimmed", async () => {
    const name = uniqueName("Trimmed");

    const res = await api.request
      .post("/hubs")
      .set(alice.auth)
      .send({ name: `  ${name}  `, description: "  about  " });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, description: "about" });
    expect((await api.request.get(hubPath(name))).body.name).toBe(name);
  });

  it("stores '  abc  ' as 'abc'", async () => {
    const res = await api.request.post("/hubs").set(alice.auth).send({ name: "  abc  " });

    expect(res.status).toBe(201);
    expect(res.body.name).toBe("abc");
  });

  it("accepts a missing description as empty", async () => {
    const res = await api.request.post("/hubs").set(alice.auth).send({ name: uniqueName() });

    expect(res.status).toBe(201);
    expect(res.body.description).toBe("");
  });

  it.each([
    ["a name of 3 characters", "x".repeat(2)],
    ["a name of 100 characters", "y".repeat(99)],
  ])("accepts %s", async (_case, stem) => {
    // A per-run letter keeps the name unique without changing its length.
    const name = `${String.fromCharCode(97 + (process.pid % 26))}${stem}`;

    const res = await api.request.post("/hubs").set(alice.auth).send({ name });

    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });

  it("accepts a description of 500 characters", async () => {
    const res = await api.request
      .post("/hubs")
      .set(alice.auth)
      .send({ name: uniqueName(), description: "d".repeat(500) });

    expect(res.status).toBe(201);
    expect(res.body.description).toHaveLength(500);
  });

  it("counts the name's length in characters: 100 emoji are accepted", async () => {
    const name = `${uniqueName("E")} ${"🎨".repeat(80)}`;
    const chars = Array.from(name).length;
    const padded = name + "🎨".repeat(100 - chars);

    const res = await api.request.post("/hubs").set(alice.auth).send({ name: padded });

    expect(res.status).toBe(201);
    expect(Array.from(res.body.name as string)).toHaveLength(100);
  });

  it.each([
    ["a missing name", { description: "x" }, "name", "Hub name is required"],
    ["a null name", { name: null }, "name", "Hub name is required"],
    ["an empty name", { name: "" }, "name", "Hub name is required"],
    ["a name of spaces", { name: "     " }, "name", "Hub name is required"],
    ["a name of 2 characters", { name: "ab" }, "name", "Hub name must be at least 3 characters"],
    ["a name of 2 characters once trimmed", { name: "  ab  " }, "name", "Hub name must be at least 3 characters"],
    ["a name of 101 characters", { name: "n".repeat(101) }, "name", "Hub name must be less than 100 characters"],
    [
      "a description of 501 characters",
      { name: "Valid name", description: "d".repeat(501) },
      "description",
      "Description must be less than 500 characters",
    ],
  ])("rejects %s with its message (docs/web.md §4) and creates nothing", async (_case, body, field, message) => {
    const before = await countRows(api, "Hub");

    const res = await api.request.post("/hubs").set(alice.auth).send(body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: "Bad Request", message });
    expect(res.body.errors).toContainEqual({ field, message });
    expect(await countRows(api, "Hub")).toBe(before);
  });

  it("reports every invalid field at once", async () => {
    const res = await api.request
      .post("/hubs")
      .set(alice.auth)
      .send({ name: "ab", description: "d".repeat(501) });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: "name", message: "Hub name must be at least 3 characters" },
      { field: "description", message: "Description must be less than 500 characters" },
    ]);
  });

  it.each(["top", "TOP", "Search", "iD", "  top  "])("rejects the reserved name %j", async (name) => {
    const res = await api.request.post("/hubs").set(alice.auth).send({ name });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("name");
  });

  it.each([
    ["a slash", "Manga/Anime"],
    ["a NUL character", "Manga\u0000Anime"],
    ["a line feed", "Manga\nAnime"],
    ["a tab", "Manga\tAnime"],
    ["a C1 control character", "Manga\u0085Anime"],
    ["a line separator", "Manga\u2028Anime"],
    ["a right-to-left override", "Manga\u202EAnime"],
  ])("rejects a name with %s", async (_case, name) => {
    const before = await countRows(api, "Hub");

    const res = await api.request.post("/hubs").set(alice.auth).send({ name });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("name");
    expect(await countRows(api, "Hub")).toBe(before);
  });

  it("counts a name's characters once composed: e + accent is one character", async () => {
    const res = await api.request.post("/hubs").set(alice.auth).send({ name: "e\u0301e\u0301" });

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "name", message: "Hub name must be at least 3 characters" });
  });

  it("stores a decomposed name composed", async () => {
    const name = `Cafe\u0301 ${uniqueName()}`;

    const res = await api.request.post("/hubs").set(alice.auth).send({ name });

    expect(res.body.name).toBe(name.normalize("NFC"));
  });

  it("rejects a name that is not text", async () => {
    const res = await api.request.post("/hubs").set(alice.auth).send({ name: 12345 });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("name");
  });

  it.each([
    ["Japanese", "マンガ好きの集まり"],
    ["emoji", "Comics 🎨✨"],
    ["a percent sign and a question mark", "100% Manga? Yes"],
  ])("creates a hub with a %s name, reachable at /hubs/{encoded name}", async (_case, stem) => {
    const name = `${stem} ${process.pid}`;
    const created = await api.request.post("/hubs").set(alice.auth).send({ name });

    const res = await api.request.get(hubPath(name));

    expect(created.status).toBe(201);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, name });
  });

  it("refuses a name taken in another case with 409", async () => {
    const name = uniqueName("Manga");
    await createHub(api, alice, { name });
    const before = await countRows(api, "Hub");

    const res = await api.request.post("/hubs").set(bob.auth).send({ name: name.toUpperCase() });

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: "Conflict", message: "A hub with this name already exists" });
    expect(await countRows(api, "Hub")).toBe(before);
  });

  it("refuses a Unicode name taken in another case ('Ñandú' vs 'ñandú') with 409", async () => {
    const suffix = `${process.pid}`;
    await createHub(api, alice, { name: `Ñandú ${suffix}` });

    const res = await api.request
      .post("/hubs")
      .set(bob.auth)
      .send({ name: `ñandú ${suffix}` });

    expect(res.status).toBe(409);
  });

  it("refuses a name taken in another Unicode normalisation form with 409", async () => {
    const composed = `Café ${process.pid}`;
    await createHub(api, alice, { name: composed });

    const res = await api.request
      .post("/hubs")
      .set(bob.auth)
      .send({ name: composed.normalize("NFD") });

    expect(res.status).toBe(409);
  });

  it("refuses a name that differs only by a full case fold ('Straße' vs 'STRASSE') with 409", async () => {
    await createHub(api, alice, { name: `Straße ${process.pid}` });

    const res = await api.request
      .post("/hubs")
      .set(bob.auth)
      .send({ name: `STRASSE ${process.pid}` });

    expect(res.status).toBe(409);
  });

  it("refuses a name made only of invisible characters as missing", async () => {
    const before = await countRows(api, "Hub");

    const res = await api.request.post("/hubs").set(alice.auth).send({ name: "\u200B\u200B\u200B\u200B" });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "name", message: "Hub name is required" }]);
    expect(await countRows(api, "Hub")).toBe(before);
  });

  it("refuses a taken name sent with surrounding spaces with 409", async () => {
    const name = uniqueName();
    await createHub(api, alice, { name });

    const res = await api.request
      .post("/hubs")
      .set(bob.auth)
      .send({ name: `   ${name} ` });

    expect(res.status).toBe(409);
  });
});

describe("PUT /hubs/{id}", () => {
  it("lets the creator rename and describe the hub", async () => {
    const hub = await createHub(api, alice);
    const name = uniqueName("Renamed");

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name, description: "New words" });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hub.id, name, description: "New words", memberCount: 1, authorId: alice.id });
  });

  it("serves the hub under its new name only after a rename", async () => {
    const hub = await createHub(api, alice);
    const name = uniqueName("Moved");
    await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name });

    const [byNew, byOld] = await Promise.all([api.request.get(hubPath(name)), api.request.get(hubPath(hub.name))]);

    expect(byNew.body.id).toBe(hub.id);
    expect(byOld.status).toBe(404);
  });

  it("keeps the description when the edit leaves it out", async () => {
    const hub = await createHub(api, alice, { description: "Kept words" });

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name: hub.name });

    expect(res.status).toBe(200);
    expect(res.body.description).toBe("Kept words");
  });

  it("clears the description when the edit sends null", async () => {
    const hub = await createHub(api, alice, { description: "Soon gone" });

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name: hub.name, description: null });

    expect(res.body.description).toBe("");
  });

  it("lets the creator change the case of the hub's own name", async () => {
    const hub = await createHub(api, alice, { name: uniqueName("shouting") });

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name: hub.name.toUpperCase() });

    expect(res.status).toBe(200);
    expect(res.body.name).toBe(hub.name.toUpperCase());
  });

  it("refuses a rename to another hub's name in another case with 409 and keeps the name", async () => {
    const taken = await createHub(api, alice);
    const hub = await createHub(api, alice);

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name: taken.name.toLowerCase() });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe("A hub with this name already exists");
    expect((await api.request.get(`/hubs/id/${hub.id}`)).body.name).toBe(hub.name);
  });

  it("answers 403 to someone other than the creator and changes nothing", async () => {
    const hub = await createHub(api, alice, { description: "Original" });

    const res = await api.request.put(`/hubs/${hub.id}`).set(bob.auth).send({ name: uniqueName(), description: "Hijacked" });

    expect(res.status).toBe(403);
    expect((await api.request.get(`/hubs/id/${hub.id}`)).body).toMatchObject({ name: hub.name, description: "Original" });
  });

  it("answers 401 without a token", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.put(`/hubs/${hub.id}`).send({ name: uniqueName() });

    expect(res.status).toBe(401);
  });

  it("answers 404 for an unknown hub", async () => {
    const res = await api.request.put("/hubs/987654").set(alice.auth).send({ name: uniqueName() });

    expect(res.status).toBe(404);
  });

  it("answers 400 for an id that is not a number", async () => {
    const res = await api.request.put("/hubs/abc").set(alice.auth).send({ name: uniqueName() });

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("id");
  });

  it.each([
    [{ name: "ab" }, "name", "Hub name must be at least 3 characters"],
    [{ name: "   " }, "name", "Hub name is required"],
    [{ name: "x".repeat(101) }, "name", "Hub name must be less than 100 characters"],
    [{ name: "Fine name", description: "d".repeat(501) }, "description", "Description must be less than 500 characters"],
  ])("rejects %j with its message (docs/web.md §4) and keeps the hub", async (body, field, message) => {
    const hub = await createHub(api, alice);

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send(body);

    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
    expect((await api.request.get(`/hubs/id/${hub.id}`)).body.name).toBe(hub.name);
  });

  it("rejects a rename to a reserved name", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.put(`/hubs/${hub.id}`).set(alice.auth).send({ name: "Search" });

    expect(res.status).toBe(400);
  });
});

describe("GET /hubs/{name} and /hubs/id/{id}", () => {
  it("finds a hub by its name in any case", async () => {
    const hub = await createHub(api, alice, { name: uniqueName("Seinen Corner") });

    const res = await api.request.get(hubPath(hub.name.toUpperCase()));

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hub.id, name: hub.name, authorName: alice.username });
  });

  it("finds a hub by id at /hubs/id/{id}", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.get(`/hubs/id/${hub.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hub.id, name: hub.name, memberCount: 1, followersCount: 1 });
  });

  it("answers 404 'No hub found.' for an unknown name", async () => {
    const res = await api.request.get(hubPath(uniqueName("Nowhere")));

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, error: "Not Found", message: "No hub found." });
  });

  it("answers 404 for an unknown id at /hubs/id/{id}", async () => {
    const res = await api.request.get("/hubs/id/987654");

    expect(res.status).toBe(404);
  });

  it.each(["abc", "0", "-1", "1.5", "99999999999"])("answers 400 for the id %j at /hubs/id/{id}", async (id) => {
    const res = await api.request.get(`/hubs/id/${id}`);

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("id");
  });

  it("falls back to the id when no hub has the all-digit name", async () => {
    const hub = await createHub(api, alice);

    const res = await api.request.get(`/hubs/${hub.id}`);

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(hub.id);
  });

  it("prefers a hub named '2024' over the hub with id 2024", async () => {
    await insertHub(api, { id: 2024, name: uniqueName("Id 2024"), authorId: alice.id });
    const named = await createHub(api, alice, { name: "2024" });

    const res = await api.request.get("/hubs/2024");

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: named.id, name: "2024" });
    expect(named.id).not.toBe(2024);
  });

  it("answers 404 for an all-digit name that is neither a name nor an id", async () => {
    const res = await api.request.get("/hubs/987654");

    expect(res.status).toBe(404);
  });

  it("tells a member that they joined, and a guest or non-member that they did not", async () => {
    const hub = await createHub(api, alice);

    const [member, other, guest] = await Promise.all([
      api.request.get(hubPath(hub.name)).set(alice.auth),
      api.request.get(hubPath(hub.name)).set(bob.auth),
      api.request.get(hubPath(hub.name)),
    ]);

    expect([member.body.joinedByMe, other.body.joinedByMe, guest.body.joinedByMe]).toEqual([true, false, false]);
  });

  it("counts a new member in memberCount and followersCount alike", async () => {
    const hub = await createHub(api, alice);
    await joinHub(api, bob, hub.id);

    const res = await api.request.get(`/hubs/id/${hub.id}`);

    expect(res.body).toMatchObject({ memberCount: 2, followersCount: 2 });
  });

  it("shows the latest post and the post count", async () => {
    const hub = await createHub(api, alice);
    await createPost(api, alice, hub.id, { title: "First post" });
    const second = await createPost(api, alice, hub.id, { title: "Second post" });

    const res = await api.request.get(hubPath(hub.name));

    expect(res.body.postCount).toBe(2);
    expect(res.body.latestPost).toEqual({ id: second.id, title: "Second post", date: expect.any(String) });
  });
});

describe("hub lists", () => {
  // A database of its own, so the lists hold exactly the hubs made here.
  let lists: TestApi;
  let authorId: number;
  const T = Date.UTC(2025, 0, 1);
  const hub = {} as Record<"old" | "tieA" | "tieB" | "newest" | "underscore" | "accented", number>;
  beforeAll(async () => {
    lists = await startTestApi();
    [authorId] = (await insertUsers(lists, 1)) as [number];
    hub.old = await insertHub(lists, { name: "Old Manga Club", authorId, createdAt: T, extraMembers: 4 });
    hub.tieA = await insertHub(lists, { name: "Tie Alpha", authorId, createdAt: T + 1000, extraMembers: 2 });
    hub.tieB = await insertHub(lists, { name: "Tie Beta", authorId, createdAt: T + 1000, extraMembers: 2 });
    hub.newest = await insertHub(lists, { name: "100% Webcomics", authorId, createdAt: T + 2000 });
    hub.underscore = await insertHub(lists, { name: "snake_case fans", authorId, createdAt: T + 500, extraMembers: 6 });
    hub.accented = await insertHub(lists, { name: "ÑANDÚ Manga", authorId, createdAt: T + 1500, extraMembers: 1 });
  });
  afterAll(() => lists.close());

  it("lists hubs newest first, ties broken by id descending", async () => {
    const res = await lists.request.get("/hubs");

    expect(ids(res.body)).toEqual([hub.newest, hub.accented, hub.tieB, hub.tieA, hub.underscore, hub.old]);
    expect(res.body).toMatchObject({ page: 1, perPage: 10, totalPages: 1, totalElements: 6 });
  });

  it("lists top hubs by member count, ties broken by id descending", async () => {
    const res = await lists.request.get("/hubs/top");

    expect(ids(res.body)).toEqual([hub.underscore, hub.old, hub.tieB, hub.tieA, hub.accented, hub.newest]);
    expect(res.body.content.map((h: { memberCount: number }) => h.memberCount)).toEqual([7, 5, 3, 3, 2, 1]);
  });

  it("limits top hubs to per_page", async () => {
    const res = await lists.request.get("/hubs/top?per_page=2");

    expect(ids(res.body)).toEqual([hub.underscore, hub.old]);
    expect(res.body).toMatchObject({ perPage: 2, totalPages: 3, totalElements: 6 });
  });

  it("gives every card the same followersCount as memberCount, and the author's name", async () => {
    const res = await lists.request.get("/hubs");

    for (const card of res.body.content) {
      expect(card.followersCount).toBe(card.memberCount);
      expect(card.authorId).toBe(authorId);
      expect(card.authorName).toMatch(/^fx/);
    }
  });

  it("searches names case-insensitively by substring, newest first", async () => {
    const res = await lists.request.get("/hubs/search?name=MANGA");

    expect(ids(res.body)).toEqual([hub.accented, hub.old]);
    expect(res.body.totalElements).toBe(2);
  });

  it("searches non-ASCII names case-insensitively", async () => {
    const res = await lists.request.get(`/hubs/search?name=${encodeURIComponent("ñandú")}`);

    expect(ids(res.body)).toEqual([hub.accented]);
  });

  it("treats '%' in the search text literally", async () => {
    const res = await lists.request.get(`/hubs/search?name=${encodeURIComponent("%")}`);

    expect(ids(res.body)).toEqual([hub.newest]);
  });

  it("treats '_' in the search text literally", async () => {
    const res = await lists.request.get("/hubs/search?name=_");

    expect(ids(res.body)).toEqual([hub.underscore]);
  });

  it("lists every hub, newest first, for an empty search", async () => {
    const [search, all] = await Promise.all([lists.request.get("/hubs/search?name="), lists.request.get("/hubs")]);

    expect(search.body).toEqual(all.body);
  });

  it("lists every hub when the search has no name at all", async () => {
    const res = await lists.request.get("/hubs/search");

    expect(res.body.totalElements).toBe(6);
  });

  it("answers 400 for a search name given twice", async () => {
    const res = await lists.request.get("/hubs/search?name=a&name=b");

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "name", message: "name must be text" }]);
  });

  it("answers 400 for a search name of more than 200 characters", async () => {
    const res = await lists.request.get(`/hubs/search?name=${"a".repeat(201)}`);

    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("name");
  });

  it("answers an empty page with totalPages 1 when nothing matches", async () => {
    const res = await lists.request.get("/hubs/search?name=zzzz-none");

    expect(res.body).toEqual({ content: [], page: 1, perPage: 10, totalPages: 1, totalElements: 0 });
  });

  it("puts null as latestPost on a card of a hub without posts", async () => {
    const res = await lists.request.get("/hubs");

    const card = res.body.content.find((h: { id: number }) => h.id === hub.tieA);
    expect(card).toMatchObject({ latestPost: null, postCount: 0 });
  });

  it("puts the newest post, ties broken by id, and the post count on a hub card", async () => {
    await insertPost(lists, { hubId: hub.old, authorId, title: "Older post", date: T + 10 });
    await insertPost(lists, { hubId: hub.old, authorId, title: "Tie one", date: T + 20 });
    const latest = await insertPost(lists, { hubId: hub.old, authorId, title: "Tie two", date: T + 20 });

    const res = await lists.request.get("/hubs");

    const card = res.body.content.find((h: { id: number }) => h.id === hub.old);
    expect(card.postCount).toBe(3);
    expect(card.latestPost).toEqual({ id: latest, title: "Tie two", date: new Date(T + 20).toISOString() });
  });

  it("never puts post content on a hub card", async () => {
    const res = await lists.request.get("/hubs");

    const card = res.body.content.find((h: { id: number }) => h.id === hub.old);
    expect(Object.keys(card.latestPost).sort()).toEqual(["date", "id", "title"]);
  });
});
