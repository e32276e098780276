// Loaders and actions of publishing: the menu, the hub, series, post and chapter forms (create
// and edit, the validation and save-error messages of docs/web.md §4 and §5, owners only), the upload route and
// the profile pictures.
import { beforeAll, describe, expect, it } from "vitest";
import { action as profileAction } from "../../app/routes/profile.tsx";
import { action as chapterAction, loader as chapterLoader } from "../../app/routes/publish.chapter.($seriesName).($number).tsx";
import { action as hubAction, loader as hubLoader } from "../../app/routes/publish.hub.($id).tsx";
import { loader as menuLoader } from "../../app/routes/publish._index.tsx";
import { action as postAction, loader as postLoader } from "../../app/routes/publish.post.($id).tsx";
import { action as seriesAction, loader as seriesLoader } from "../../app/routes/publish.series.($id).tsx";
import { action as previewAction } from "../../app/routes/markdown-preview.tsx";
import { action as uploadAction } from "../../app/routes/uploads.tsx";
import type { TestUser } from "../helpers/api.ts";
import { imageBytes } from "../helpers/images.ts";
import { args, multipartRequest, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";
import { comicPagePng, createHub, joinHub, publishComicChapter, upload } from "../helpers/web-seed.ts";

let web: WebTestApi;
let artist: TestUser;
let other: TestUser;
let artistCookie: string;
let otherCookie: string;

setUpSharedWebTestApi(["artist_pub", "other_pub"], async (started, users) => {
  web = started;
  [artist, other] = users;
  artistCookie = await web.cookieFor(artist);
  otherCookie = await web.cookieFor(other);
});

const get = (path: string, cookie?: string, params: Record<string, string> = {}) => args(request(path, { cookie }), web.context, params);
const form = (
  path: string,
  fields: Record<string, string | number | (string | number)[]>,
  cookie = artistCookie,
  params: Record<string, string> = {},
  files: NonNullable<Parameters<typeof multipartRequest>[1]>["files"] = [],
) => args(multipartRequest(path, { cookie, fields, files }), web.context, params);

describe("publish menu", () => {
  it("sends a guest to the login page, to come back to /create", async () => {
    const out = await run(() => menuLoader(get("/publish")));
    expect(out.location).toBe("/login?redirectTo=%2Fcreate");
  });

  it("lists the artist's series and hubs for editing", async () => {
    await createHub(web.api, artist, { name: "Artist Menu Hub" });
    const out = await run(() => menuLoader(get("/publish", artistCookie)));
    expect(out.data.hubs?.map((h: { name: string }) => h.name)).toContain("Artist Menu Hub");
    expect(out.data.series).toEqual(expect.any(Array));
  });

  it("sends a guest who opens a form to the login page and back to the form", async () => {
    expect((await run(() => hubLoader(get("/publish/hub")))).location).toBe("/login?redirectTo=%2Fpublish%2Fhub");
    expect((await run(() => chapterLoader(get("/publish/chapter?series=X")))).location).toBe(
      "/login?redirectTo=%2Fpublish%2Fchapter%3Fseries%3DX",
    );
  });
});

describe("hub form", () => {
  it("shows the messages of docs/web.md §4, keeping what was typed", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ name: "", description: "" }, "name", "Hub name is required"],
      [{ name: "ab", description: "" }, "name", "Hub name must be at least 3 characters"],
      [{ name: "x".repeat(101), description: "" }, "name", "Hub name must be less than 100 characters"],
      [{ name: "Fine name", description: "d".repeat(501) }, "description", "Description must be less than 500 characters"],
    ];
    for (const [fields, field, message] of cases) {
      const out = await run(() => hubAction(form("/publish/hub", fields)));
      expect(out.status).toBe(400);
      expect(out.data.fieldErrors?.[field]).toBe(message);
      expect(out.data.values?.name).toBe(fields.name);
    }
  });

  it("creates a trimmed hub with a logo, then says so and where it goes in 2 seconds", async () => {
    const logo = await upload(web.api, artist, 100, 100, 30);
    const out = await run(() =>
      hubAction(
        form("/publish/hub", { name: "  Night Inkers  ", description: "  Inking at night.  ", profileImageId: logo, profileBannerId: "" }),
      ),
    );
    expect(out.data).toEqual({ ok: true, message: "Hub created successfully!", redirectTo: "/hubs/Night%20Inkers" });
    expect(out.headers.get("Refresh")).toBe("2;url=/hubs/Night%20Inkers");
    const hub = (await web.api.request.get("/hubs/Night%20Inkers")).body;
    expect(hub).toMatchObject({ name: "Night Inkers", description: "Inking at night.", profileImageId: logo, profileBannerId: null });
  });

  it("uploads a logo sent with the form (no JavaScript), and refuses a file that is not an image", async () => {
    const png = await imageBytes("png", 64, 64);
    const out = await run(() =>
      hubAction(
        form("/publish/hub", { name: "Form Upload Hub", description: "" }, artistCookie, {}, [
          { field: "profileImageIdFile", bytes: png, name: "logo.png", type: "image/png" },
        ]),
      ),
    );
    expect(out.data.ok).toBe(true);
    const hub = (await web.api.request.get("/hubs/Form%20Upload%20Hub")).body;
    expect(hub.profileImageId).toEqual(expect.any(Number));

    const bad = await run(() =>
      hubAction(
        form("/publish/hub", { name: "Never Made Hub", description: "" }, artistCookie, {}, [
          { field: "profileBannerIdFile", bytes: "not an image", name: "banner.png", type: "image/png" },
        ]),
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.data.fieldErrors?.profileBannerId).toBe("banner.png: Only JPEG, PNG, WebP and GIF images are accepted.");
    expect((await web.api.request.get("/hubs/Never%20Made%20Hub")).status).toBe(404);
  });

  it("says 'A hub with this name already exists' (409)", async () => {
    await createHub(web.api, other, { name: "Taken Hub" });
    const out = await run(() => hubAction(form("/publish/hub", { name: "taken hub", description: "" })));
    expect(out.status).toBe(409);
    expect(out.data.formError).toBe("A hub with this name already exists");
  });

  it("refuses another user's image with the API's field message", async () => {
    const theirs = await upload(web.api, other, 50, 50, 90);
    const out = await run(() => hubAction(form("/publish/hub", { name: "Borrowed Logo Hub", description: "", profileImageId: theirs })));
    expect(out.data.formError).toBe("Invalid hub data. Please check your input.");
    expect(out.data.fieldErrors?.profileImageId).toBe("Logo must be an image you uploaded");
  });

  it("opens the edit form for the creator only (403 for anyone else)", async () => {
    const hub = await createHub(web.api, artist, { name: "Editable Hub", description: "Before" });
    const own = await run(() => hubLoader(get(`/publish/hub/${hub.id}`, artistCookie, { id: String(hub.id) })));
    expect(own.data.entity).toMatchObject({ id: hub.id, name: "Editable Hub", description: "Before" });
    const refused = await run(() => hubLoader(get(`/publish/hub/${hub.id}`, otherCookie, { id: String(hub.id) })));
    expect(refused.status).toBe(403);
    expect(refused.data.refusal?.message).toContain("Only its creator");
    const missing = await run(() => hubLoader(get("/publish/hub/999999", artistCookie, { id: "999999" })));
    expect(missing.status).toBe(404);
    expect(missing.data.refusal?.message).toBe("No hub found.");
    // The first product's old links (docs/web.md §7): /publish/hub?id=N
    expect((await run(() => hubLoader(get(`/publish/Hub?id=${hub.id}`, artistCookie)))).location).toBe(`/publish/Hub/${hub.id}`);

    const saved = await run(() =>
      hubAction(form(`/publish/hub/${hub.id}`, { name: "Editable Hub", description: "After" }, artistCookie, { id: String(hub.id) })),
    );
    expect(saved.data).toMatchObject({ ok: true, message: "Hub updated successfully!" });
    expect((await web.api.request.get(`/hubs/id/${hub.id}`)).body.description).toBe("After");
    const stolen = await run(() =>
      hubAction(form(`/publish/hub/${hub.id}`, { name: "Mine now", description: "" }, otherCookie, { id: String(hub.id) })),
    );
    expect(stolen.data.formError).toBe("You can only edit your own hubs");
  });
});

