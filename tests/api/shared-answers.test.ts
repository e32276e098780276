// A signed-in caller's answer built from the one everyone shares plus their own flags (docs/decisions/028, docs/api.md
// "The response cache"): byte for byte what the caller's own computation answers (an instance with the cache off, on
// the same database), for a caller who liked, followed and read some items, one who did none of it, one who blocks an
// author, a hub moderator, an admin and a guest; never another caller's flags; fresh at once after a like or a save.
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, stopJobRunner } from "../../server/app.ts";
import { linkedIds } from "../../server/db/counted-toggle.ts";
import { memorySharedState } from "../../server/shared-state.ts";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment } from "../helpers/comments.ts";
import { createHub, createPost, hubPath, joinHub, uniqueName } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

let api: TestApi;
let creator: TestUser, liker: TestUser, none: TestUser, blocker: TestUser, mod: TestUser, admin: TestUser, other: TestUser;
setUpSharedTestApi(
  ["creator", "liker", "none", "blocker", "mod", "root", "other"],
  (started, users) => {
    api = started;
    [creator, liker, none, blocker, mod, admin, other] = users;
  },
  { adminUsernames: ["root"] },
);

/** The same site with the response cache off: each caller's answer computed for them, as before the split. */
let uncached: ReturnType<typeof createApp>;
beforeAll(() => {
  uncached = createApp({ db: api.db, config: { ...api.config, responseCacheEntries: 0 }, shared: memorySharedState(api.db) });
});
afterAll(() => stopJobRunner(uncached));

let hub: { id: number; name: string };
let posts: { id: number }[];
let comments: { id: number }[];
let series: { id: number; name: string; path: string };
let chapterIds: number[];

beforeAll(async () => {
  hub = await createHub(api, creator);
  for (const user of [other, liker]) await joinHub(api, user, hub.id);
  expect((await api.request.put(`/hubs/${hub.id}/moderators/${mod.id}`).set(creator.auth)).status).toBe(200);
  posts = [await createPost(api, creator, hub.id), await createPost(api, other, hub.id), await createPost(api, creator, hub.id)];
  const postPath = `${hubPath(hub.name)}/${posts[0]!.id}`;
  const first = await addComment(api, other, postPath, "First, by the blocked author");
  comments = [first, await addComment(api, creator, postPath, "Second"), await addComment(api, liker, postPath, "A reply", first.id)];

  const made = await api.request
    .post("/series")
    .set(creator.auth)
    .send({ name: uniqueName("Series") });
  expect(made.status).toBe(201);
  series = { id: made.body.id, name: made.body.name, path: `/series/${encodeURIComponent(made.body.name as string)}` };
  const page = await uploadPng(api, creator);
  chapterIds = [];
  for (const title of ["One", "Two", "Three"]) {
    const chapter = await api.request
      .post(`${series.path}/chapters`)
      .set(creator.auth)
      .send({ title, pages: [page] });
    expect(chapter.status).toBe(201);
    chapterIds.push(chapter.body.id as number);
  }
  await addComment(api, other, `${series.path}/1`, "On the chapter");

  // The liker likes, follows and reads some of it; `none` does nothing; the blocker blocks the other author.
  const ok = async (req: supertest.Test) => expect((await req).status).toBe(200);
  await ok(api.request.post(`${hubPath(hub.name)}/${posts[1]!.id}/like`).set(liker.auth));
  await ok(api.request.post(`/comments/${comments[0]!.id}/like`).set(liker.auth));
  await ok(api.request.post(`${series.path}/2/like`).set(liker.auth));
  await ok(api.request.post(`/user/${liker.id}/followed-series/${series.id}`).set(liker.auth));
  await ok(api.request.put(`/me/progress/${series.id}`).set(liker.auth).send({ chapterNumber: 1, page: 1 }));
  await ok(api.request.put(`/me/blocks/${other.id}`).set(blocker.auth));
  // The others like things too, so that their flags would show if they leaked.
  await ok(api.request.post(`${hubPath(hub.name)}/${posts[0]!.id}/like`).set(mod.auth));
  await ok(api.request.post(`${series.path}/3/like`).set(admin.auth));
});

