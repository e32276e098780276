import { describe, expect, it } from "vitest";
import { action as hubAction, loader as hubLoader } from "../../app/routes/hubs.$hubName._index.tsx";
import { action as postAction, loader as postLoader } from "../../app/routes/hubs.$hubName.$postId.tsx";
import { loader as hubsLoader } from "../../app/routes/hubs._index.tsx";
import type { TestUser } from "../helpers/api.ts";
import { args, request, run, setUpSharedWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";
import { createHub, createPost, joinHub, likePost } from "../helpers/web-seed.ts";

let web: WebTestApi;
let artist: TestUser;
let reader: TestUser;
let manga: { id: number; name: string };
let posts: { id: number }[];

setUpSharedWebTestApi(["artist_h", "reader_h"], async (started, users) => {
  web = started;
  [artist, reader] = users;
  manga = await createHub(web.api, artist, { name: "Manga Lovers", description: "All about manga" });
  await createHub(web.api, artist, { name: "Ink Club" });
  for (let i = 1; i <= 11; i++) await createHub(web.api, reader, { name: `Filler hub ${i}` });
  posts = [];
  for (let i = 1; i <= 12; i++)
    posts.push(await createPost(web.api, artist, manga.id, { title: `Chapter talk ${i}`, content: "Long enough content here." }));
  await joinHub(web.api, reader, manga.id);
  await likePost(web.api, reader, manga.name, posts[0]!.id);
});

const hubArgs = (path: string, cookie?: string, params = { hubName: "Manga Lovers" }) =>
  args(request(path, { cookie }), web.context, params);

describe("hub list", () => {
  it("lists all hubs ten a page with the top hubs beside", async () => {
    const out = await run(() => hubsLoader(hubArgs("/hubs")));
    expect(out.data.list?.content).toHaveLength(10);
    expect(out.data.list?.totalPages).toBe(2);
    expect(out.data.topHubs?.length).toBeGreaterThan(0);
    // Only what the cards and chips show is sent with the page.
    expect(Object.keys(out.data.list!.content[0]!).sort()).toEqual([
      "description",
      "id",
      "memberCount",
      "name",
      "profileBannerId",
      "profileImageId",
    ]);
    expect(Object.keys(out.data.topHubs![0]!).sort()).toEqual(["id", "memberCount", "name", "profileImageId"]);
    const page2 = await run(() => hubsLoader(hubArgs("/hubs?page=2")));
    expect(page2.data.page).toBe(2);
    expect(page2.data.list?.content).toHaveLength(3);
  });

  it("searches by name, without the top hubs", async () => {
    const out = await run(() => hubsLoader(hubArgs("/hubs?q=%20manga%20")));
    expect(out.data.query).toBe("manga");
    expect(out.data.list?.content.map((h: { name: string }) => h.name)).toEqual(["Manga Lovers"]);
    expect(out.data.topHubs).toBeNull();
  });

  it("reports a failure instead of failing the page", async () => {
    const out = await run(() => hubsLoader(args(request("/hubs"), webContext("http://127.0.0.1:9"))));
    expect(out.status).toBe(200);
    expect(out.data.list).toBeNull();
  });
});

describe("hub detail", () => {
  it("loads the hub, its creator and the latest posts", async () => {
    const out = await run(() => hubLoader(hubArgs("/hubs/Manga%20Lovers")));
    expect(out.data.hub).toMatchObject({ name: "Manga Lovers", memberCount: 2, joinedByMe: false });
    expect(out.data.creator).toMatchObject({ username: "artist_h" });
    expect(out.data.posts?.content).toHaveLength(10);
    expect(out.data.posts?.totalPages).toBe(2);
    expect(out.data.posts?.content[0]?.title).toBe("Chapter talk 12");
  });

  it("sorts by likes", async () => {
    const out = await run(() => hubLoader(hubArgs("/hubs/Manga%20Lovers?sort=likes")));
    expect(out.data.sort).toBe("likes");
    expect(out.data.posts?.content[0]).toMatchObject({ title: "Chapter talk 1", likes: 1 });
  });

  it("says 'No hub found.' with a 404", async () => {
    const out = await run(() => hubLoader(hubArgs("/hubs/nope", undefined, { hubName: "nope" })));
    expect(out.status).toBe(404);
    expect(out.data.hubError).toBe("No hub found.");
  });

  it("joins and leaves for the signed-in user, with fetchers and without JavaScript", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    const post = (form: Record<string, string | number>) =>
      run(() => hubAction(args(request("/hubs/Manga%20Lovers?index", { cookie, form }), web.context, { hubName: "Manga Lovers" })));

    expect((await post({ intent: "join", hubId: manga.id })).data).toEqual({ ok: true });
    let hub = await run(() => hubLoader(hubArgs("/hubs/Manga%20Lovers", cookie)));
    expect(hub.data.hub).toMatchObject({ joinedByMe: true, memberCount: 3 });

    const noJs = await post({ intent: "leave", hubId: manga.id, noscript: "1" });
    expect(noJs.status).toBe(303);
    expect(noJs.location).toBe("/hubs/Manga%20Lovers");
    hub = await run(() => hubLoader(hubArgs("/hubs/Manga%20Lovers", cookie)));
    expect(hub.data.hub).toMatchObject({ joinedByMe: false, memberCount: 2 });
  });

  it("answers a failed toggle with ok: false (logged only)", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    const out = await run(() => hubAction(args(request("/hubs/x", { cookie, form: { intent: "join", hubId: 999999 } }), web.context)));
    expect(out.data).toEqual({ ok: false });
  });

  it("sends a guest who tries to join to the login page", async () => {
    const out = await run(() =>
      hubAction(args(request("/hubs/Manga%20Lovers", { form: { intent: "join", hubId: manga.id } }), web.context)),
    );
    expect(out.location).toBe("/login?redirectTo=%2Fhubs%2FManga%2520Lovers");
  });
});

