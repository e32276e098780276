// The bell, the notifications screen and the following feed (docs/api.md §11) against the real API: what the loaders
// hand the screens, reading one (with and without JavaScript) and all, the unread filter, guests sent to the login
// page, and the root loader's unread count, asked for only when someone is signed in.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { loader as rootLoader } from "../../app/root.tsx";
import { action, loader } from "../../app/routes/notifications.tsx";
import { loader as feedLoader } from "../../app/routes/feed.tsx";
import { loader as homeLoader } from "../../app/routes/_index.tsx";
import { notificationSentence } from "../../app/lib/notifications.ts";
import type { TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { createHub, joinHub } from "../helpers/fixtures.ts";
import { listenOnFreePort } from "../helpers/listening-app.ts";
import { args, request, run, setUpSharedWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
let owner: TestUser;
let replier: TestUser;
let follower: TestUser;
let joiner: TestUser;

setUpSharedWebTestApi(["owner_n", "replier_n", "follower_n", "joiner_n"], (started, users) => {
  web = started;
  [owner, replier, follower, joiner] = users;
});

const unreadCount = async (user: TestUser) => {
  const res = await web.api.request.get("/me/notifications/unread-count").set(user.auth);
  return res.body.count as number;
};

const seriesIdOf = async (seriesPath: string) => (await web.api.request.get(seriesPath)).body.id as number;

const follow = async (user: TestUser, seriesId: number) => {
  const res = await web.api.request.post(`/user/${user.id}/followed-series/${seriesId}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
};

describe("guests", () => {
  it("/notifications and /feed send a guest to the login page and back", async () => {
    const list = await run(() => loader(args(request("/notifications?unread=true"), web.context)));
    expect(list.status).toBe(302);
    expect(list.location).toBe(`/login?redirectTo=${encodeURIComponent("/notifications?unread=true")}`);
    const feed = await run(() => feedLoader(args(request("/feed"), web.context)));
    expect(feed.status).toBe(302);
    expect(feed.location).toBe(`/login?redirectTo=${encodeURIComponent("/feed")}`);
  });

  it("the action sends a guest to the login page and marks nothing", async () => {
    const out = await run(() => action(args(request("/notifications", { form: { intent: "read-all" } }), web.context)));
    expect(out.status).toBe(302);
    expect(out.location).toMatch(/^\/login\?redirectTo=/);
  });
});

describe("the root loader's unread count", () => {
  it("is not asked for a guest (no API call at all), and is the API's count when signed in", async () => {
    // An API stand-in that counts the calls it gets and answers every one with a viewer's state of 7 unread.
    const calls: string[] = [];
    const fake: http.RequestListener = (req, res) => {
      calls.push(req.url ?? "");
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          user: { id: owner.id, username: owner.username, role: "user", showMature: false },
          unreadCount: 7,
          reading: null,
        }),
      );
    };
    const listening = await listenOnFreePort(fake);
    try {
      const context = webContext(`http://127.0.0.1:${listening.port}`);
      const guest = await run(() => rootLoader(args(request("/"), context)));
      expect(guest.data).toMatchObject({ user: null, unreadCount: null });
      expect(calls).toEqual([]);
      const signedIn = await run(async () => rootLoader(args(request("/", { cookie: await web.cookieFor(owner) }), context)));
      expect(signedIn.data).toMatchObject({ user: { username: "owner_n" }, unreadCount: 7 });
      // The viewer's state (docs/web.md §1), which carries the count.
      expect(calls).toEqual(["/me/state"]);
    } finally {
      await listening.close();
    }
  });

  it("follows the real API's count, and a failed count only hides the badge", async () => {
    const cookie = await web.cookieFor(owner);
    const out = await run(() => rootLoader(args(request("/", { cookie }), web.context)));
    expect(out.data.unreadCount).toBe(await unreadCount(owner));
    const down = webContext("http://127.0.0.1:9", { apiTimeoutMs: 2000 });
    const failed = await run(() => rootLoader(args(request("/", { cookie }), down)));
    expect(failed.data).toMatchObject({ user: { username: "owner_n" }, unreadCount: null });
  });
});

