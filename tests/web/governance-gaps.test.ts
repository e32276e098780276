// Issue 14's last web gaps, at the loaders against the real API: an admin's pages know they may remove and restore
// chapters, series and hubs (`isAdmin`, the Remove/Restore links; docs/web.md "Removal"), and a blocker's threads
// carry the count of hidden replies, also on the "load more replies" route, which passes `?showBlocked=1` on
// (docs/web.md "Blocks").
import { describe, expect, it } from "vitest";
import { loader as chapterLoader } from "../../app/routes/series.$seriesName.$chapterNumber.tsx";
import { loader as seriesLoader } from "../../app/routes/series.$seriesName._index.tsx";
import { loader as hubLoader } from "../../app/routes/hubs.$hubName._index.tsx";
import { loader as postLoader } from "../../app/routes/hubs.$hubName.$postId.tsx";
import { loader as repliesLoader } from "../../app/routes/comments.$id.replies.tsx";
import { setAdmin } from "../../scripts/admin.ts";
import type { TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { joinHub } from "../helpers/fixtures.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";

let web: WebTestApi;
let author: TestUser;
let admin: TestUser;
let reader: TestUser;

setUpSharedWebTestApi(["author_gg", "admin_gg", "reader_gg"], async (started, users) => {
  web = started;
  [author, admin, reader] = users;
  expect((await setAdmin(web.api.db, admin.username, "grant")).ok).toBe(true);
});

describe("an admin's pages", () => {
  it("know the viewer is an admin on a chapter, a series and a hub; the author, others and guests get false", async () => {
    const chapter = await newChapter(web.api, author);
    const seriesName = decodeURIComponent(chapter.seriesPath.slice("/series/".length));
    const { hub } = await newPost(web.api, author);
    const loaders = {
      chapter: (cookie?: string) => chapterLoader(args(request(chapter.path, { cookie }), web.context, { seriesName, chapterNumber: "1" })),
      series: (cookie?: string) => seriesLoader(args(request(chapter.seriesPath, { cookie }), web.context, { seriesName })),
      hub: (cookie?: string) =>
        hubLoader(args(request(`/hubs/${encodeURIComponent(hub.name)}`, { cookie }), web.context, { hubName: hub.name })),
    };
    for (const [name, load] of Object.entries(loaders)) {
      const as = async (user?: TestUser) => (await run(async () => load(user && (await web.cookieFor(user))))).data as { isAdmin: boolean };
      expect((await as(admin)).isAdmin, name).toBe(true);
      expect((await as(author)).isAdmin, name).toBe(false);
      expect((await as(reader)).isAdmin, name).toBe(false);
      expect((await as()).isAdmin, name).toBe(false);
    }
  });
});

describe("a blocker's threads", () => {
  it("count the replies their blocks hide, on the page and on the replies route, and show them with ?showBlocked=1", async () => {
    const { hub, post, path } = await newPost(web.api, author);
    await joinHub(web.api, reader, hub.id);
    const top = await addComment(web.api, author, path, "Top");
    const shown = await addComment(web.api, author, path, "Shown reply", top.id);
    const hidden = await addComment(web.api, reader, path, "Hidden reply", top.id);
    expect((await web.api.request.put(`/me/blocks/${reader.id}`).set(admin.auth)).status).toBe(200);
    const cookie = await web.cookieFor(admin);
    const params = { hubName: hub.name, postId: String(post.id) };

    const page = await run(async () => postLoader(args(request(path, { cookie }), web.context, params)));
    const thread = page.data.comments!.comments.find((c) => c.id === top.id)!;
    expect(thread.replies.map((r) => r.id)).toEqual([shown.id]);
    expect(thread).toMatchObject({ repliesTotal: 1, repliesHidden: 1 });
    const all = await run(async () => postLoader(args(request(`${path}?showBlocked=1`, { cookie }), web.context, params)));
    const whole = all.data.comments!.comments.find((c) => c.id === top.id)!;
    expect(whole.replies.map((r) => r.id)).toEqual([shown.id, hidden.id]);
    expect(whole).toMatchObject({ repliesTotal: 2, repliesHidden: 0 });

    const more = (query: string) =>
      run(async () => repliesLoader(args(request(`/comments/${top.id}/replies${query}`, { cookie }), web.context, { id: String(top.id) })));
    const filtered = await more("");
    expect(filtered.data.replies?.map((r) => r.id)).toEqual([shown.id]);
    expect(filtered.data).toMatchObject({ total: 1, hidden: 1 });
    const unfiltered = await more("?showBlocked=1");
    expect(unfiltered.data.replies?.map((r) => r.id)).toEqual([shown.id, hidden.id]);
    expect(unfiltered.data).toMatchObject({ total: 2, hidden: 0 });
  });
});