describe("post detail", () => {
  const postArgs = (postId: number | string, cookie?: string, form?: Record<string, string | number>) =>
    args(request(`/hubs/Manga%20Lovers/${postId}`, { cookie, form }), web.context, { hubName: "Manga Lovers", postId: String(postId) });

  it("loads the post with the viewer's like and the hub's join state", async () => {
    const cookie = await web.cookieFor(reader);
    const out = await run(() => postLoader(postArgs(posts[0]!.id, cookie)));
    expect(out.data.post).toMatchObject({
      title: "Chapter talk 1",
      likes: 1,
      likedByMe: true,
      contentHtml: "<p>Long enough content here.</p>",
    });
    expect(out.data.post).not.toHaveProperty("content"); // the page ships HTML, not the markdown and its parser
    expect(out.data.hub).toMatchObject({ id: manga.id, joinedByMe: true });
    expect(out.data.recentHubs?.length).toBeGreaterThan(0);
  });

  it("says 'Post not found' with a 404", async () => {
    for (const id of ["999999", "abc"]) {
      const out = await run(() => postLoader(postArgs(id)));
      expect(out.status).toBe(404);
      expect(out.data.postError).toBe("Post not found");
    }
  });

  it("likes and unlikes, and the count follows", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    const target = posts[5]!.id;
    const fields = { hubName: "Manga Lovers", postId: target };
    expect((await run(() => postAction(postArgs(target, cookie, { intent: "like", ...fields })))).data).toEqual({ ok: true });
    let out = await run(() => postLoader(postArgs(target, cookie)));
    expect(out.data.post).toMatchObject({ likes: 1, likedByMe: true });
    await run(() => postAction(postArgs(target, cookie, { intent: "unlike", ...fields })));
    out = await run(() => postLoader(postArgs(target, cookie)));
    expect(out.data.post).toMatchObject({ likes: 0, likedByMe: false });
  });

  it("joins the hub from the post page", async () => {
    const user = await web.api.register();
    const cookie = await web.cookieFor(user);
    await joinHub(web.api, user, manga.id);
    const out = await run(() => postAction(postArgs(posts[0]!.id, cookie, { intent: "leave", hubId: manga.id })));
    expect(out.data).toEqual({ ok: true });
  });
});
