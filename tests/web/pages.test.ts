import { describe, expect, it } from "vitest";
import { loader as homeLoader } from "../../app/routes/_index.tsx";
import { loader as profileLoader } from "../../app/routes/profile.tsx";
import { loader as userLoader, shouldRevalidate } from "../../app/routes/user.$username.tsx";
import type { TestUser } from "../helpers/api.ts";
import { args, request, run, setUpSharedWebTestApi, startWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";
import { createHub, createPost, createSeriesWithChapter, joinHub } from "../helpers/web-seed.ts";

let web: WebTestApi;
let artist: TestUser;
let reader: TestUser;

setUpSharedWebTestApi(["artist_p", "reader_p"], (started, users) => {
  web = started;
  [artist, reader] = users;
});

describe("home", () => {
  it("says there is nothing yet on an empty site", async () => {
    const fresh = await startWebTestApi();
    try {
      const out = await run(async () => homeLoader(args(request("/"), fresh.context)));
      const { meta, ...rest } = out.data;
      // A guest's home: no feed and nothing in progress; its share card comes with the data (app/lib/loader-meta.ts).
      expect(rest).toEqual({ latest: [], recentHubs: [], me: null, continueReading: null });
      expect(meta).toContainEqual({ title: "Inkwell — comics and manga community" });
    } finally {
      await fresh.close();
    }
  });

  it("shows each top series with its latest chapter, the recent hubs with their latest post, and the viewer", async () => {
    await createSeriesWithChapter(web.api, artist, "Moonlit Ronin", "The Night Market", 200, false);
    await web.api.request.post("/series").set(artist.auth).send({ name: "No Chapters Yet" });
    const hub = await createHub(web.api, artist, { name: "Sketch Club" });
    const post = await createPost(web.api, artist, hub.id, { title: "Warm-up sketches", content: "Post your warm-ups here." });
    const out = await run(async () => homeLoader(args(request("/", { cookie: await web.cookieFor(reader) }), web.context)));
    expect(out.data.latest).toHaveLength(1);
    expect(out.data.latest?.[0]).toMatchObject({
      name: "Moonlit Ronin",
      authorName: "artist_p",
      latestChapter: { number: 1, title: "The Night Market" },
    });
    expect(out.data.recentHubs?.[0]).toMatchObject({ name: "Sketch Club", latestPost: { id: post.id, title: "Warm-up sketches" } });
    expect(out.data.me).toMatchObject({ username: "reader_p", email: reader.email });
    // Only what the cards and the sidebar show: the loader's data is written into the page (and parsed again by the browser).
    expect(Object.keys(out.data.latest![0]!).sort()).toEqual([
      "authorName",
      "id",
      "latestChapter",
      "name",
      "profileBannerId",
      "profileImageId",
    ]);
    expect(Object.keys(out.data.latest![0]!.latestChapter).sort()).toEqual(["number", "title"]);
    const sidebarHub = out.data.recentHubs!.find((h) => h.name === "Sketch Club")!;
    expect(sidebarHub).toEqual({
      id: hub.id,
      name: "Sketch Club",
      description: expect.any(String),
      profileImageId: null,
      latestPost: { id: post.id, title: "Warm-up sketches" },
    });
  });

  it("hides the failed parts: latest chapters and sidebar both null when the API is down", async () => {
    const out = await run(async () => homeLoader(args(request("/"), webContext("http://127.0.0.1:9"))));
    const { meta: _meta, ...rest } = out.data;
    expect(rest).toEqual({ latest: null, recentHubs: null, me: null, continueReading: null });
  });
});

describe("profile", () => {
  it("shows the signed-in user's own record", async () => {
    const out = await run(async () => profileLoader(args(request("/profile", { cookie: await web.cookieFor(reader) }), web.context)));
    expect(out.data.user).toMatchObject({ id: reader.id, username: "reader_p", email: reader.email, profileImageID: null });
  });

  it("says 'Failed to load profile data' when the API fails", async () => {
    const down = webContext("http://127.0.0.1:9");
    const cookie = await web.cookieFor(reader);
    const out = await run(async () => profileLoader(args(request("/profile", { cookie }), down)));
    expect(out.data.error).toBe("Failed to load profile data");
  });
});

describe("public user page", () => {
  it("loads the user and the four lists", async () => {
    const hub = await createHub(web.api, artist, { name: "Artist Hub" });
    await joinHub(web.api, reader, hub.id);
    const out = await run(async () => userLoader(args(request("/user/artist_p"), web.context, { username: "artist_p" })));
    expect(out.data.user).toMatchObject({ username: "artist_p", email: null });
    const { memberHubs, followedSeries, createdSeries, createdHubs } = out.data.lists!;
    expect(createdHubs!.map((h) => h.name)).toContain("Artist Hub");
    expect(memberHubs!.length).toBe(createdHubs!.length);
    expect(followedSeries).toEqual([]);
    expect(createdSeries!.length).toBeGreaterThanOrEqual(1);
  });

  it("works the same on your own page (lists fetched at once)", async () => {
    const out = await run(async () =>
      userLoader(args(request("/user/READER_P", { cookie: await web.cookieFor(reader) }), web.context, { username: "READER_P" })),
    );
    expect(out.data.user).toMatchObject({ username: "reader_p", email: reader.email });
    expect(out.data.lists?.memberHubs?.map((h: { name: string }) => h.name)).toContain("Artist Hub");
  });

  it("says 'User not found' with a 404", async () => {
    const out = await run(async () => userLoader(args(request("/user/nobody"), web.context, { username: "nobody" })));
    expect(out.status).toBe(404);
    expect(out.data.error).toBe("User not found");
  });

  it("does not reload for a popup or a tab", () => {
    const base = { formMethod: undefined, defaultShouldRevalidate: true } as Parameters<typeof shouldRevalidate>[0];
    const at = (u: string) => new URL(`http://x${u}`);
    expect(shouldRevalidate({ ...base, currentUrl: at("/user/a"), nextUrl: at("/user/a?show=member-hubs") })).toBe(false);
    expect(shouldRevalidate({ ...base, currentUrl: at("/user/a?tab=hubs"), nextUrl: at("/user/a") })).toBe(false);
    expect(shouldRevalidate({ ...base, currentUrl: at("/user/a"), nextUrl: at("/user/b") })).toBe(true);
  });
});