describe("series form", () => {
  it("validates with the messages of docs/web.md §4 and creates the series", async () => {
    const short = await run(() => seriesAction(form("/publish/series", { name: "ab", description: "" })));
    expect(short.data.fieldErrors?.name).toBe("Series name must be at least 3 characters");
    const empty = await run(() => seriesAction(form("/publish/series", { name: "   ", description: "" })));
    expect(empty.data.fieldErrors?.name).toBe("Series name is required");
    const banner = await upload(web.api, artist, 300, 100, 200);
    const out = await run(() =>
      seriesAction(form("/publish/series", { name: "Ink Ghosts", description: "Spooky.", profileBannerId: banner })),
    );
    expect(out.data).toEqual({ ok: true, message: "Series created successfully!", redirectTo: "/series/Ink%20Ghosts" });
    const again = await run(() => seriesAction(form("/publish/series", { name: "INK GHOSTS", description: "" }, otherCookie)));
    expect(again.data.formError).toBe("A series with this name already exists");
  });

  it("edits for the author only, and removes the banner when asked", async () => {
    const banner = await upload(web.api, artist, 300, 100, 10);
    const series = (await web.api.request.post("/series").set(artist.auth).send({ name: "Edit Me Series", profileBannerId: banner })).body;
    const refused = await run(() => seriesLoader(get(`/publish/series/${series.id}`, otherCookie, { id: String(series.id) })));
    expect(refused.status).toBe(403);
    const out = await run(() =>
      seriesAction(
        form(
          `/publish/series/${series.id}`,
          { name: "Edit Me Series", description: "Now described", profileBannerId: banner, profileBannerIdRemove: "1" },
          artistCookie,
          { id: String(series.id) },
        ),
      ),
    );
    expect(out.data).toMatchObject({ ok: true, message: "Series updated successfully!" });
    expect((await web.api.request.get(`/series/id/${series.id}`)).body).toMatchObject({
      description: "Now described",
      profileBannerId: null,
    });
  });
});

