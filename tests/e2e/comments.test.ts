// The comment section in Chromium (docs/api.md §10): comment, reply, edit, delete and like under a post and under a
// chapter, with JavaScript (fetchers, optimistic updates, no reload) and without (form posts and redirects); the
// sort and paging links, "load more replies", mentions, the guest's read-only view, and axe-core on both places.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { addComment } from "../helpers/comments.ts";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";
import { createHub, createPost, createSeriesWithChapter } from "../helpers/web-seed.ts";

// A real browser on a shared 2-core machine: generous, but bounded.
vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let creator: TestUser;
let writer: TestUser;
let other: TestUser;

setUpSharedSite(["creator_e2c", "writer_e2c", "other_e2c"], (started, users) => {
  site = started;
  [creator, writer, other] = users;
});

let hubId: number;
let hubName: string;
let chapterUrl: string;

beforeAll(async () => {
  const hub = await createHub(site.api, creator, { name: "Comment Corner", description: "Talk." });
  hubId = hub.id;
  hubName = hub.name;
  const series = await createSeriesWithChapter(site.api, creator, "Talking Panels", "Start", 120, false);
  chapterUrl = `/series/${encodeURIComponent(series.name)}/1`;
});

async function newPostUrl(title: string) {
  const post = await createPost(site.api, creator, hubId, { title, content: "A post to talk about." });
  return `/hubs/${encodeURIComponent(hubName)}/${post.id}`;
}

const commentLi = (page: Page, text: string) =>
  page
    .locator("li.comment")
    .filter({ has: page.locator(".comment__content", { hasText: text }) })
    .last();
/** The comment's own row of actions (not its replies'). */
const actionsOf = (page: Page, text: string) => commentLi(page, text).locator("> article .comment__actions");

async function signedIn(js: boolean, user: TestUser = writer) {
  const { page } = await site.newPage({ javaScript: js });
  await logIn(page, user.username, user.password);
  return page;
}

describe("with JavaScript", () => {
  it("comments, replies, likes, edits and deletes under a post without reloading the page", async () => {
    const url = await newPostUrl("Talk with scripts");
    const page = await signedIn(true);
    await page.goto(url);
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    expect(await page.locator("#comments-title").innerText()).toBe("0 comments");

    // Optimistic: the comment shows while the post is held.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (u) => u.pathname.endsWith(".data"),
      async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      },
    );
    await page.getByLabel("Add a comment").fill(`Great page, @${creator.username}!`);
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.locator(".comment--pending", { hasText: "Great page" }).waitFor();
    expect(await page.locator("#comments-title").innerText()).toBe("1 comment");
    release();
    await page.unrouteAll({ behavior: "wait" });
    await commentLi(page, "Great page").waitFor();
    expect(await page.getByLabel("Add a comment").inputValue()).toBe("");
    const mention = commentLi(page, "Great page").getByRole("link", { name: `@${creator.username}` });
    expect(await mention.getAttribute("href")).toBe(`/user/${creator.username}`);
    // The avatar's initial, then the name.
    expect(await commentLi(page, "Great page").locator(".comment__author").innerText()).toMatch(new RegExp(`\\n${writer.username}$`));
    expect(await commentLi(page, "Great page").locator(".comment__date").innerText()).toBe("just now");

    // Reply.
    await actionsOf(page, "Great page").locator("summary", { hasText: "Reply" }).click();
    await actionsOf(page, "Great page").getByLabel(`Reply to ${writer.username}`).fill("And a reply");
    await actionsOf(page, "Great page").getByRole("button", { name: "Post reply" }).click();
    await commentLi(page, "And a reply").waitFor();
    expect(await commentLi(page, "And a reply").evaluate((li) => li.classList.contains("comment--reply"))).toBe(true);
    await expect.poll(() => page.locator("#comments-title").innerText()).toBe("2 comments");

    // Like and unlike.
    const like = actionsOf(page, "Great page").locator(".like-button");
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
    expect(await like.innerText()).toContain("1 Like");
    await page.waitForLoadState("networkidle");
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("false");

    // Edit.
    await actionsOf(page, "Great page").locator("summary", { hasText: "Edit" }).click();
    await actionsOf(page, "Great page").getByLabel("Edit your comment").fill("Great page, edited");
    await actionsOf(page, "Great page").getByRole("button", { name: "Save" }).click();
    await commentLi(page, "Great page, edited").locator(".comment__edited").waitFor();

    // Delete the reply (gone), then the comment (a tombstone while it had replies: here none are left, so gone).
    await actionsOf(page, "And a reply").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.locator("li.comment", { hasText: "And a reply" }).count()).toBe(0);
    await actionsOf(page, "Great page, edited").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No comments yet.").waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it("shows the API's message next to the form and keeps the text", async () => {
    const url = await newPostUrl("Errors with scripts");
    const page = await signedIn(true);
    await page.goto(url);
    await hydrated(page);
    const long = "y".repeat(5001);
    await page.getByLabel("Add a comment").fill(long);
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.getByText("Comment must be less than 5000 characters").waitFor();
    expect(await page.getByLabel("Add a comment").inputValue()).toBe(long);
    expect(await page.getByLabel("Add a comment").getAttribute("aria-invalid")).toBe("true");
  });

  it("shows a new comment that the order in view would put on a later page", async () => {
    const url = await newPostUrl("A full first page");
    for (let i = 1; i <= 10; i++) await addComment(site.api, other, url, `Earlier comment ${i}`);
    const page = await signedIn(true);
    await page.goto(url);
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByLabel("Add a comment").fill("The eleventh");
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.waitForURL((u) => u.searchParams.get("csort") === "newest" && u.hash.startsWith("#comment-"));
    await expect.poll(() => page.locator(".comments__list > li .comment__content").first().innerText()).toBe("The eleventh");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it("loads more replies in place", async () => {
    const url = await newPostUrl("Many replies");
    const place = url;
    const top = await addComment(site.api, other, place, "Thread starter");
    for (let i = 1; i <= 5; i++) await addComment(site.api, other, place, `Answer number ${i}`, top.id);
    const { page } = await site.newPage();
    await page.goto(url);
    await hydrated(page);
    expect(await commentLi(page, "Thread starter").locator(".comment__replies > li").count()).toBe(3);
    await page.getByRole("link", { name: "Load more replies (2)" }).click();
    await commentLi(page, "Answer number 5").waitFor();
    expect(new URL(page.url()).search).toBe("");
    expect(await commentLi(page, "Thread starter").locator(".comment__replies > li").count()).toBe(5);
  });
});

