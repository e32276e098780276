// Series metadata and browsing (docs/api.md "Series metadata and browsing"): tags, status, rating
// and reading direction on create and edit; the lists' filters and sorts; GET /tags; the mature rule; lastChapterAt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, registerUsers, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectFieldError } from "../helpers/expect-error.ts";
import { countRows } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

type Card = { id: number; name: string; tags: string[]; status: string; contentRating: string; lastChapterAt: string | null };
type PageBody = { content: Card[]; totalElements: number; totalPages: number; page: number; perPage: number };

/** A fresh API per block, so each block knows every series its lists hold. */
function useApi(names: string[]) {
  const state = { api: undefined as unknown as TestApi, users: [] as TestUser[] };
  beforeAll(async () => {
    state.api = await startTestApi({ adminUsernames: ["root"] });
    state.users = await registerUsers(state.api, names);
  });
  afterAll(() => state.api?.close());
  return state;
}

const get = (api: TestApi, path: string, user?: TestUser) => {
  const req = api.request.get(path);
  return user ? req.set(user.auth) : req;
};

async function create(api: TestApi, user: TestUser, body: Record<string, unknown>): Promise<Card> {
  const res = await api.request.post("/series").set(user.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Card;
}

async function page(api: TestApi, path: string, user?: TestUser): Promise<PageBody> {
  const res = await get(api, path, user);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as PageBody;
}

const names = (body: { content: { name: string }[] }) => body.content.map((s) => s.name);

describe("series metadata on create and edit", () => {
  const s = useApi(["alice", "bob"]);

  it("defaults to no tags, ongoing, general and vertical, and answers them with lastChapterAt null", async () => {
    const made = await create(s.api, s.users[0]!, { name: "Plain Series" });
    expect(made).toMatchObject({
      tags: [],
      status: "ongoing",
      contentRating: "general",
      readingDirection: "vertical",
      lastChapterAt: null,
    });
  });

  it("trims, collapses inner spaces, lowercases and drops repeated tags, keeping the order given", async () => {
    const made = await create(s.api, s.users[0]!, {
      name: "Tagged Series",
      tags: ["  Space   Opera ", "SCI-FI", "space opera", "Rock'n Roll", "Ärger"],
      status: "completed",
      contentRating: "teen",
      readingDirection: "rtl",
    });
    expect(made).toMatchObject({
      tags: ["space opera", "sci-fi", "rock'n roll", "ärger"],
      status: "completed",
      contentRating: "teen",
      readingDirection: "rtl",
    });
    const detail = (await get(s.api, `/series/${made.id}`)).body;
    expect(detail.tags).toEqual(["space opera", "sci-fi", "rock'n roll", "ärger"]);
  });

  it("takes 10 tags, and 11 once repeats are dropped", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `tag ${i}`);
    expect((await create(s.api, s.users[0]!, { name: "Ten Tags", tags: [...ten, "TAG 0"] })).tags).toEqual(ten);
    const res = await s.api.request
      .post("/series")
      .set(s.users[0]!.auth)
      .send({ name: "Eleven Tags", tags: [...ten, "tag 10"] });
    expectFieldError(res, "tags", "A series can have at most 10 tags");
  });

  it("refuses bad tags and enum values with a field error and writes nothing", async () => {
    const before = await countRows(s.api, "Series");
    const tagsBefore = await countRows(s.api, "SeriesTag");
    const bad: [Record<string, unknown>, string][] = [
      [{ tags: ["a".repeat(31)] }, "tags"],
      [{ tags: ["fine", "not/fine"] }, "tags"],
      [{ tags: ["emoji 🙂"] }, "tags"],
      [{ tags: ["   "] }, "tags"],
      [{ tags: "action" }, "tags"],
      [{ tags: [42] }, "tags"],
      [{ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, "tags"],
      [{ status: "finished" }, "status"],
      [{ contentRating: "adult" }, "contentRating"],
      [{ readingDirection: "up" }, "readingDirection"],
      [{ status: null }, "status"],
    ];
    for (const [body, field] of bad) {
      const res = await s.api.request
        .post("/series")
        .set(s.users[0]!.auth)
        .send({ name: "Refused Series", ...body });
      expectFieldError(res, field);
    }
    const res = await s.api.request
      .post("/series")
      .set(s.users[0]!.auth)
      .send({ name: "Refused Series", tags: ["x".repeat(31)] });
    expectFieldError(res, "tags", "Each tag must be 1 to 30 characters of letters, digits, spaces, - and '");
    expect(await countRows(s.api, "Series")).toBe(before);
    expect(await countRows(s.api, "SeriesTag")).toBe(tagsBefore);
  });

  it("an edit keeps absent fields, replaces the tags it is given, and refuses bad values without a change", async () => {
    const [alice, bob] = s.users as [TestUser, TestUser];
    const made = await create(s.api, alice, { name: "Edited Series", tags: ["one", "two"], status: "hiatus", contentRating: "teen" });
    const kept = await s.api.request.put(`/series/${made.id}`).set(alice.auth).send({ name: "Edited Series" });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ tags: ["one", "two"], status: "hiatus", contentRating: "teen", readingDirection: "vertical" });

    const changed = await s.api.request
      .put(`/series/${made.id}`)
      .set(alice.auth)
      .send({ name: "Edited Series", tags: ["Three", "one"], readingDirection: "ltr" });
    expect(changed.body).toMatchObject({ tags: ["three", "one"], status: "hiatus", readingDirection: "ltr" });
    expect(names(await page(s.api, "/series?tag=two"))).not.toContain("Edited Series");
    expect(names(await page(s.api, "/series?tag=three"))).toEqual(["Edited Series"]);

    const refused = await s.api.request.put(`/series/${made.id}`).set(alice.auth).send({ name: "Edited Series", status: "done", tags: [] });
    expectFieldError(refused, "status");
    expect((await get(s.api, `/series/${made.id}`)).body.tags).toEqual(["three", "one"]);

    const cleared = await s.api.request.put(`/series/${made.id}`).set(alice.auth).send({ name: "Edited Series", tags: [] });
    expect(cleared.body.tags).toEqual([]);
    expect((await page(s.api, "/series?tag=three")).totalElements).toBe(0);

    expect(
      (
        await s.api.request
          .put(`/series/${made.id}`)
          .set(bob.auth)
          .send({ name: "Edited Series", tags: ["bob"] })
      ).status,
    ).toBe(403);
    expect((await get(s.api, `/series/${made.id}`)).body.tags).toEqual([]);
  });
});