describe("post form", () => {
  let hub: { id: number; name: string };
  beforeAll(async () => {
    hub = await createHub(web.api, other, { name: "Post Test Hub" });
  });

  it("offers the hubs the user joined, preselecting ?hubId=, or says the hub must be joined first", async () => {
    const before = await run(() => postLoader(get(`/publish/post?hubId=${hub.id}`, artistCookie)));
    expect(before.data.wanted).toEqual({ id: hub.id, name: "Post Test Hub", member: false });
    await joinHub(web.api, artist, hub.id);
    const after = await run(() => postLoader(get(`/publish/post?hubId=${hub.id}`, artistCookie)));
    expect(after.data.hubs?.map((h: { name: string }) => h.name)).toContain("Post Test Hub");
    expect(after.data.wanted?.member).toBe(true);
  });

  it("shows the validation messages of docs/web.md §4", async () => {
    const out = await run(() => postAction(form("/publish/post", { hubId: hub.id, title: "Hey", description: "", content: "short" })));
    expect(out.data.fieldErrors).toMatchObject({
      title: "Title must be at least 5 characters",
      content: "Content must be at least 10 characters",
    });
    const none = await run(() => postAction(form("/publish/post", { hubId: "", title: "", description: "x".repeat(301), content: "" })));
    expect(none.data.fieldErrors).toMatchObject({
      hubId: "Please choose a hub",
      title: "Post title is required",
      content: "Post content is required",
      description: "Description must be less than 300 characters",
    });
  });

  it("previews without saving (no JavaScript)", async () => {
    const out = await run(() =>
      postAction(form("/publish/post", { hubId: hub.id, title: "Draft", description: "", content: "# Big", intent: "preview" })),
    );
    expect(out.data).toMatchObject({ ok: false, preview: true, values: { content: "# Big" }, fieldErrors: {} });
    expect(out.data.previewHtml).toBe("<h1>Big</h1>");
  });

  it("says who may not post and which hub is missing", async () => {
    const outsider = await web.cookieFor(await web.api.register());
    const refused = await run(() =>
      postAction(
        form("/publish/post", { hubId: hub.id, title: "Hello there", description: "", content: "Long enough content." }, outsider),
      ),
    );
    expect(refused.status).toBe(403);
    expect(refused.data.formError).toBe("You do not have permission to post in this hub");
    const missing = await run(() =>
      postAction(form("/publish/post", { hubId: 999999, title: "Hello there", description: "", content: "Long enough content." })),
    );
    expect(missing.data.formError).toBe("Hub not found");
  });

  it("publishes, then edits for the author only", async () => {
    const out = await run(() =>
      postAction(
        form("/publish/post", { hubId: hub.id, title: "  My first post  ", description: "Hi", content: "Some **bold** words here." }),
      ),
    );
    expect(out.data).toMatchObject({ ok: true, message: "Post published successfully!" });
    const id = Number(out.data.redirectTo!.split("/").pop());
    expect(out.data.redirectTo).toBe(`/hubs/Post%20Test%20Hub/${id}`);
    expect((await web.api.request.get(`/hub-posts/${id}`)).body.title).toBe("My first post");

    const edit = await run(() => postLoader(get(`/publish/post/${id}`, artistCookie, { id: String(id) })));
    expect(edit.data.post).toMatchObject({ id, title: "My first post", hubName: "Post Test Hub" });
    expect((await run(() => postLoader(get(`/publish/post/${id}`, otherCookie, { id: String(id) })))).status).toBe(403);
    const saved = await run(() =>
      postAction(
        form(
          `/publish/post/${id}`,
          { title: "My first post, edited", description: "", content: "Some **bold** words here." },
          artistCookie,
          { id: String(id) },
        ),
      ),
    );
    expect(saved.data).toMatchObject({ ok: true, message: "Post updated successfully!" });
    expect((await web.api.request.get(`/hub-posts/${id}`)).body).toMatchObject({ title: "My first post, edited", description: "" });
  });
});

