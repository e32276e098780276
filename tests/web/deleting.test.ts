// The confirmation step of a deletion (docs/api.md §15) against the real API: the loader says what goes with the thing
// and deletes nothing; the form's action deletes it and goes to where it lived with a notice; a stranger is refused on
// the step; guests go to the login page; the notice reads only the kinds it knows.
import { describe, expect, it } from "vitest";
import { deletedNotice } from "../../app/lib/deletion.ts";
import { action as chapterAction, loader as chapterLoader } from "../../app/routes/delete.chapter.$seriesName.$number.tsx";
import { action, loader } from "../../app/routes/delete.$kind.$id.tsx";
import type { TestUser } from "../helpers/api.ts";
import { addComment, newChapter } from "../helpers/comments.ts";
import { createHub, createPost, hubPath } from "../helpers/fixtures.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
let owner: TestUser;
let stranger: TestUser;

setUpSharedWebTestApi(["owner_d", "stranger_d"], (started, users) => {
  web = started;
  [owner, stranger] = users;
});

describe("the confirmation step", () => {
  it("says what goes with a hub, deletes nothing until the form is sent, then goes to the hub list with a notice", async () => {
    const hub = await createHub(web.api, owner);
    const post = await createPost(web.api, owner, hub.id);
    await createPost(web.api, owner, hub.id);
    await addComment(web.api, owner, `${hubPath(hub.name)}/${post.id}`, "A comment");
    const path = `/delete/hub/${hub.id}`;
    const params = { kind: "hub", id: String(hub.id) };
    const cookie = await web.cookieFor(owner);

    const step = await run(() => loader(args(request(path, { cookie }), web.context, params)));
    expect(step.status).toBe(200);
    expect(step.data.subject).toMatchObject({
      kind: "hub",
      title: hub.name,
      consequence: "This deletes the hub, its 2 posts and their comments.",
      cancelTo: hubPath(hub.name),
    });
    expect((await web.api.request.get(hubPath(hub.name))).status).toBe(200);

    const strangerCookie = await web.cookieFor(stranger);
    const refused = await run(() => action(args(request(path, { cookie: strangerCookie, form: {} }), web.context, params)));
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({ error: "You may not delete this." });
    expect((await web.api.request.get(hubPath(hub.name))).status).toBe(200);

    const done = await run(() => action(args(request(path, { cookie, form: {} }), web.context, params)));
    expect(done.status).toBe(303);
    expect(done.location).toBe("/hubs?deleted=hub");
    expect((await web.api.request.get(hubPath(hub.name))).status).toBe(404);
    expect((await web.api.request.get(`/hub-posts/${post.id}`)).status).toBe(404);

    // Afterwards the step itself says it is gone.
    const gone = await run(() => loader(args(request(path, { cookie }), web.context, params)));
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({ subject: null, error: "Hub not found" });
  });

  it("deletes a post and goes to its hub; a chapter and goes to its series", async () => {
    const hub = await createHub(web.api, owner);
    const post = await createPost(web.api, owner, hub.id);
    const cookie = await web.cookieFor(owner);
    const postParams = { kind: "post", id: String(post.id) };
    const step = await run(() => loader(args(request(`/delete/post/${post.id}`, { cookie }), web.context, postParams)));
    expect(step.data.subject?.consequence).toBe("This deletes the post and its 0 comments.");
    const done = await run(() => action(args(request(`/delete/post/${post.id}`, { cookie, form: {} }), web.context, postParams)));
    expect(done.location).toBe(`${hubPath(hub.name)}?deleted=post`);
    expect((await web.api.request.get(hubPath(hub.name))).body.postCount).toBe(0);

    const chapter = await newChapter(web.api, owner);
    const seriesName = decodeURIComponent(chapter.seriesPath.slice("/series/".length));
    const chapterParams = { seriesName, number: "1" };
    const chapterStep = await run(() => chapterLoader(args(request(`/delete/chapter/x/1`, { cookie }), web.context, chapterParams)));
    expect(chapterStep.data.subject?.consequence).toBe("This deletes the chapter, its 1 page and its 0 comments.");
    const chapterDone = await run(() =>
      chapterAction(args(request(`/delete/chapter/x/1`, { cookie, form: {} }), web.context, chapterParams)),
    );
    expect(chapterDone.location).toBe(`${chapter.seriesPath}?deleted=chapter`);
    expect((await web.api.request.get(chapter.path)).status).toBe(404);
  });

  it("sends a guest to the login page, and answers 404 for an unknown kind", async () => {
    const guest = await run(() => loader(args(request("/delete/hub/1"), web.context, { kind: "hub", id: "1" })));
    expect(guest.status).toBe(302);
    expect(guest.location).toMatch(/^\/login\?redirectTo=/);
    const cookie = await web.cookieFor(owner);
    const unknown = await run(() => loader(args(request("/delete/user/1", { cookie }), web.context, { kind: "user", id: "1" })));
    expect(unknown.status).toBe(404);
  });

  it("the notice names only the kinds it knows", () => {
    expect(deletedNotice("hub")).toBe("The hub was deleted.");
    expect(deletedNotice("toString")).toBeNull();
    expect(deletedNotice("<script>")).toBeNull();
    expect(deletedNotice(null)).toBeNull();
  });
});
