// Images of deleted and removed things (issue 27, docs/api.md §9, docs/decisions/025-withdrawable-images.md): a
// deletion's images answer 404 at once, also those this instance had in its byte cache; a removed thing's images are
// seen only by who may see the removed thing (`private, no-store`), 404 to everyone else, public again on restore;
// and no published image is ever sent `immutable`, so a CDN in front drops it within the documented max-age.
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment } from "../helpers/comments.ts";
import { expectError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, joinHub, uniqueName } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";

const PUBLIC = "public, max-age=300, must-revalidate";
const PRIVATE = "private, no-store";

let api: TestApi, artist: TestUser, reader: TestUser, stranger: TestUser, mod: TestUser, admin: TestUser;
setUpSharedTestApi(
  ["wd_artist", "wd_reader", "wd_stranger", "wd_mod", "wd_root"],
  (started, users) => {
    api = started;
    [artist, reader, stranger, mod, admin] = users;
  },
  { adminUsernames: ["wd_root"] },
);

const imageUrl = (id: number) => `http://localhost/images/${id}`;
const get = (path: string, viewer?: TestUser) => {
  const req = api.request.get(path);
  return viewer ? req.set(viewer.auth) : req;
};
const act = async (action: "remove" | "restore", type: string, id: number, by: TestUser = admin) => {
  const res = await api.request.post(`/moderation/${action}`).set(by.auth).send({ subject: { type, id }, reason: "Takedown request" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** Public to anyone: bytes, a rendition and metadata, with the bounded public cache policy (also read into the byte cache). */
async function expectPublic(id: number) {
  for (const viewer of [undefined, stranger]) {
    for (const path of [`/images/${id}`, `/images/${id}?w=800`]) {
      const res = await get(path, viewer);
      expect(res.status, `${path} for ${viewer?.username ?? "a guest"}`).toBe(200);
      expect(res.headers["cache-control"]).toBe(PUBLIC);
      expect(res.headers["etag"]).toMatch(/^"/);
    }
    expect((await get(`/images/metadata/${id}`, viewer)).status).toBe(200);
  }
}

/** Gone for everyone not in `seers`: 404 (not kept by a CDN); each of `seers` gets the bytes, never to be kept. */
async function expectWithheld(id: number, seers: TestUser[], others: (TestUser | undefined)[] = [undefined, stranger]) {
  for (const viewer of others) {
    for (const path of [`/images/${id}`, `/images/${id}?w=800`]) {
      const res = await get(path, viewer);
      expectError(res, 404, "Image not found");
      expect(res.headers["cache-control"]).toBe("no-store");
    }
    expectError(await get(`/images/metadata/${id}`, viewer), 404, "Image not found");
  }
  for (const viewer of seers) {
    for (const path of [`/images/${id}`, `/images/${id}?w=800`]) {
      const res = await get(path, viewer);
      expect(res.status, `${path} for ${viewer.username}`).toBe(200);
      expect(res.headers["cache-control"]).toBe(PRIVATE);
    }
    expect((await get(`/images/metadata/${id}`, viewer)).status).toBe(200);
  }
}

async function newSeries(extra: Record<string, unknown> = {}) {
  const res = await api.request
    .post("/series")
    .set(artist.auth)
    .send({ name: uniqueName("Withdrawn"), description: "A test", ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
}

async function newChapter(series: { name: string }, pages: number[]) {
  const res = await api.request
    .post(`/series/${encodeURIComponent(series.name)}/chapters`)
    .set(artist.auth)
    .send({ title: "Pages", pages });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number, path: `/series/${encodeURIComponent(series.name)}/${res.body.number as number}` };
}

/** A hub of `artist` with `mod` added as a moderator. */
async function moderatedHub(extra: Record<string, unknown> = {}) {
  const hub = await createHub(api, artist, extra);
  expect((await api.request.put(`/hubs/${hub.id}/moderators/${mod.id}`).set(artist.auth)).status).toBe(200);
  return hub;
}

describe("a deleted thing's images", () => {
  it("answer 404 at once after the deletion, although this instance had them in its byte cache", async () => {
    const series = await newSeries();
    const [one, two] = [await uploadPng(api, artist), await uploadPng(api, artist)];
    const chapter = await newChapter(series, [one, two]);
    await expectPublic(one);

    await api.request.delete(chapter.path).set(artist.auth).expect(200);

    // Right after the answer, before the image-release job has run or not.
    for (const id of [one, two]) {
      for (const path of [`/images/${id}`, `/images/${id}?w=800`, `/images/metadata/${id}`]) {
        expectError(await get(path), 404, "Image not found");
        expectError(await get(path, stranger), 404, "Image not found");
      }
    }
  });

  it("answer 404 for a deleted post's embedded images and a deleted hub's logo and banner", async () => {
    const [logo, banner, embedded] = [await uploadPng(api, artist), await uploadPng(api, artist), await uploadPng(api, artist)];
    const hub = await createHub(api, artist, { profileImageId: logo, profileBannerId: banner });
    const post = await createPost(api, artist, hub.id, { content: `See ![a](${imageUrl(embedded)})` });
    for (const id of [logo, banner, embedded]) await expectPublic(id);

    await api.request.delete(`/hub-posts/${post.id}`).set(artist.auth).expect(200);
    expectError(await get(`/images/${embedded}?w=800`), 404, "Image not found");
    // The hub still uses its logo.
    expect((await get(`/images/${logo}?w=800`)).status).toBe(200);

    await api.request.delete(`/hubs/${hub.id}`).set(artist.auth).expect(200);
    for (const id of [logo, banner]) {
      expectError(await get(`/images/${id}?w=800`), 404, "Image not found");
      expectError(await get(`/images/${id}`, stranger), 404, "Image not found");
    }
  });
});

describe("a removed thing's images", () => {
  it("a removed chapter's pages: its series' author and admins only, private; public again on restore", async () => {
    const series = await newSeries();
    const [one, two] = [await uploadPng(api, artist), await uploadPng(api, artist)];
    const chapter = await newChapter(series, [one, two]);
    await expectPublic(one);

    await act("remove", "chapter", chapter.id);

    for (const id of [one, two]) await expectWithheld(id, [artist, admin], [undefined, stranger, reader]);

    await act("restore", "chapter", chapter.id);
    for (const id of [one, two]) await expectPublic(id);
  });

  it("a removed series' logo and banner and every chapter page in it", async () => {
    const [logo, banner, page, other] = [
      await uploadPng(api, artist),
      await uploadPng(api, artist),
      await uploadPng(api, artist),
      await uploadPng(api, artist),
    ];
    const series = await newSeries({ profileImageId: logo, profileBannerId: banner });
    await newChapter(series, [page]);
    await newChapter(series, [other]);
    for (const id of [logo, banner, page, other]) await expectPublic(id);

    await act("remove", "series", series.id);
    for (const id of [logo, banner, page, other]) await expectWithheld(id, [artist, admin]);

    await act("restore", "series", series.id);
    for (const id of [logo, banner, page, other]) await expectPublic(id);
  });

  it("a removed post's embedded images: its author, the hub's moderators and admins", async () => {
    const hub = await moderatedHub();
    await joinHub(api, reader, hub.id);
    const embedded = await uploadPng(api, reader);
    const post = await createPost(api, reader, hub.id, { content: `Mine ![a](${imageUrl(embedded)})` });
    await expectPublic(embedded);

    await act("remove", "post", post.id, mod);
    await expectWithheld(embedded, [reader, mod, artist, admin]);

    await act("restore", "post", post.id, mod);
    await expectPublic(embedded);
  });

  it("a removed hub's logo and banner and its posts' images", async () => {
    const [logo, banner] = [await uploadPng(api, artist), await uploadPng(api, artist)];
    const hub = await createHub(api, artist, { profileImageId: logo, profileBannerId: banner });
    await joinHub(api, reader, hub.id);
    const embedded = await uploadPng(api, reader);
    await createPost(api, reader, hub.id, { content: `In the hub ![a](${imageUrl(embedded)})` });
    for (const id of [logo, banner, embedded]) await expectPublic(id);

    await act("remove", "hub", hub.id);
    for (const id of [logo, banner]) await expectWithheld(id, [artist, admin]);
    // The post's own author uploaded its image: theirs to see; the hub's creator and admins may see the removed hub.
    await expectWithheld(embedded, [reader, artist, admin]);

    await act("restore", "hub", hub.id);
    for (const id of [logo, banner, embedded]) await expectPublic(id);
  });

  it("a removed comment's embedded images: its author, the hub's moderators and admins", async () => {
    const hub = await moderatedHub();
    const post = await createPost(api, artist, hub.id);
    const embedded = await uploadPng(api, reader);
    const comment = await addComment(api, reader, `${hubPath(hub.name)}/${post.id}`, `Look ![c](${imageUrl(embedded)})`);
    await expectPublic(embedded);

    await act("remove", "comment", comment.id, mod);
    await expectWithheld(embedded, [reader, mod, artist, admin]);

    await act("restore", "comment", comment.id, mod);
    await expectPublic(embedded);
  });

  it("a comment's embedded images on a chapter of a removed series: its author, the series' author and admins", async () => {
    const series = await newSeries();
    const chapter = await newChapter(series, [await uploadPng(api, artist)]);
    const embedded = await uploadPng(api, reader);
    await addComment(api, reader, chapter.path, `Fan art ![f](${imageUrl(embedded)})`);
    await expectPublic(embedded);

    await act("remove", "series", series.id);
    await expectWithheld(embedded, [reader, artist, admin], [undefined, stranger, mod]);

    await act("restore", "series", series.id);
    await expectPublic(embedded);
  });

  it("stay public while a thing that is not removed uses them too", async () => {
    const hub = await createHub(api, artist);
    const shared = await uploadPng(api, artist);
    const removed = await createPost(api, artist, hub.id, { content: `One ![s](${imageUrl(shared)})` });
    await createPost(api, artist, hub.id, { content: `Two ![s](${imageUrl(shared)})` });

    await act("remove", "post", removed.id);

    await expectPublic(shared);
  });

  it("answer a CDN's revalidation with 304 while public and 404 once removed", async () => {
    const series = await newSeries();
    const page = await uploadPng(api, artist);
    const chapter = await newChapter(series, [page]);
    const first = await get(`/images/${page}?w=800`);
    const etag = first.headers["etag"] as string;

    const again = await get(`/images/${page}?w=800`).set("If-None-Match", etag);
    expect(again.status).toBe(304);
    expect(again.headers["cache-control"]).toBe(PUBLIC);

    await act("remove", "chapter", chapter.id);
    expectError(await get(`/images/${page}?w=800`).set("If-None-Match", etag), 404, "Image not found");
  });
});