/** Every read whose answer carries the caller's own flags. */
const paths = () => {
  const h = hubPath(hub.name);
  const post = `${h}/${posts[0]!.id}`;
  return [
    `${h}/posts/latest?page=1&size=10`,
    `${h}/posts/by-likes`,
    `${h}/posts/latest?includeBlocked=true`,
    post,
    `${h}/${posts[1]!.id}`,
    `/hub-posts/${posts[1]!.id}`,
    `${post}/comments?page=1`,
    `${post}/comments?sort=newest&includeBlocked=true`,
    `/comments/${comments[0]!.id}/replies`,
    `${series.path}/1/comments`,
    series.path,
    `/series/id/${series.id}`,
    `${series.path}/chapters?page=1`,
    `${series.path}/chapters/latest?per_page=2`,
    `${series.path}/chapters/most-liked`,
    `${series.path}/1`,
    `${series.path}/2`,
  ];
};

type Caller = TestUser | null;
const callers = (): [string, Caller][] => [
  ["liker", liker],
  ["guest", null],
  ["none", none],
  ["blocker", blocker],
  ["mod", mod],
  ["admin", admin],
  ["creator", creator],
];

const get = (app: ReturnType<typeof createApp>, path: string, caller: Caller) => {
  const req = supertest(app).get(path);
  return caller ? req.set(caller.auth) : req;
};

/** Each caller's answers from the cached site equal, byte for byte, what the uncached site computes for them. */
async function expectSameAsComputed(order: [string, Caller][]) {
  for (const path of paths())
    for (const [name, caller] of order) {
      const cached = await get(api.app, path, caller);
      const own = await get(uncached, path, caller);
      expect(cached.status, `${name} ${path}`).toBe(200);
      expect(cached.text, `${name} ${path}`).toBe(own.text);
    }
}

describe("a signed-in caller's answer from the shared one", () => {
  it("is byte for byte the caller's own, for every caller, whoever asks first", async () => {
    await expectSameAsComputed(callers());
    await expectSameAsComputed(callers().reverse());
    // And warm: every answer above is now kept (the guests' bases).
    await expectSameAsComputed(callers());
  });

  it("carries the caller's flags and nobody else's", async () => {
    const list = (caller: Caller) => get(api.app, `${hubPath(hub.name)}/posts/latest`, caller);
    const liked = async (caller: Caller) =>
      ((await list(caller)).body.content as { id: number; likedByMe: boolean }[]).filter((p) => p.likedByMe).map((p) => p.id);
    expect(await liked(liker)).toEqual([posts[1]!.id]);
    expect(await liked(mod)).toEqual([posts[0]!.id]);
    expect(await liked(none)).toEqual([]);
    expect(await liked(null)).toEqual([]);
    const chapters = async (caller: Caller) =>
      ((await get(api.app, `${series.path}/chapters`, caller)).body.content as { number: number; likedByMe: boolean; readByMe: boolean }[])
        .filter((c) => c.likedByMe || c.readByMe)
        .map((c) => `${c.number}${c.likedByMe ? "L" : ""}${c.readByMe ? "R" : ""}`);
    expect(await chapters(liker)).toEqual(["2L", "1R"]);
    expect(await chapters(admin)).toEqual(["3L"]);
    expect(await chapters(none)).toEqual([]);
    expect((await get(api.app, series.path, liker)).body.followedByMe).toBe(true);
    expect((await get(api.app, series.path, none)).body.followedByMe).toBe(false);
  });

  it("comes from the kept answer: a change made behind the API's back does not show, the caller's flags do", async () => {
    const path = `${series.path}/chapters`;
    expect((await get(api.app, path, none)).status).toBe(200);
    // Behind the API's back: the kept answer stays current, so the old title shows to every caller.
    await api.db.kysely.updateTable("Chapter").set({ title: "Renamed quietly" }).where("id", "=", chapterIds[2]!).execute();
    const titleOf3 = async (caller: Caller) =>
      ((await get(api.app, path, caller)).body.content as { number: number; title: string }[]).find((c) => c.number === 3)!.title;
    expect(await titleOf3(liker)).toBe("Three");
    expect(await titleOf3(blocker)).toBe("Three");

    // A progress save does not move the data version (it keeps cached answers), yet the reader's readByMe is fresh.
    expect((await api.request.put(`/me/progress/${series.id}`).set(none.auth).send({ chapterNumber: 3, page: 1 })).status).toBe(200);
    const answer = (await get(api.app, path, none)).body.content as { number: number; title: string; readByMe: boolean }[];
    expect(answer.find((c) => c.number === 3)).toMatchObject({ title: "Three", readByMe: true });
    expect((await get(api.app, path, liker)).body.content.find((c: { number: number }) => c.number === 3).readByMe).toBe(false);
    api.dataChanged();
    expect(await titleOf3(liker)).toBe("Renamed quietly");
  });

  it("is fresh at once after a like and an unlike: the liker's flag and everyone's count", async () => {
    const h = hubPath(hub.name);
    const target = posts[2]!.id;
    const item = async (caller: Caller) =>
      ((await get(api.app, `${h}/posts/latest`, caller)).body.content as { id: number; likes: number; likedByMe: boolean }[]).find(
        (p) => p.id === target,
      )!;
    const before = (await item(null)).likes;
    for (const [, caller] of callers()) await item(caller); // every base kept

    expect((await api.request.post(`${h}/${target}/like`).set(none.auth)).status).toBe(200);
    expect(await item(none)).toMatchObject({ likes: before + 1, likedByMe: true });
    expect((await get(api.app, `${h}/${target}`, none)).body).toMatchObject({ likes: before + 1, likedByMe: true });
    for (const [name, caller] of callers().filter(([, c]) => c !== none))
      expect(await item(caller), name).toMatchObject({ likes: before + 1, likedByMe: false });
    await expectSameAsComputed(callers());

    expect((await api.request.delete(`${h}/${target}/like`).set(none.auth)).status).toBe(200);
    expect(await item(none)).toMatchObject({ likes: before, likedByMe: false });
    for (const [name, caller] of callers()) expect(await item(caller), name).toMatchObject({ likes: before, likedByMe: false });

    // A comment's and a chapter's like, the same way.
    expect((await api.request.post(`/comments/${comments[1]!.id}/like`).set(none.auth)).status).toBe(200);
    expect((await api.request.post(`${series.path}/1/like`).set(none.auth)).status).toBe(200);
    expect((await api.request.post(`/user/${none.id}/followed-series/${series.id}`).set(none.auth)).status).toBe(200);
    await expectSameAsComputed(callers());
    expect((await get(api.app, `${series.path}/1`, none)).body.likedByMe).toBe(true);
    expect((await get(api.app, `${series.path}/1`, liker)).body.likedByMe).toBe(false);
  });
});

