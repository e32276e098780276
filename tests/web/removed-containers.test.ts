// What a guest's pages show of a removed series or hub (docs/web.md "Removal", issue 27 item 3): the chapter page of a
// removed series has no page images, the post page of a removed hub no content, and their Atom feeds are gone. Over
// the built web app's HTTP edge (the guest page cache included) against the real API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { newChapter } from "../helpers/comments.ts";
import { createHub, createPost } from "../helpers/fixtures.ts";
import { postForm, startWebServer, type WebServer } from "../helpers/web-server.ts";

let site: WebServer;
let author: TestUser;
let admin: TestUser;

beforeAll(async () => {
  site = await startWebServer({ api: { adminUsernames: ["root_rc"] } });
  author = await site.api.register("author_rc");
  admin = await site.api.register("root_rc");
});
afterAll(() => site?.close());

const page = async (path: string, cookie?: string) => {
  const res = await fetch(site.url + path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: res.status, html: await res.text() };
};
const cookieOf = async (user: TestUser) =>
  (await postForm(site, "/login", { username: user.username, password: user.password })).headers.get("set-cookie")!.split(";")[0]!;
const remove = async (type: "series" | "hub", id: number, reason: string) => {
  const res = await site.api.request.post("/moderation/remove").set(admin.auth).send({ subject: { type, id }, reason });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
/** Whether the HTML points at the image, in any of its URLs (`/images/{id}`, with or without a width or a version). */
const showsImage = (html: string, id: number) => new RegExp(`/images/${id}(?![0-9])`).test(html);

describe("a guest's chapter page of a removed series", () => {
  it("shows the removal and no page images; the series' feed is gone", async () => {
    const chapter = await newChapter(site.api, author);
    const detail = (await site.api.request.get(chapter.path).set(author.auth)).body as { pages: { imageId: number }[]; seriesId: number };
    const pageId = detail.pages[0]!.imageId;
    const before = await page(chapter.path);
    expect(before.status).toBe(200);
    expect(showsImage(before.html, pageId)).toBe(true);

    await remove("series", detail.seriesId, "Stolen art");
    const after = await page(chapter.path);
    expect(after.status).toBe(200);
    expect(after.html).toContain("Removed by moderators: Stolen art");
    expect(showsImage(after.html, pageId)).toBe(false);
    expect((await page(`${chapter.seriesPath}/feed.atom`)).status).toBe(404);
  });
});

describe("a guest's post page of a removed hub", () => {
  it("shows the removal and not the post's title or content; the hub's feed is gone", async () => {
    const hub = await createHub(site.api, author);
    const post = await createPost(site.api, author, hub.id, { title: "Meeting at the old mill", content: "Bring the secret map along." });
    const path = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;
    const before = await page(path);
    expect(before.html).toContain(post.title);

    await remove("hub", hub.id, "Hate group");
    const after = await page(path);
    expect(after.status).toBe(200);
    expect(after.html).toContain("Removed by moderators: Hate group");
    expect(after.html).not.toContain(post.title);
    expect(after.html).not.toContain("Bring the secret map");
    expect((await page(`/hubs/${encodeURIComponent(hub.name)}/feed.atom`)).status).toBe(404);
  });
});

describe("a signed-in reader's pages of a removed hub and series", () => {
  it("offer no Join, Post, Follow or comment form: a removed thing takes none of them (a member may still leave)", async () => {
    const reader = await site.api.register("reader_rc");
    const member = await site.api.register("member_rc");
    const cookie = await cookieOf(reader);
    const hub = await createHub(site.api, author);
    await site.api.request.post(`/user/${member.id}/member-hubs/${hub.id}`).set(member.auth).expect(200);
    const post = await createPost(site.api, author, hub.id);
    const postPath = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;
    const hubPath = `/hubs/${encodeURIComponent(hub.name)}`;
    const chapter = await newChapter(site.api, author);
    const seriesId = ((await site.api.request.get(chapter.path)).body as { seriesId: number }).seriesId;

    const open = [
      await page(hubPath, cookie),
      await page(postPath, cookie),
      await page(chapter.path, cookie),
      await page(chapter.seriesPath, cookie),
    ];
    expect(open[0]!.html).toContain("Join Hub");
    expect(open[0]!.html).toContain(`/publish/post?hubId=${hub.id}`);
    expect(open[1]!.html).toContain("Post comment");
    expect(open[2]!.html).toContain("Post comment");
    expect(open[3]!.html).toMatch(/>\s*Follow\s*</);

    await remove("hub", hub.id, "Hate group");
    await remove("series", seriesId, "Stolen art");
    const hubPage = await page(hubPath, cookie);
    const postPage = await page(postPath, cookie);
    const chapterPage = await page(chapter.path, cookie);
    const seriesPage = await page(chapter.seriesPath, cookie);
    expect(hubPage.html).not.toContain("Join Hub");
    expect(hubPage.html).not.toContain(`/publish/post?hubId=${hub.id}`);
    expect(postPage.html).not.toContain("Join Hub");
    expect(postPage.html).not.toContain("Post comment");
    expect(postPage.html).toContain("it takes no new comments");
    expect(chapterPage.html).not.toContain("Post comment");
    expect(chapterPage.html).toContain("it takes no new comments");
    expect(seriesPage.html).not.toMatch(/>\s*Follow\s*</);
    // A member still has the button that lets them leave.
    expect((await page(hubPath, await cookieOf(member))).html).toContain("Joined");
  });
});