describe("chapter form", () => {
  let seriesName: string;
  beforeAll(async () => {
    seriesName = (await web.api.request.post("/series").set(artist.auth).send({ name: "Chapter Form Series" })).body.name;
  });

  it("offers the artist's own series, preselecting ?series= in any case", async () => {
    const out = await run(() => chapterLoader(get("/publish/chapter?series=chapter%20form%20series", artistCookie)));
    expect(out.data.chosen).toBe("Chapter Form Series");
    expect(out.data.series?.find((s: { name: string }) => s.name === "Chapter Form Series")).toMatchObject({ next: 1 });
    const none = await run(() => chapterLoader(get("/publish/chapter", otherCookie)));
    expect(none.data.series).toEqual([]);
  });

  it("uploads the files sent with the form in order, keeps them when one is refused, then publishes", async () => {
    const files = [
      { field: "pageFiles", bytes: await comicPagePng(400, 600, 10, "Page 1"), name: "p1.jpg", type: "image/jpeg" },
      { field: "pageFiles", bytes: "just some text", name: "notes.txt", type: "text/plain" },
      { field: "pageFiles", bytes: await comicPagePng(400, 600, 90, "Page 2"), name: "p2.jpg", type: "image/jpeg" },
    ];
    const first = await run(() =>
      chapterAction(
        form(
          "/publish/chapter",
          { series: seriesName, title: "Opening", description: "", content: "", number: "" },
          artistCookie,
          {},
          files,
        ),
      ),
    );
    expect(first.status).toBe(400);
    expect(first.data.uploadErrors).toEqual(["notes.txt: Only JPEG, PNG, WebP and GIF images are accepted."]);
    expect(first.data.formError).toBe("One file was not uploaded. The other pages are kept: check the list, then save again.");
    expect(first.data.pages?.map((p) => p.fileName)).toEqual(["p1.jpg", "p2.jpg"]);

    const ids = first.data.pages!.map((p) => p.imageId);
    const second = await run(() =>
      chapterAction(
        form("/publish/chapter", {
          series: seriesName,
          title: "  Opening  ",
          description: "The start.",
          content: "Thanks!",
          number: "",
          pages: ids,
          coverId: ids[1]!,
        }),
      ),
    );
    expect(second.data).toEqual({ ok: true, message: "Chapter published successfully!", redirectTo: "/series/Chapter%20Form%20Series/1" });
    const chapter = (await web.api.request.get("/series/Chapter%20Form%20Series/1")).body;
    expect(chapter).toMatchObject({ title: "Opening", description: "The start.", content: "Thanks!", coverId: ids[1] });
    expect(chapter.pages.map((p: { imageId: number }) => p.imageId)).toEqual(ids);
  });

  it("shows the rules' messages: a title and at least one page", async () => {
    const out = await run(() =>
      chapterAction(form("/publish/chapter", { series: seriesName, title: "", description: "", content: "", number: "" })),
    );
    expect(out.data.fieldErrors).toMatchObject({ title: "Chapter title is required", pages: "A chapter needs at least one page" });
    const noSeries = await run(() =>
      chapterAction(form("/publish/chapter", { series: "", title: "T", description: "", content: "", number: "" })),
    );
    expect(noSeries.data.fieldErrors?.series).toBe("Please choose a series");
  });

  it("refuses to publish in someone else's series", async () => {
    const page = await upload(web.api, other, 60, 90, 3);
    const out = await run(() =>
      chapterAction(
        form(
          "/publish/chapter",
          { series: seriesName, title: "Intruder", description: "", content: "", number: "", pages: [page] },
          otherCookie,
        ),
      ),
    );
    expect(out.status).toBe(403);
    expect(out.data.formError).toBe("Only the author of this series can publish its chapters");
  });

  it("edits for the author only, keeping the pages unless they change", async () => {
    const published = await publishComicChapter(web.api, artist, seriesName, { title: "Second" }, 3, 40);
    const number = String(published.number);
    const params = { seriesName, number };
    const path = `/publish/chapter/${encodeURIComponent(seriesName)}/${number}`;
    const loaded = await run(() => chapterLoader(get(path, artistCookie, params)));
    const ids = loaded.data.chapter!.pages.map((p) => p.imageId);
    expect(ids).toHaveLength(3);
    expect((await run(() => chapterLoader(get(path, otherCookie, params)))).status).toBe(403);

    const base = { title: "Second, retitled", description: "", content: "", originalPages: ids.join(","), originalCover: ids[0]! };
    // Only the title changes: pages and cover are not sent.
    const saved = await run(() => chapterAction(form(path, { ...base, pages: ids, coverId: "" }, artistCookie, params)));
    expect(saved.data).toMatchObject({ ok: true, message: "Chapter updated successfully!" });
    let chapter = (await web.api.request.get(`/series/Chapter%20Form%20Series/${number}`)).body;
    expect(chapter.title).toBe("Second, retitled");
    expect(chapter.pages.map((p: { imageId: number }) => p.imageId)).toEqual(ids);

    // Reordered, one removed, the last as cover.
    const reordered = [ids[2]!, ids[0]!, ids[1]!];
    await run(() => chapterAction(form(path, { ...base, pages: reordered, removePage: ids[1]!, coverId: ids[0]! }, artistCookie, params)));
    chapter = (await web.api.request.get(`/series/Chapter%20Form%20Series/${number}`)).body;
    expect(chapter.pages.map((p: { imageId: number }) => p.imageId)).toEqual([ids[2], ids[0]]);
    expect(chapter.coverId).toBe(ids[0]);
  });
});

