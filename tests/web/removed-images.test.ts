// The images of a removed chapter or post, as the web app shows them (docs/web.md "Removal", docs/decisions/025): the API
// answers 404 to a request without a token, so the author (and whoever may see the removed chapter) gets them through
// the web app's `/uploads/{id}` with the session's token; a guest gets neither the images nor that route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { newChapter } from "../helpers/comments.ts";
import { createHub, createPost } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";
import { postForm, startWebServer, type WebServer } from "../helpers/web-server.ts";

let site: WebServer;
let author: TestUser;
let admin: TestUser;
let authorCookie: string;

beforeAll(async () => {
  site = await startWebServer({ api: { adminUsernames: ["root_ri"] } });
  author = await site.api.register("author_ri");
  admin = await site.api.register("root_ri");
  const login = await postForm(site, "/login", { username: author.username, password: author.password });
  authorCookie = login.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => site?.close());

const page = async (path: string, cookie?: string) => {
  const res = await fetch(site.url + path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: res.status, html: await res.text() };
};

describe("the chapter page of a removed chapter", () => {
  it("shows its author the pages through /uploads/{id}, which a guest cannot read", async () => {
    const chapter = await newChapter(site.api, author);
    const detail = (await site.api.request.get(chapter.path).set(author.auth)).body as { pages: { imageId: number }[] };
    const pageId = detail.pages[0]!.imageId;
    const removed = await site.api.request
      .post("/moderation/remove")
      .set(admin.auth)
      .send({ subject: { type: "chapter", id: chapter.id }, reason: "Takedown request" });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const seen = await page(chapter.path, authorCookie);

    expect(seen.status).toBe(200);
    expect(seen.html).toMatch(new RegExp(`/uploads/${pageId}(?![0-9])`));
    // No <img> or preload asks the API or its CDN for it (a tokenless request: 404).
    expect(seen.html).not.toMatch(new RegExp(`<(img|link)[^>]*/images/${pageId}(?![0-9])`));
    const viaSession = await fetch(`${site.url}/uploads/${pageId}?w=800`, { headers: { Cookie: authorCookie } });
    expect(viaSession.status).toBe(200);
    expect(viaSession.headers.get("cache-control")).toBe("private, no-store");
    expect(viaSession.headers.get("content-type")).toMatch(/^image\//);
    expect((await fetch(`${site.url}/uploads/${pageId}?w=800`)).status).toBe(404);
    const guest = await page(chapter.path);
    expect(guest.html).not.toMatch(new RegExp(`/(images|uploads)/${pageId}(?![0-9])`));
  });
});

describe("the page of a removed post", () => {
  it("shows its author the embedded image through /uploads/{id}; a guest gets neither", async () => {
    const hub = await createHub(site.api, author);
    const image = await uploadPng(site.api, author);
    const post = await createPost(site.api, author, hub.id, { content: `A sketch ![sketch](/images/${image}?w=800)` });
    const removed = await site.api.request
      .post("/moderation/remove")
      .set(admin.auth)
      .send({ subject: { type: "post", id: post.id }, reason: "Takedown request" });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const path = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;

    const seen = await page(path, authorCookie);

    expect(seen.status).toBe(200);
    expect(seen.html).toContain(`src="/uploads/${image}?w=800"`);
    expect(seen.html).not.toMatch(new RegExp(`<img[^>]*/images/${image}(?![0-9])`));
    expect((await fetch(`${site.url}/uploads/${image}?w=800`, { headers: { Cookie: authorCookie } })).status).toBe(200);
    const guest = await page(path);
    expect(guest.html).not.toMatch(new RegExp(`/(images|uploads)/${image}(?![0-9])`));
  });
});

describe("the page of a removed series", () => {
  it("shows its author the logo and the chapters' covers through /uploads/{id}", async () => {
    const logo = await uploadPng(site.api, author);
    const created = await site.api.request
      .post("/series")
      .set(author.auth)
      .send({ name: `Removed Logo ${process.pid}`, profileImageId: logo });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const cover = await uploadPng(site.api, author);
    const path = `/series/${encodeURIComponent(created.body.name as string)}`;
    expect(
      (
        await site.api.request
          .post(`${path}/chapters`)
          .set(author.auth)
          .send({ title: "One", pages: [cover] })
      ).status,
    ).toBe(201);
    const removed = await site.api.request
      .post("/moderation/remove")
      .set(admin.auth)
      .send({ subject: { type: "series", id: created.body.id }, reason: "Takedown request" });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const seen = await page(path, authorCookie);

    expect(seen.status).toBe(200);
    for (const id of [logo, cover]) {
      expect(seen.html).toMatch(new RegExp(`/uploads/${id}(?![0-9])`));
      expect(seen.html).not.toMatch(new RegExp(`<img[^>]*/images/${id}(?![0-9])`));
    }
  });
});