describe("filters and sorts", () => {
  const s = useApi(["alice", "bob", "carol", "dave"]);
  // Created in this order (ids ascending): newest first is the reverse.
  const specs = [
    { name: "Aurora", tags: ["action", "space"], status: "ongoing", contentRating: "general" },
    { name: "Bramble", tags: ["romance"], status: "completed", contentRating: "teen" },
    { name: "Cinder", tags: ["action"], status: "hiatus", contentRating: "teen" },
    { name: "Dusk", tags: ["space", "action", "drama"], status: "completed", contentRating: "general" },
    { name: "Ember", tags: [], status: "ongoing", contentRating: "general" },
  ];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const [alice, bob, carol, dave] = s.users as [TestUser, TestUser, TestUser, TestUser];
    for (const spec of specs) ids[spec.name] = (await create(s.api, alice, spec)).id;
    // Followers: Cinder 3, Bramble 1, Dusk 1 (ties by id desc: Dusk before Bramble).
    for (const [user, name] of [
      [bob, "Cinder"],
      [carol, "Cinder"],
      [dave, "Cinder"],
      [bob, "Bramble"],
      [carol, "Dusk"],
    ] as const) {
      expect((await s.api.request.post(`/user/${user.id}/followed-series/${ids[name]}`).set(user.auth)).status).toBe(200);
    }
    // Chapters: Bramble first, then Aurora, then Cinder (newest); Dusk and Ember never.
    const pic = await uploadPng(s.api, alice);
    for (const name of ["Bramble", "Aurora", "Cinder"]) {
      const res = await s.api.request
        .post(`/series/${name}/chapters`)
        .set(alice.auth)
        .send({ title: "One", pages: [pic] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  it("sort=new (the default) is newest first", async () => {
    const all = await page(s.api, "/series");
    expect(names(all)).toEqual(["Ember", "Dusk", "Cinder", "Bramble", "Aurora"]);
    expect(names(await page(s.api, "/series?sort=new"))).toEqual(names(all));
    expect(all.totalElements).toBe(5);
  });

  it("sort=popular is followers desc, ties by id desc; /series/top is the same order", async () => {
    const popular = names(await page(s.api, "/series?sort=popular"));
    expect(popular).toEqual(["Cinder", "Dusk", "Bramble", "Ember", "Aurora"]);
    expect(names(await page(s.api, "/series/top"))).toEqual(popular);
  });

  it("sort=updated is the newest chapter first, never-updated series last (ties by id desc)", async () => {
    const body = await page(s.api, "/series?sort=updated");
    expect(names(body)).toEqual(["Cinder", "Aurora", "Bramble", "Ember", "Dusk"]);
    const dates = body.content.map((c) => c.lastChapterAt);
    expect(dates.slice(0, 3).every((d) => typeof d === "string")).toBe(true);
    expect(dates.slice(3)).toEqual([null, null]);
    expect(Date.parse(dates[0]!)).toBeGreaterThan(Date.parse(dates[1]!));
    // Paging through the order loses and repeats nothing.
    const paged = [1, 2, 3].map((p) => page(s.api, `/series?sort=updated&per_page=2&page=${p}`));
    expect((await Promise.all(paged)).flatMap(names)).toEqual(names(body));
  });

  it("one tag, two tags (all must match), tag + status, tag + rating, each with its exact total", async () => {
    const cases: [string, string[]][] = [
      ["/series?tag=action", ["Dusk", "Cinder", "Aurora"]],
      ["/series?tag=action&tag=space", ["Dusk", "Aurora"]],
      ["/series?tag=space&tag=action&tag=drama", ["Dusk"]],
      ["/series?tag=ACTION&tag=%20action", ["Dusk", "Cinder", "Aurora"]],
      ["/series?tag=action&status=completed", ["Dusk"]],
      ["/series?tag=action&rating=teen", ["Cinder"]],
      ["/series?status=ongoing", ["Ember", "Aurora"]],
      ["/series?rating=teen&sort=popular", ["Cinder", "Bramble"]],
      ["/series?tag=action&sort=popular", ["Cinder", "Dusk", "Aurora"]],
      ["/series?tag=action&sort=updated", ["Cinder", "Aurora", "Dusk"]],
      ["/series?tag=nothing", []],
      ["/series/top?tag=action&rating=general", ["Dusk", "Aurora"]],
      ["/series/search?name=u&tag=action", ["Dusk", "Aurora"]],
      ["/series/search?name=u&sort=popular", ["Dusk", "Aurora"]],
      ["/series/search?name=er&sort=updated", ["Cinder", "Ember"]],
      ["/series/search?name=&status=completed", ["Dusk", "Bramble"]],
      ["/series/search?name=RAMB", ["Bramble"]],
      ["/series/search?name=usk&tag=action", ["Dusk"]],
      ["/series/search?name=usk&tag=romance", []],
    ];
    for (const [path, expected] of cases) {
      const body = await page(s.api, path);
      expect(names(body), path).toEqual(expected);
      expect(body.totalElements, path).toBe(expected.length);
    }
    const second = await page(s.api, "/series?tag=action&per_page=2&page=2");
    expect(names(second)).toEqual(["Aurora"]);
    expect(second).toMatchObject({ totalElements: 3, totalPages: 2 });
    const past = await page(s.api, "/series?tag=action&per_page=2&page=9");
    expect(past).toMatchObject({ content: [], totalElements: 3, totalPages: 2 });
  });

  it("refuses unknown values, badly formed tags and repeated single values with 400", async () => {
    const bad: [string, string][] = [
      ["/series?sort=oldest", "sort"],
      ["/series?status=done", "status"],
      ["/series?rating=adult", "rating"],
      ["/series?status=ongoing&status=hiatus", "status"],
      ["/series?tag=a%2Fb", "tag"],
      [`/series?tag=${"a".repeat(31)}`, "tag"],
      ["/series?tag=", "tag"],
      [`/series?${Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join("&")}`, "tag"],
      ["/series/top?rating=x", "rating"],
      ["/series/search?name=a&sort=x", "sort"],
    ];
    for (const [path, field] of bad) expectFieldError(await get(s.api, path), field);
  });

  it("GET /tags: most used first, ties by name, paged with exact totals", async () => {
    const body = (await get(s.api, "/tags")).body;
    expect(body).toEqual({
      content: [
        { name: "action", seriesCount: 3 },
        { name: "space", seriesCount: 2 },
        { name: "drama", seriesCount: 1 },
        { name: "romance", seriesCount: 1 },
      ],
      page: 1,
      perPage: 10,
      totalPages: 1,
      totalElements: 4,
    });
    const second = (await get(s.api, "/tags?per_page=3&page=2")).body;
    expect(second).toMatchObject({ content: [{ name: "romance", seriesCount: 1 }], totalElements: 4, totalPages: 2 });
    expectFieldError(await get(s.api, "/tags?per_page=0"), "per_page");
  });

  it("GET /tags leaves out removed series", async () => {
    const root = await s.api.register("root");
    const res = await s.api.request
      .post("/moderation/remove")
      .set(root.auth)
      .send({ subject: { type: "series", id: ids.Bramble }, reason: "Test" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await get(s.api, "/tags")).body.content.map((t: { name: string }) => t.name)).toEqual(["action", "space", "drama"]);
    await s.api.request
      .post("/moderation/restore")
      .set(root.auth)
      .send({ subject: { type: "series", id: ids.Bramble }, reason: "Test" });
  });
});

describe("the mature rule", () => {
  const s = useApi(["author", "viewer", "fan", "other"]);
  let mature: Card, teen: Card, othersMature: Card;

  beforeAll(async () => {
    const [author, , fan, other] = s.users as [TestUser, TestUser, TestUser, TestUser];
    teen = await create(s.api, author, { name: "Teen Tale", tags: ["dark"], contentRating: "teen" });
    mature = await create(s.api, author, { name: "Mature Tale", tags: ["dark", "gore"], contentRating: "mature" });
    othersMature = await create(s.api, other, { name: "Other Mature", tags: ["dark"], contentRating: "mature" });
    for (const id of [teen.id, mature.id, othersMature.id]) {
      expect((await s.api.request.post(`/user/${fan.id}/followed-series/${id}`).set(fan.auth)).status).toBe(200);
    }
  });

  const setShowMature = (user: TestUser, showMature: unknown) => s.api.request.put(`/user/${user.id}`).set(user.auth).send({ showMature });

  /** Every list that shows series cards, as the given caller sees them. */
  async function lists(user?: TestUser) {
    const [author, , fan] = s.users as [TestUser, TestUser, TestUser];
    const seen: Record<string, string[]> = {};
    const totals: Record<string, number> = {};
    for (const path of [
      "/series",
      "/series?sort=updated",
      "/series/top",
      "/series/search?name=e",
      "/series?tag=dark",
      "/series/search?name=&tag=dark&sort=popular",
    ]) {
      const body = await page(s.api, path, user);
      seen[path] = names(body).sort();
      totals[path] = body.totalElements;
    }
    seen.created = ((await get(s.api, `/user/${author.id}/created-series`, user)).body as Card[]).map((c) => c.name).sort();
    seen.followed = ((await get(s.api, `/user/${fan.id}/followed-series`, user)).body as Card[]).map((c) => c.name).sort();
    const tags = (await get(s.api, "/tags", user)).body.content as { name: string; seriesCount: number }[];
    return { seen, totals, tags };
  }

  const expectOnly = (result: Awaited<ReturnType<typeof lists>>, shown: string[], createdShown: string[]) => {
    for (const [path, got] of Object.entries(result.seen)) {
      if (path === "created") expect(got, path).toEqual(createdShown.sort());
      else expect(got, path).toEqual(shown.slice().sort());
      if (path in result.totals) expect(result.totals[path], path).toBe(shown.length);
    }
  };

  it("guests see no mature series in any list, nor in the tag counts; details still answer", async () => {
    const result = await lists();
    expectOnly(result, ["Teen Tale"], ["Teen Tale"]);
    expect(result.tags).toEqual([{ name: "dark", seriesCount: 1 }]);
    expect((await page(s.api, "/series?rating=mature")).totalElements).toBe(0);
    expect((await get(s.api, "/series/Mature Tale")).body).toMatchObject({ id: mature.id, contentRating: "mature" });
    expect((await get(s.api, `/series/id/${othersMature.id}`)).status).toBe(200);
  });

  it("a user without showMature sees what a guest sees; the caller's own detail says showMature: false, others' null", async () => {
    const [, viewer] = s.users as [TestUser, TestUser];
    expectOnly(await lists(viewer), ["Teen Tale"], ["Teen Tale"]);
    expect((await get(s.api, `/user/id/${viewer.id}`, viewer)).body.showMature).toBe(false);
    expect((await get(s.api, `/user/${viewer.username}`)).body.showMature).toBeNull();
  });

  it("turning showMature on shows every mature series to that user (never a guest's cached list), and off hides them again", async () => {
    const [, viewer] = s.users as [TestUser, TestUser];
    // The guests' answers are in the response cache now.
    expectOnly(await lists(), ["Teen Tale"], ["Teen Tale"]);
    const on = await setShowMature(viewer, true);
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.showMature).toBe(true);
    expect((await get(s.api, `/user/id/${viewer.id}`, viewer)).body.showMature).toBe(true);

    const all = ["Mature Tale", "Other Mature", "Teen Tale"];
    const shown = await lists(viewer);
    expectOnly(shown, all, ["Mature Tale", "Teen Tale"]);
    expect(shown.tags).toEqual([
      { name: "dark", seriesCount: 3 },
      { name: "gore", seriesCount: 1 },
    ]);
    expect(names(await page(s.api, "/series?rating=mature", viewer))).toEqual(["Other Mature", "Mature Tale"]);
    // Asked again (now from the cache), the guest and the user still get their own answers.
    expectOnly(await lists(), ["Teen Tale"], ["Teen Tale"]);
    expectOnly(await lists(viewer), all, ["Mature Tale", "Teen Tale"]);

    expect((await setShowMature(viewer, false)).body.showMature).toBe(false);
    expectOnly(await lists(viewer), ["Teen Tale"], ["Teen Tale"]);
  });

  it("the author without showMature sees their own mature series, not other authors'", async () => {
    const [author] = s.users as [TestUser];
    const result = await lists(author);
    expect(result.seen["/series"]).toEqual(["Mature Tale", "Teen Tale"]);
    expect(result.totals["/series"]).toBe(2);
    expect(result.seen["/series?tag=dark"]).toEqual(["Mature Tale", "Teen Tale"]);
    expect(result.seen.created).toEqual(["Mature Tale", "Teen Tale"]);
    expect(result.seen.followed).toEqual(["Mature Tale", "Teen Tale"]);
    expect(names(await page(s.api, "/series?rating=mature", author))).toEqual(["Mature Tale"]);
    expect(result.tags).toEqual([
      { name: "dark", seriesCount: 2 },
      { name: "gore", seriesCount: 1 },
    ]);
  });

  it("PUT /user/{id} refuses a showMature that is not a boolean, and another user's", async () => {
    const [author, viewer] = s.users as [TestUser, TestUser];
    expectFieldError(await setShowMature(viewer, "yes"), "showMature");
    expectFieldError(await setShowMature(viewer, null), "showMature");
    expect((await s.api.request.put(`/user/${author.id}`).set(viewer.auth).send({ showMature: true })).status).toBe(403);
    expect((await get(s.api, `/user/id/${author.id}`, author)).body.showMature).toBe(false);
  });
});

describe("lastChapterAt", () => {
  const s = useApi(["alice"]);

  it("moves with publishing, deleting, removing and restoring chapters", async () => {
    const [alice] = s.users as [TestUser];
    const root = await s.api.register("root");
    const made = await create(s.api, alice, { name: "Dated Series" });
    const pic = await uploadPng(s.api, alice);
    const publish = async () => {
      const res = await s.api.request
        .post("/series/Dated Series/chapters")
        .set(alice.auth)
        .send({ title: "Ch", pages: [pic] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: number; number: number; date: string };
    };
    const last = async () => (await get(s.api, `/series/${made.id}`)).body.lastChapterAt as string | null;

    const one = await publish();
    expect(await last()).toBe(one.date);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const two = await publish();
    expect(await last()).toBe(two.date);
    expect(Date.parse(two.date)).toBeGreaterThan(Date.parse(one.date));
    const card = (await page(s.api, "/series")).content.find((c) => c.id === made.id)!;
    expect(card.lastChapterAt).toBe(two.date);

    const removal = (action: "remove" | "restore") =>
      s.api.request
        .post(`/moderation/${action}`)
        .set(root.auth)
        .send({ subject: { type: "chapter", id: two.id }, reason: "Test" });
    expect((await removal("remove")).status).toBe(200);
    expect(await last()).toBe(one.date);
    expect((await removal("restore")).status).toBe(200);
    expect(await last()).toBe(two.date);

    expect((await s.api.request.delete("/series/Dated Series/2").set(alice.auth)).status).toBe(200);
    expect(await last()).toBe(one.date);
    expect((await s.api.request.delete("/series/Dated Series/1").set(alice.auth)).status).toBe(200);
    expect(await last()).toBeNull();
  });
});