describe("where the caller's answer differs in more than flags, it is computed for them", () => {
  it("removed content: the author, the hub's moderators and admins see it, others see it blanked", async () => {
    const remove = (type: string, id: number, by: TestUser) =>
      api.request.post("/moderation/remove").set(by.auth).send({ subject: { type, id }, reason: "Off topic" });
    expect((await remove("post", posts[1]!.id, mod)).status).toBe(200);
    expect((await remove("comment", comments[1]!.id, mod)).status).toBe(200);
    expect((await remove("chapter", chapterIds[1]!, admin)).status).toBe(200);
    await expectSameAsComputed(callers());
    await expectSameAsComputed(callers().reverse());

    const title = async (caller: Caller) => (await get(api.app, `${hubPath(hub.name)}/${posts[1]!.id}`, caller)).body.title as string;
    expect(await title(null)).toBe("");
    expect(await title(none)).toBe("");
    expect(await title(mod)).not.toBe("");
    expect(await title(admin)).not.toBe("");
    expect(await title(other)).not.toBe("");
  });

  it("blocks: the blocker's lists leave out the blocked author's items and say how many", async () => {
    const list = (await get(api.app, `${hubPath(hub.name)}/posts/latest`, blocker)).body as { hidden?: number; content: { id: number }[] };
    expect(list.hidden).toBe(1);
    expect(list.content.map((p) => p.id)).not.toContain(posts[1]!.id);
    const all = (await get(api.app, `${hubPath(hub.name)}/posts/latest?includeBlocked=true`, blocker)).body as { hidden?: number };
    expect(all.hidden).toBe(0);
    expect((await get(api.app, `${hubPath(hub.name)}/posts/latest`, none)).body.hidden).toBeUndefined();
  });
});

describe("the flags' read", () => {
  it("answers exactly the linked ids, whatever the list's length (statements kept per padded length)", async () => {
    const liked = posts[1]!.id;
    const others = (n: number, from = 1_000_000) => Array.from({ length: n }, (_, i) => from + i);
    const read = (ids: number[]) => linkedIds(api.db.kysely, { link: "PostLike", targetColumn: "postId" }, liker.id, ids);
    for (const ids of [
      [liked],
      [posts[0]!.id],
      [liked, liked],
      others(2).concat(liked),
      others(10).concat(liked),
      [liked, ...others(99)],
      others(120).concat(liked),
    ])
      expect([...(await read(ids))], `${ids.length} ids`).toEqual(ids.includes(liked) ? [liked] : []);
    expect([...(await read(others(7)))]).toEqual([]);
    expect([...(await linkedIds(api.db.kysely, { link: "PostLike", targetColumn: "postId" }, none.id, [liked]))]).toEqual([]);
  });
});