describe("upload route", () => {
  const call = (cookie: string | undefined, bytes: Buffer | string, name: string, context = web.context) =>
    uploadAction({ request: multipartRequest("/uploads", { cookie, files: [{ field: "file", bytes, name }] }), context, params: {} });

  it("forwards an image to the API and answers its metadata", async () => {
    const out = await call(artistCookie, await imageBytes("webp", 30, 20), "tiny.webp");
    expect(out.status).toBe(201);
    expect(await out.json()).toMatchObject({
      fileName: "tiny.webp",
      contentType: "image/webp",
      width: 30,
      height: 20,
      authorId: artist.id,
    });
  });

  it("answers the API's 415 for a file that is not an image, 413 past the limit, 401 for a guest", async () => {
    const text = await call(artistCookie, "hello", "hello.png");
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ message: "Only JPEG, PNG, WebP and GIF images are accepted" });

    const small = { ...web.context, config: { ...web.context.config, uploadMaxBytes: 500 } };
    const big = await call(artistCookie, await imageBytes("png", 300, 300), "big.png", small);
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ message: "The file is too large" });

    const guest = await call(undefined, await imageBytes(), "x.png");
    expect(guest.status).toBe(401);
  });
});

describe("profile pictures", () => {
  it("sets the avatar and the banner, and refuses someone else's image", async () => {
    const [avatar, banner] = await Promise.all([upload(web.api, artist, 80, 80, 5), upload(web.api, artist, 300, 100, 50)]);
    const out = await run(() => profileAction(form("/profile", { profileImageID: avatar, profileBannerID: banner })));
    expect(out.data).toMatchObject({ ok: true, message: "Profile pictures saved." });
    expect((await web.api.request.get(`/user/id/${artist.id}`)).body).toMatchObject({ profileImageID: avatar, profileBannerID: banner });

    const theirs = await upload(web.api, other, 40, 40, 5);
    const refused = await run(() => profileAction(form("/profile", { profileImageID: theirs, profileBannerID: banner })));
    expect(refused.data.fieldErrors.profileImageID).toBe("Avatar must be an image you uploaded");
  });
});