describe("the notifications screen", () => {
  let commentUrl: string;
  let seriesUrl: string;
  let hubUrl: string;
  let seriesName: string;

  it("lists what happened newest first, in sentences, each with its web path, marked unread", async () => {
    const made = await newPost(web.api, owner);
    const mine = await addComment(web.api, owner, made.path, "My comment");
    const reply = await addComment(web.api, replier, made.path, "A reply", mine.id);
    commentUrl = `${made.path}#comment-${reply.id}`;
    const chapter = await newChapter(web.api, owner);
    seriesUrl = chapter.seriesPath;
    seriesName = decodeURIComponent(chapter.seriesPath.slice("/series/".length));
    await follow(follower, await seriesIdOf(chapter.seriesPath));
    const hub = await createHub(web.api, owner);
    await joinHub(web.api, joiner, hub.id);
    hubUrl = `/hubs/${encodeURIComponent(hub.name)}`;

    const out = await run(async () => loader(args(request("/notifications", { cookie: await web.cookieFor(owner) }), web.context)));
    expect(out.status).toBe(200);
    expect(out.data).toMatchObject({ page: 1, unreadOnly: false });
    const items = out.data.list!.content;
    expect(items.map((n) => [n.kind, n.read, n.subject.url])).toEqual([
      ["join", false, hubUrl],
      ["follow", false, seriesUrl],
      ["reply", false, commentUrl],
    ]);
    expect(items.map((n) => notificationSentence(n))).toEqual([
      `joiner_n joined ${hub.name}`,
      `follower_n followed ${seriesName}`,
      `replier_n replied to your comment on “${made.post.title}”`,
    ]);
    expect(await unreadCount(owner)).toBe(3);
  });

  it("says a new chapter with its series", () => {
    const sentence = notificationSentence({
      kind: "chapter",
      actor: { id: 1, username: "ann", profileImageID: null },
      subject: { type: "chapter", id: 4, title: "Moon Tide – Chapter 3: The Fall", url: "/series/Moon%20Tide/3" },
    });
    expect(sentence).toBe("New chapter: Moon Tide – Chapter 3: The Fall");
  });

  it("opening one without JavaScript marks it read and redirects to its subject", async () => {
    const cookie = await web.cookieFor(owner);
    const item = (await run(() => loader(args(request("/notifications", { cookie }), web.context)))).data.list!.content.find(
      (n) => n.kind === "reply",
    )!;
    const out = await run(() =>
      action(
        args(request("/notifications", { cookie, form: { intent: "read", id: item.id, to: item.subject.url, noscript: 1 } }), web.context),
      ),
    );
    expect(out.status).toBe(303);
    expect(out.location).toBe(commentUrl);
    expect(await unreadCount(owner)).toBe(2);
  });

  it("opening one with JavaScript (a fetcher) marks it read and answers data; the page navigates itself", async () => {
    const cookie = await web.cookieFor(owner);
    const item = (await run(() => loader(args(request("/notifications?unread=true", { cookie }), web.context)))).data.list!.content.find(
      (n) => n.kind === "follow",
    )!;
    const out = await run(() =>
      action(args(request("/notifications", { cookie, form: { intent: "read", id: item.id, to: item.subject.url } }), web.context)),
    );
    expect(out.status).toBe(200);
    expect(out.data).toMatchObject({ ok: true });
    expect(await unreadCount(owner)).toBe(1);
  });

  it("lists only the unread with ?unread=true", async () => {
    const cookie = await web.cookieFor(owner);
    const out = await run(() => loader(args(request("/notifications?unread=true", { cookie }), web.context)));
    expect(out.data.unreadOnly).toBe(true);
    expect(out.data.list!.content.map((n) => [n.kind, n.read])).toEqual([["join", false]]);
    const all = await run(() => loader(args(request("/notifications", { cookie }), web.context)));
    expect(all.data.list!.content.map((n) => n.read)).toEqual([false, true, true]);
  });

  it("never redirects off the site, whatever `to` says", async () => {
    const cookie = await web.cookieFor(owner);
    for (const to of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const out = await run(() =>
        action(args(request("/notifications?unread=true", { cookie, form: { intent: "read", id: 999999, to, noscript: 1 } }), web.context)),
      );
      expect(out.status).toBe(303);
      expect(out.location).toBe("/notifications?unread=true");
    }
  });

  it("refuses an unknown intent or a malformed id", async () => {
    const cookie = await web.cookieFor(owner);
    const forms: Record<string, string>[] = [{ intent: "delete" }, { intent: "read", id: "x", to: "/" }];
    for (const form of forms) {
      const out = await run(() => action(args(request("/notifications", { cookie, form }), web.context)));
      expect(out.status).toBe(400);
    }
  });

  it("'Mark all read' marks every one read: a redirect back without JavaScript, the count with it", async () => {
    const cookie = await web.cookieFor(owner);
    const out = await run(() =>
      action(args(request("/notifications?unread=true", { cookie, form: { intent: "read-all", noscript: 1 } }), web.context)),
    );
    expect(out.status).toBe(303);
    expect(out.location).toBe("/notifications?unread=true");
    expect(await unreadCount(owner)).toBe(0);
    const unread = await run(() => loader(args(request("/notifications?unread=true", { cookie }), web.context)));
    expect(unread.data.list!.content).toEqual([]);
    const again = await run(() => action(args(request("/notifications", { cookie, form: { intent: "read-all" } }), web.context)));
    expect(again.data).toEqual({ ok: true, count: 0 });
  });

  it("pages: ?page= beyond the end is an empty page", async () => {
    const cookie = await web.cookieFor(owner);
    const out = await run(() => loader(args(request("/notifications?page=5", { cookie }), web.context)));
    expect(out.data.page).toBe(5);
    expect(out.data.list!.content).toEqual([]);
  });
});

describe("the feed", () => {
  it("is empty before following anything, then holds the followed series' chapters and the joined hubs' posts", async () => {
    const reader = await web.api.register();
    const cookie = await web.cookieFor(reader);
    const empty = await run(() => feedLoader(args(request("/feed", { cookie }), web.context)));
    expect(empty.data.list!.content).toEqual([]);

    const chapter = await newChapter(web.api, owner);
    await follow(reader, await seriesIdOf(chapter.seriesPath));
    const made = await newPost(web.api, owner);
    await joinHub(web.api, reader, made.hub.id);

    const out = await run(() => feedLoader(args(request("/feed", { cookie }), web.context)));
    expect(out.status).toBe(200);
    const items = out.data.list!.content;
    expect(items.map((i) => i.type)).toEqual(["post", "chapter"]);
    expect(items[0]!.type === "post" && items[0]!.post.id).toBe(made.post.id);
    expect(items[1]!.type === "chapter" && items[1]!.chapter.id).toBe(chapter.id);

    const home = await run(() => homeLoader(args(request("/", { cookie }), web.context)));
    expect(home.data.feed?.map((i) => i.type)).toEqual(["post", "chapter"]);
    const guestHome = await run(() => homeLoader(args(request("/"), web.context)));
    expect(guestHome.data).not.toHaveProperty("feed");
  });
});
