// The comment section's loaders and actions on the post page and the chapter page (docs/api.md §10), against the
// real API: what the loaders hand the screen, each intent with and without JavaScript and without a session, and
// the API's refusals shown next to the form with the text kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as postAction, loader as postLoader } from "../../app/routes/hubs.$hubName.$postId.tsx";
import { action as chapterAction, loader as chapterLoader } from "../../app/routes/series.$seriesName.$chapterNumber.tsx";
import { loader as repliesLoader } from "../../app/routes/comments.$id.replies.tsx";
import { startTestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { listenOnFreePort } from "../helpers/listening-app.ts";
import { args, cookieHeader, request, run, setUpSharedWebTestApi, webContext, type WebTestApi } from "../helpers/web.ts";
import { createPost } from "../helpers/web-seed.ts";
import { renderMarkdown } from "../../app/lib/markdown.server.tsx";
import { COMMENT_CONTENT_MAX } from "../../server/rules/comment.ts";
import { commitToken } from "../../app/lib/session.server.ts";

let web: WebTestApi;
let creator: TestUser;
let writer: TestUser;
let stranger: TestUser;
let hubId: number;
let post: { hubName: string; postId: number; path: string };
let chapter: { seriesName: string; path: string };

setUpSharedWebTestApi(["creator_c", "writer_c", "stranger_c"], async (started, users) => {
  web = started;
  [creator, writer, stranger] = users;
  const made = await newPost(web.api, creator);
  hubId = made.hub.id;
  post = { hubName: made.hub.name, postId: made.post.id, path: made.path };
  const ch = await newChapter(web.api, creator);
  chapter = { seriesName: decodeURIComponent(ch.seriesPath.slice("/series/".length)), path: ch.path };
});

const postArgs = (query = "", init: { cookie?: string; form?: Record<string, string | number> } = {}) =>
  args(request(`${post.path}${query}`, init), web.context, { hubName: post.hubName, postId: String(post.postId) });
const chapterArgs = (query = "", init: { cookie?: string; form?: Record<string, string | number> } = {}) =>
  args(request(`${chapter.path}${query}`, init), web.context, { seriesName: chapter.seriesName, chapterNumber: "1" });

describe("the post page's comments", () => {
  let top: { id: number };
  let replies: { id: number }[];

  beforeAll(async () => {
    top = await addComment(web.api, writer, post.path, "First! Hello @creator_c, and **bold**.");
    replies = [];
    for (let i = 1; i <= 5; i++) replies.push(await addComment(web.api, stranger, post.path, `Reply ${i}`, top.id));
    await addComment(web.api, stranger, post.path, "A second comment");
  });

  it("loads a page of comments with the first replies, markdown rendered and mentions linked", async () => {
    const out = await run(async () => postLoader(postArgs()));
    expect(out.status).toBe(200);
    expect(out.data.post?.commentCount).toBe(7);
    const comments = out.data.comments!;
    expect(comments).toMatchObject({ sort: "top", page: 1, totalPages: 1 });
    expect(comments.comments.map((c) => c.id)[0]).toBe(top.id);
    const first = comments.comments[0]!;
    expect(first.contentHtml).toBe(
      '<p>First! Hello <a href="/user/creator_c" class="mention">@creator_c</a>, and <strong>bold</strong>.</p>',
    );
    expect(first).toMatchObject({ authorName: "writer_c", replyCount: 5, repliesTotal: 5, deleted: false, content: null });
    expect(first.replies.map((r) => r.id)).toEqual(replies.slice(0, 3).map((r) => r.id));
  });

  it("gives the author the markdown of their own comments (for the edit form), no one else", async () => {
    const out = await run(async () => postLoader(postArgs("", { cookie: await web.cookieFor(writer) })));
    const first = out.data.comments!.comments.find((c) => c.id === top.id)!;
    expect(first.content).toBe("First! Hello @creator_c, and **bold**.");
    expect(first.replies[0]!.content).toBeNull();
  });

  it("shows a whole thread with ?replies=, and the resource route loads it for 'load more replies'", async () => {
    const out = await run(async () => postLoader(postArgs(`?replies=${top.id}`)));
    expect(out.data.comments!.comments.find((c) => c.id === top.id)!.replies).toHaveLength(5);
    const more = await run(async () => repliesLoader(args(request(`/comments/${top.id}/replies`), web.context, { id: String(top.id) })));
    expect(more.data.total).toBe(5);
    expect(more.data.replies?.map((r) => r.contentHtml)).toEqual([1, 2, 3, 4, 5].map((n) => `<p>Reply ${n}</p>`));
    const missing = await run(async () => repliesLoader(args(request("/comments/x/replies"), web.context, { id: "x" })));
    expect(missing.status).toBe(404);
  });

  it("sorts and pages with csort and cpage", async () => {
    const newest = await run(async () => postLoader(postArgs("?csort=newest")));
    expect(newest.data.comments!.sort).toBe("newest");
    expect(newest.data.comments!.comments[0]!.authorName).toBe("stranger_c");
    const odd = await run(async () => postLoader(postArgs("?csort=sideways&cpage=nope")));
    expect(odd.data.comments).toMatchObject({ sort: "top", page: 1 });
  });

  it("links mentions in the post itself", async () => {
    const mentioning = await createPost(web.api, creator, hubId, { title: "Thanks", content: "Thanks @writer_c and mail@example.com" });
    const out = await run(async () =>
      postLoader(args(request(`/hubs/x/${mentioning.id}`), web.context, { hubName: post.hubName, postId: String(mentioning.id) })),
    );
    expect(out.data.post?.contentHtml).toBe(
      '<p>Thanks <a href="/user/writer_c" class="mention">@writer_c</a> and <a href="mailto:mail@example.com" rel="nofollow ugc noopener noreferrer">mail@example.com</a></p>',
    );
  });
});

describe("the comment actions", () => {
  it("comments with JavaScript (data) and without (a redirect to the comment, the page's own query kept)", async () => {
    const cookie = await web.cookieFor(writer);
    const js = await run(async () => postAction(postArgs("", { cookie, form: { intent: "comment", content: "With a fetcher" } })));
    expect(js.status).toBe(200);
    expect(js.data).toEqual({ comment: { ok: true, formId: "new", message: null, content: null, id: expect.any(Number) } });

    const noJs = await run(async () =>
      chapterAction(chapterArgs("?page=2&cpage=3", { cookie, form: { intent: "comment", content: "No script", noscript: "1" } })),
    );
    expect(noJs.status).toBe(303);
    const [path, anchor] = noJs.location!.split("#");
    expect(path).toBe(`${chapter.path}?page=2&csort=newest`);
    const loaded = await run(async () => chapterLoader(chapterArgs("?csort=newest", { cookie })));
    const mine = loaded.data.comments!.comments[0]!;
    expect(anchor).toBe(`comment-${mine.id}`);
    expect(mine).toMatchObject({ authorName: "writer_c", contentHtml: "<p>No script</p>" });
    expect(loaded.data.chapter?.commentCount).toBe(1);
  });

  it("replies, landing on the reply in its whole thread", async () => {
    const cookie = await web.cookieFor(stranger);
    const parent = await addComment(web.api, writer, chapter.path, "Reply to me");
    const out = await run(async () =>
      chapterAction(chapterArgs("", { cookie, form: { intent: "reply", commentId: parent.id, content: "Here you go", noscript: "1" } })),
    );
    expect(out.status).toBe(303);
    const loaded = await run(async () => chapterLoader(chapterArgs(`?replies=${parent.id}`)));
    const thread = loaded.data.comments!.comments.find((c) => c.id === parent.id)!;
    expect(thread.replies.map((r) => r.contentHtml)).toEqual(["<p>Here you go</p>"]);
    expect(out.location).toBe(`${chapter.path}?replies=${parent.id}#comment-${thread.replies[0]!.id}`);
  });

  it("edits for the author; anyone else gets the API's 403 message", async () => {
    const target = await addComment(web.api, writer, post.path, "Typo hre");
    const refused = await run(async () =>
      postAction(
        postArgs("", {
          cookie: await web.cookieFor(stranger),
          form: { intent: "edit-comment", commentId: target.id, content: "Mine now" },
        }),
      ),
    );
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ comment: { ok: false, formId: `edit-comment-${target.id}`, content: "Mine now" } });
    expect(refused.data.comment?.message).toBeTruthy();

    const cookie = await web.cookieFor(writer);
    const out = await run(async () =>
      postAction(postArgs("", { cookie, form: { intent: "edit-comment", commentId: target.id, content: "Typo here", noscript: "1" } })),
    );
    expect(out.location).toBe(`${post.path}#comment-${target.id}`);
    const loaded = await run(async () => postLoader(postArgs("?csort=newest")));
    const edited = loaded.data.comments!.comments.find((c) => c.id === target.id)!;
    expect(edited.contentHtml).toBe("<p>Typo here</p>");
    expect(edited.editedAt).not.toBeNull();
  });

  it("deletes: the author, the hub's creator; a stranger is refused; a comment with replies leaves a tombstone", async () => {
    const withReplies = await addComment(web.api, writer, post.path, "Soon gone");
    await addComment(web.api, stranger, post.path, "An answer", withReplies.id);
    const other = await addComment(web.api, writer, post.path, "Also gone");

    const refused = await run(async () =>
      postAction(postArgs("", { cookie: await web.cookieFor(stranger), form: { intent: "delete-comment", commentId: other.id } })),
    );
    expect(refused.status).toBe(403);
    expect(refused.data.comment).toMatchObject({ ok: false, formId: `delete-comment-${other.id}` });

    const byCreator = await run(async () =>
      postAction(postArgs("", { cookie: await web.cookieFor(creator), form: { intent: "delete-comment", commentId: other.id } })),
    );
    expect(byCreator.data.comment).toMatchObject({ ok: true });

    const byAuthor = await run(async () =>
      postAction(
        postArgs("?csort=newest", {
          cookie: await web.cookieFor(writer),
          form: { intent: "delete-comment", commentId: withReplies.id, noscript: "1" },
        }),
      ),
    );
    expect(byAuthor.location).toBe(`${post.path}?csort=newest#comments`);
    const loaded = await run(async () => postLoader(postArgs("?csort=newest")));
    const ids = loaded.data.comments!.comments.map((c) => c.id);
    expect(ids).not.toContain(other.id);
    const tombstone = loaded.data.comments!.comments.find((c) => c.id === withReplies.id)!;
    expect(tombstone).toMatchObject({ deleted: true, authorName: null, contentHtml: "", repliesTotal: 1 });
  });

  it("likes and unlikes a comment", async () => {
    const target = await addComment(web.api, writer, post.path, "Like me");
    const cookie = await web.cookieFor(stranger);
    const liked = await run(async () => postAction(postArgs("", { cookie, form: { intent: "like-comment", commentId: target.id } })));
    expect(liked.data.comment).toMatchObject({ ok: true });
    let loaded = await run(async () => postLoader(postArgs("?csort=newest", { cookie })));
    expect(loaded.data.comments!.comments.find((c) => c.id === target.id)).toMatchObject({ likes: 1, likedByMe: true });

    const unliked = await run(async () =>
      postAction(postArgs("", { cookie, form: { intent: "unlike-comment", commentId: target.id, noscript: "1" } })),
    );
    expect(unliked.location).toBe(`${post.path}#comment-${target.id}`);
    loaded = await run(async () => postLoader(postArgs("?csort=newest", { cookie })));
    expect(loaded.data.comments!.comments.find((c) => c.id === target.id)).toMatchObject({ likes: 0, likedByMe: false });
  });

  it("sends a guest to the login page, for every intent", async () => {
    for (const intent of ["comment", "reply", "edit-comment", "delete-comment", "like-comment", "unlike-comment"]) {
      const out = await run(async () => postAction(postArgs("", { form: { intent, commentId: 1, content: "x" } })));
      expect(out.status).toBe(302);
      expect(out.location).toBe(`/login?redirectTo=${encodeURIComponent(post.path)}`);
    }
  });

  it("shows the API's message next to the form and keeps the text (empty, too long, no such comment)", async () => {
    const cookie = await web.cookieFor(writer);
    const empty = await run(async () => postAction(postArgs("", { cookie, form: { intent: "comment", content: "   ", noscript: "1" } })));
    expect(empty.status).toBe(400);
    expect(empty.data).toEqual({ comment: { ok: false, formId: "new", message: "Comment cannot be empty", content: "   " } });

    const long = "x".repeat(5001);
    const tooLong = await run(async () => chapterAction(chapterArgs("", { cookie, form: { intent: "comment", content: long } })));
    expect(tooLong.status).toBe(400);
    expect(tooLong.data).toEqual({
      comment: { ok: false, formId: "new", message: "Comment must be less than 5000 characters", content: long },
    });

    const noParent = await run(async () =>
      postAction(postArgs("", { cookie, form: { intent: "reply", commentId: 999999, content: "Kept text" } })),
    );
    expect(noParent.status).toBe(400);
    expect(noParent.data.comment).toMatchObject({ ok: false, formId: "reply-999999", content: "Kept text" });
  });
});

