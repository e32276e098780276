// One rule for every place the web app goes to, or links back to, an address it was given (`back`, `next`,
// `redirectTo`, a notification's `to`): a path on this site, checked after decoding (docs/web.md §6; issue 27,
// item 7: `?back=/%09/evil.example` made a Cancel link and a 303 that browsers read as //evil.example).
import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../app/lib/redirects.ts";
import { action as moderateAction, loader as moderateLoader } from "../../app/routes/moderate.$action.$type.$id.tsx";
import { action as notificationsAction } from "../../app/routes/notifications.tsx";
import { loader as reportLoader } from "../../app/routes/report.$type.$id.tsx";
import { loader as matureLoader } from "../../app/routes/mature.tsx";
import { action as blockAction } from "../../app/routes/user.$username_.block.tsx";
import { setAdmin } from "../../scripts/admin.ts";
import type { TestUser } from "../helpers/api.ts";
import { addComment, newPost } from "../helpers/comments.ts";
import { args, request, run, setUpSharedWebTestApi, type WebTestApi } from "../helpers/web.ts";

/** Addresses that leave the site in some browser, or could once decoded again. */
const OFF_SITE = [
  "/\t/evil.example/phish",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/%09/evil.example/phish",
  "/%0a/evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5Cevil.example",
  "/%255C%255Cevil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "//evil.example",
  "///evil.example",
  "/\u0000/evil.example",
  "/\u007f/evil.example",
  " /evil",
  "https://evil.example/",
  "javascript:alert(1)",
  "evil.example",
];

describe("safeRedirect, the one rule", () => {
  it.each(OFF_SITE)("refuses %j", (to) => {
    expect(safeRedirect(to, "/fallback")).toBe("/fallback");
  });

  it.each([
    "/",
    "/hubs/Manga%20Lovers?sort=likes",
    "/series/Blade/1?page=2#stage",
    "/settings#blocked",
    "/hubs?q=a%20b%26c",
    "/hubs?q=100%25",
    "/%E0%A4%A",
  ])("keeps %j", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });
});

let web: WebTestApi;
let author: TestUser;
let admin: TestUser;
let reader: TestUser;

setUpSharedWebTestApi(["author_rt", "admin_rt", "reader_rt"], async (started, users) => {
  web = started;
  [author, admin, reader] = users;
  expect((await setAdmin(web.api.db, admin.username, "grant")).ok).toBe(true);
});

const withBack = (path: string, back: string) => `${path}?back=${encodeURIComponent(back)}`;
/** `?back=/%09/evil.example/phish` exactly as the issue sent it (the %09 left for the URL parser to decode). */
const ISSUE_BACK = "back=/%09/evil.example/phish";

describe("every place that takes an address", () => {
  it("the report page's Cancel link stays on the site", async () => {
    const { post } = await newPost(web.api, author);
    const cookie = await web.cookieFor(reader);
    const params = { type: "post", id: String(post.id) };
    const issue = await run(() => reportLoader(args(request(`/report/post/${post.id}?${ISSUE_BACK}`, { cookie }), web.context, params)));
    expect(issue.data.back).toBe("/");
    for (const back of OFF_SITE) {
      const out = await run(() => reportLoader(args(request(withBack(`/report/post/${post.id}`, back), { cookie }), web.context, params)));
      expect(out.data.back, back).toBe("/");
    }
    const here = await run(() =>
      reportLoader(args(request(withBack(`/report/post/${post.id}`, "/hubs?page=2"), { cookie }), web.context, params)),
    );
    expect(here.data.back).toBe("/hubs?page=2");
  });

  it("a removal's Cancel link and its 303 stay on the site", async () => {
    const { path } = await newPost(web.api, author);
    const comment = await addComment(web.api, reader, path, "Remove me");
    const cookie = await web.cookieFor(admin);
    const params = { action: "remove", type: "comment", id: String(comment.id) };
    const at = `/moderate/remove/comment/${comment.id}?${ISSUE_BACK}`;
    const page = await run(() => moderateLoader(args(request(at, { cookie }), web.context, params)));
    expect(page.data.back).toBe("/");
    const done = await run(() => moderateAction(args(request(at, { cookie, form: { reason: "Spam" } }), web.context, params)));
    expect(done.status).toBe(303);
    expect(done.location).toBe("/");
  });

  it("the mature notice's Continue, a block's redirectTo and a notification's address stay on the site", async () => {
    const next = await run(() => matureLoader(args(request(`/mature?next=${encodeURIComponent("/%09/evil.example")}`), web.context)));
    expect(next.location).toBe("/series");

    const cookie = await web.cookieFor(reader);
    const blocked = await run(() =>
      blockAction(
        args(request(`/user/${author.username}/block`, { cookie, form: { redirectTo: "/%5C/evil.example" } }), web.context, {
          username: author.username,
        }),
      ),
    );
    expect(blocked.location).toBe(`/user/${author.username}`);

    const read = await run(() =>
      notificationsAction(
        args(
          request("/notifications?index", { cookie, form: { intent: "read", id: 1, to: "/%2F/evil.example", noscript: 1 } }),
          web.context,
        ),
      ),
    );
    expect(read.status).toBe(303);
    expect(read.location).toBe("/notifications");
  });
});