describe("without JavaScript", () => {
  it("comments, replies, likes, edits and deletes under a chapter (a tombstone stays for the replies)", async () => {
    const page = await signedIn(false);
    await page.goto(`${chapterUrl}?page=1`);
    expect(await page.locator("#comments-title").innerText()).toMatch(/^\d+ comments?$/);

    await page.getByLabel("Add a comment").fill("Empty?");
    await page.getByLabel("Add a comment").fill("");
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.getByText("Comment cannot be empty").waitFor();

    await page.getByLabel("Add a comment").fill("Loved the **ending**");
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.waitForURL((u) => u.hash.startsWith("#comment-"));
    const id = new URL(page.url()).hash.slice("#comment-".length);
    expect(new URL(page.url()).searchParams.get("page")).toBe("1");
    expect(await page.locator(`#comment-${id} .comment__content strong`).innerText()).toBe("ending");

    // Someone answers; then a reply of ours, through the form.
    await addComment(site.api, other, chapterUrl, "Agreed!", Number(id));
    await page.reload();
    await actionsOf(page, "Loved the").locator("summary", { hasText: "Reply" }).click();
    await actionsOf(page, "Loved the").getByLabel(`Reply to ${writer.username}`).fill("Thanks!");
    await actionsOf(page, "Loved the").getByRole("button", { name: "Post reply" }).click();
    await page.waitForURL((u) => u.searchParams.get("replies") === id);
    await commentLi(page, "Thanks!").waitFor();

    await actionsOf(page, "Agreed!").locator(".like-button").click();
    await page.waitForURL((u) => u.hash.startsWith("#comment-"));
    expect(await actionsOf(page, "Agreed!").locator(".like-button").getAttribute("aria-pressed")).toBe("true");

    await actionsOf(page, "Loved the").locator("summary", { hasText: "Edit" }).click();
    await actionsOf(page, "Loved the").getByLabel("Edit your comment").fill("Loved the ending, really");
    await actionsOf(page, "Loved the").getByRole("button", { name: "Save" }).click();
    await page.waitForURL((u) => u.hash === `#comment-${id}`);
    await commentLi(page, "Loved the ending, really").locator(".comment__edited").waitFor();

    await actionsOf(page, "Loved the ending").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL((u) => u.hash === "#comments");
    const tombstone = page.locator(`#comment-${id}`);
    expect(await tombstone.locator("> article .comment__author").innerText()).toBe("[deleted]");
    expect(await tombstone.locator("> article .comment__content").count()).toBe(0);
    expect(await tombstone.locator(".comment__replies > li").count()).toBe(2);
  });

  it("comments on a post and follows the sort and paging links", async () => {
    const url = await newPostUrl("Talk without scripts");
    for (let i = 1; i <= 11; i++) await addComment(site.api, other, url, `Filler comment ${i}`);
    const page = await signedIn(false);
    await page.goto(`${url}?utm=kept`);
    expect(await page.locator("#comments-title").innerText()).toBe("11 comments");
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL((u) => u.searchParams.get("cpage") === "2" && u.searchParams.get("utm") === "kept");
    await expect.poll(() => page.locator(".comments__list > li .comment__content").allInnerTexts()).toEqual(["Filler comment 11"]);

    await page.getByRole("navigation", { name: "Sort comments" }).getByRole("link", { name: "Newest" }).click();
    await page.waitForURL((u) => u.searchParams.get("csort") === "newest" && !u.searchParams.has("cpage"));
    expect(await page.locator(".comments__list > li .comment__content").first().innerText()).toBe("Filler comment 11");

    await page.getByLabel("Add a comment").fill("Without scripts");
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.waitForURL((u) => u.hash.startsWith("#comment-") && u.searchParams.get("utm") === "kept");
    expect(await page.locator(".comments__list > li .comment__content").first().innerText()).toBe("Without scripts");
    expect(await page.locator("#comments-title").innerText()).toBe("12 comments");
  });

  it("loads more replies through a link", async () => {
    const url = await newPostUrl("Many replies, no scripts");
    const top = await addComment(site.api, other, url, "Long thread");
    for (let i = 1; i <= 4; i++) await addComment(site.api, other, url, `Reply ${i} here`, top.id);
    const { page } = await site.newPage({ javaScript: false });
    await page.goto(url);
    await page.getByRole("link", { name: "Load more replies (1)" }).click();
    await page.waitForURL((u) => u.searchParams.get("replies") === String(top.id) && u.hash === `#comment-${top.id}`);
    await expect.poll(() => commentLi(page, "Long thread").locator(".comment__replies > li").count()).toBe(4);
  });
});