describe("the comment rate limit", () => {
  let close: () => Promise<void>;
  let context: WebTestApi["context"];
  let user: TestUser;
  let place: { hubName: string; postId: number; path: string };

  beforeAll(async () => {
    const api = await startTestApi({ commentRatePerMinute: 2 });
    const listening = await listenOnFreePort(api.app);
    context = webContext(`http://127.0.0.1:${listening.port}`);
    close = async () => {
      await listening.close();
      await api.close();
    };
    user = await api.register("rate_c");
    const made = await newPost(api, user);
    place = { hubName: made.hub.name, postId: made.post.id, path: made.path };
  });
  afterAll(() => close?.());

  it("answers 429 with the API's message and keeps the text", async () => {
    const cookie = cookieHeader(await commitToken(context, user.token));
    const send = (content: string) =>
      run(async () =>
        postAction(
          args(request(place.path, { cookie, form: { intent: "comment", content } }), context, {
            hubName: place.hubName,
            postId: String(place.postId),
          }),
        ),
      );
    expect((await send("one")).status).toBe(200);
    expect((await send("two")).status).toBe(200);
    const third = await send("three");
    expect(third.status).toBe(429);
    expect(third.data.comment).toMatchObject({ ok: false, formId: "new", content: "three" });
    expect(third.data.comment?.message).toMatch(/^You can post at most 2 comments a minute\. Please try again in \d+ seconds?\.$/);
  });
});