describe("markdown preview (the editors' Preview tab)", () => {
  const preview = async (text: string, cookie: string | undefined = artistCookie) => {
    const res = await previewAction(args(request("/markdown-preview", { cookie, form: { text } }), web.context));
    return { status: res.status, data: await res.json() };
  };

  it("renders markdown with the published pages' renderer, text echoed back", async () => {
    const out = await preview("## Inks\n\n**bold** and [a link](https://example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    expect(out.data.text).toContain("## Inks");
    expect(out.data.html).toContain("<h2>Inks</h2>");
    expect(out.data.html).toContain("<strong>bold</strong>");
    expect(out.data.html).toContain('<a href="https://example.com" rel="nofollow ugc noopener noreferrer">a link</a>');
    expect(out.data.html).toContain("<table>");
  });

  it("never renders raw HTML or unsafe links", async () => {
    const out = await preview('<script>alert(1)</script><img src=x onerror="alert(2)">\n\n[x](javascript:alert(3)) [y](data:text/html,hi)');
    expect(out.data.html).not.toMatch(/<script|onerror|javascript:|data:text/);
  });

  it("refuses a text longer than any field with 413", async () => {
    const out = await preview("x".repeat(20_001));
    expect(out.status).toBe(413);
  });

  it("renders nothing for a guest (401)", async () => {
    const out = await preview("**bold**", "");
    expect(out.status).toBe(401);
    expect(out.data).toEqual({ html: "", error: "Please log in to continue" });
  });
});