describe("who sees what", () => {
  it("shows a guest the comments read-only, with a link to log in", async () => {
    const url = await newPostUrl("Read only");
    await addComment(site.api, other, url, "Visible to all");
    const { page } = await site.newPage();
    await page.goto(url);
    await hydrated(page);
    await commentLi(page, "Visible to all").waitFor();
    expect(await page.locator("#comments textarea").count()).toBe(0);
    expect(await page.locator("#comments summary").count()).toBe(0);
    expect(await page.locator("#comments").getByRole("button").count()).toBe(0);
    const login = page.getByRole("link", { name: "Log in to comment" });
    expect(await login.getAttribute("href")).toBe(`/login?redirectTo=${encodeURIComponent(`${url}#comments`)}`);
    await commentLi(page, "Visible to all").getByRole("link", { name: other.username }).click();
    await page.waitForURL((u) => u.pathname === `/user/${other.username}`);
  });

  it("lets the hub's creator delete others' comments, and not another member", async () => {
    const url = await newPostUrl("Moderated");
    await addComment(site.api, other, url, "Off topic");
    const page = await signedIn(true, creator);
    await page.goto(url);
    await hydrated(page);
    await actionsOf(page, "Off topic").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No comments yet.").waitFor();

    await addComment(site.api, other, url, "Still here");
    const stranger = await signedIn(true);
    await stranger.goto(url);
    expect(await actionsOf(stranger, "Still here").getByRole("button", { name: "Delete" }).count()).toBe(0);
  });

  it("has no serious accessibility violations on a post and a chapter with comments, signed in or not", async () => {
    const url = await newPostUrl("Accessible talk");
    const top = await addComment(site.api, other, url, `Nice work @${creator.username}`);
    await addComment(site.api, writer, url, "Thanks", top.id);
    const onChapter = await addComment(site.api, other, chapterUrl, "Lovely chapter");
    await addComment(site.api, writer, chapterUrl, "Yes", onChapter.id);
    const guest = (await site.newPage()).page;
    const member = await signedIn(true);
    for (const page of [guest, member]) {
      for (const where of [url, chapterUrl]) {
        await page.goto(where);
        await hydrated(page);
        const violations = await seriousAxeViolations(page);
        expect(violations, `${where}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
      }
    }
    // The reply and edit forms open, with an error showing.
    await member.goto(url);
    await hydrated(member);
    await actionsOf(member, "Thanks").locator("summary", { hasText: "Edit" }).click();
    await actionsOf(member, "Thanks").getByLabel("Edit your comment").fill("");
    await actionsOf(member, "Thanks").getByRole("button", { name: "Save" }).click();
    await member.getByText("Comment cannot be empty").waitFor();
    await actionsOf(member, "Nice work").locator("summary", { hasText: "Reply" }).click();
    const violations = await seriousAxeViolations(member);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });
});