describe("mentions in markdown", () => {
  // Which text is a mention: tests/rules/mentions.test.ts (the splitter the API uses too).
  it("leaves code and links alone", () => {
    expect(renderMarkdown("`@ann_1` [@bob_2](https://example.com) @cat_3", "")).toBe(
      '<p><code>@ann_1</code> <a href="https://example.com" rel="nofollow ugc noopener noreferrer">@bob_2</a> <a href="/user/cat_3" class="mention">@cat_3</a></p>',
    );
  });

  // What the longest hostile comments render to, not how fast: a clock in a unit test fails on a busy machine
  // (performance is measured in bench/, where the post page renders the big post's comments).
  it("renders the longest hostile comments whole: an '@' run with no name, and a mention on every word", () => {
    const noName = "a@" + ".".repeat(COMMENT_CONTENT_MAX - 3) + "@";
    expect(noName).toHaveLength(COMMENT_CONTENT_MAX);
    expect(renderMarkdown(noName, "")).toBe(`<p>${noName}</p>`);

    const words = COMMENT_CONTENT_MAX / "@abc ".length;
    const link = '<a href="/user/abc" class="mention">@abc</a>';
    const html = renderMarkdown("@abc ".repeat(words), "");
    expect(html).toBe(`<p>${Array.from({ length: words }, () => link).join(" ")}</p>`);
  });
});
