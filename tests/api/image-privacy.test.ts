import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { setUpSharedTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { imageBytes, uploadImage } from "../helpers/images.ts";

// An image that nothing published references is visible to its uploader only (docs/decisions/009).
let api: TestApi;
let artist: TestUser;
let stranger: TestUser;
let seq = 0;
setUpSharedTestApi(["privacy_artist", "privacy_stranger"], (started, users) => {
  api = started;
  [artist, stranger] = users;
});

const upload = (user = artist, name = "secret-page-01.png") => uploadImage(api, user, undefined, name);
const bytes = (id: number, auth?: { Authorization: string }) => {
  const req = api.request.get(`/images/${id}`);
  return auth ? req.set(auth) : req;
};
const metadata = (id: number, auth?: { Authorization: string }) => {
  const req = api.request.get(`/images/metadata/${id}`);
  return auth ? req.set(auth) : req;
};

async function expectPrivate(id: number) {
  const guest = await bytes(id);
  expectError(guest, 404, "Image not found");
  // A CDN in front (IMAGE_PUBLIC_URL) must not keep the 404 once the image is published.
  expect(guest.headers["cache-control"]).toBe("no-store");
  expectError(await bytes(id, stranger.auth), 404, "Image not found");
  expectError(await metadata(id), 404, "Image not found");
  expectError(await metadata(id, stranger.auth), 404, "Image not found");
  // Also through the image byte cache and the response cache, once the owner has read it.
  expect((await bytes(id, artist.auth)).status).toBe(200);
  expect((await bytes(id)).status).toBe(404);
}

async function expectPublic(id: number) {
  const guest = await bytes(id);
  expect(guest.status).toBe(200);
  expect(guest.headers["cache-control"]).toBe("public, max-age=300, must-revalidate");
  expect((await bytes(id, stranger.auth)).status).toBe(200);
  expect((await metadata(id)).status).toBe(200);
}

async function newSeries(extra: Record<string, unknown> = {}) {
  const res = await api.request
    .post("/series")
    .set(artist.auth)
    .send({ name: `Privacy Series ${++seq}`, description: "A test", ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
}

async function newHub(user: TestUser, extra: Record<string, unknown> = {}) {
  const res = await api.request
    .post("/hubs")
    .set(user.auth)
    .send({ name: `Privacy Hub ${++seq}`, description: "A test", ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
}

describe("a fresh upload", () => {
  it("is seen by its uploader, with Cache-Control private, no-store", async () => {
    const id = await upload();

    const res = await bytes(id, artist.auth);

    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const meta = await metadata(id, artist.auth);
    expect(meta.status).toBe(200);
    expect(meta.body.fileName).toBe("secret-page-01.png");
  });

  it("is a 404 to a guest and to another user, bytes, renditions and metadata", async () => {
    const id = await uploadImage(api, artist, await imageBytes("png", 900, 500), "unreleased.png");
    expect((await api.request.get(`/images/${id}?w=320`).set(artist.auth)).status).toBe(200);

    await expectPrivate(id);
    expectError(await api.request.get(`/images/${id}?w=320`), 404, "Image not found");
  });

  it("answers a guest's 304-style conditional request with a 404 too", async () => {
    const id = await upload();
    const owner = await bytes(id, artist.auth);

    const res = await supertest(api.app).get(`/images/${id}`).set("If-None-Match", owner.headers.etag!);

    expect(res.status).toBe(404);
  });
});

describe("publishing", () => {
  it("a chapter makes its pages and cover public", async () => {
    const series = await newSeries();
    const [p1, p2, cover] = [await upload(), await upload(), await upload()];
    await expectPrivate(p1);

    const res = await api.request
      .post(`/series/${encodeURIComponent(series.name)}/chapters`)
      .set(artist.auth)
      .send({ title: "One", pages: [p1, p2], coverId: cover });

    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const id of [p1, p2, cover]) await expectPublic(id);
  });

  it("editing a chapter's pages makes the new pages public", async () => {
    const series = await newSeries();
    const first = await upload();
    await api.request
      .post(`/series/${encodeURIComponent(series.name)}/chapters`)
      .set(artist.auth)
      .send({ title: "One", pages: [first] });
    const added = await upload();
    await expectPrivate(added);

    const res = await api.request
      .put(`/series/${encodeURIComponent(series.name)}/1`)
      .set(artist.auth)
      .send({ title: "One", pages: [first, added] });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectPublic(added);
  });

  it("a series' logo and banner, on create and on edit", async () => {
    const [logo, banner] = [await upload(), await upload()];
    const series = await newSeries({ profileImageId: logo });
    await expectPublic(logo);
    await expectPrivate(banner);

    const res = await api.request
      .put(`/series/${series.id}`)
      .set(artist.auth)
      .send({ name: series.name, description: "A test", profileImageId: logo, profileBannerId: banner });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectPublic(banner);
  });

  it("a hub's logo and banner, on create and on edit", async () => {
    const [logo, banner] = [await upload(), await upload()];
    const hub = await newHub(artist, { profileBannerId: banner });
    await expectPublic(banner);
    await expectPrivate(logo);

    const res = await api.request
      .put(`/hubs/${hub.id}`)
      .set(artist.auth)
      .send({ name: hub.name, description: "A test", profileImageId: logo });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectPublic(logo);
  });

  it("a profile's avatar and banner", async () => {
    const [avatar, banner] = [await upload(), await upload()];

    const res = await api.request.put(`/user/${artist.id}`).set(artist.auth).send({ profileImageID: avatar, profileBannerID: banner });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectPublic(avatar);
    await expectPublic(banner);
  });

  it("a post embedding the author's own image (the URL the web app writes) makes it public", async () => {
    const hub = await newHub(artist);
    const [embedded, resized, untouched] = [await upload(), await upload(), await upload()];
    const content = `Look: ![page](http://localhost:8080/images/${embedded}) and ![small](http://localhost:8080/images/${resized}?w=320).`;

    const res = await api.request.post("/hub-posts").set(artist.auth).send({ title: "New pages", content, hubId: hub.id });

    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectPublic(embedded);
    await expectPublic(resized);
    await expectPrivate(untouched);
  });

  it("editing a post to embed an image makes it public", async () => {
    const hub = await newHub(artist);
    const created = await api.request
      .post("/hub-posts")
      .set(artist.auth)
      .send({ title: "Pages soon", content: "Nothing to see yet.", hubId: hub.id });
    const id = await upload();

    const res = await api.request
      .put(`/hub-posts/${created.body.id}`)
      .set(artist.auth)
      .send({ title: "Pages soon", content: `Here: ![p](/images/${id})` });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectPublic(id);
  });

  it("chapter notes embedding the author's image make it public", async () => {
    const series = await newSeries();
    const [page, sketch] = [await upload(), await upload()];

    await api.request
      .post(`/series/${encodeURIComponent(series.name)}/chapters`)
      .set(artist.auth)
      .send({ title: "One", pages: [page], content: `Sketch: ![s](http://localhost:8080/images/${sketch})` });

    await expectPublic(sketch);
  });

  it("someone else's private image embedded in a post stays private", async () => {
    const hub = await newHub(stranger);
    const secret = await upload(artist);

    const res = await api.request
      .post("/hub-posts")
      .set(stranger.auth)
      .send({ title: "Leaked?", content: `![x](http://localhost:8080/images/${secret})`, hubId: hub.id });

    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectPrivate(secret);
  });

  it("a refused write (another user's image as a logo) publishes nothing", async () => {
    const [own, theirs] = [await upload(artist), await upload(stranger)];

    const res = await api.request
      .post("/series")
      .set(artist.auth)
      .send({ name: `Privacy Series ${++seq}`, description: "x", profileImageId: own, profileBannerId: theirs });

    expect(res.status).toBe(400);
    await expectPrivate(own);
  });
});

describe("the file name", () => {
  it("is shown to the uploader only; others get a neutral name", async () => {
    const id = await uploadImage(api, artist, await imageBytes("jpeg"), "Alice - real name - draft.jpg");
    await api.request.put(`/user/${artist.id}`).set(artist.auth).send({ profileImageID: id });

    expect((await metadata(id, artist.auth)).body.fileName).toBe("Alice - real name - draft.jpg");
    expect((await metadata(id)).body.fileName).toBe(`image-${id}.jpg`);
    expect((await metadata(id, stranger.auth)).body.fileName).toBe(`image-${id}.jpg`);
  });
});
