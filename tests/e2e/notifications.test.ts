// The bell, the notifications screen and the following feed in Chromium (docs/api.md §11), with JavaScript (fetchers)
// and without (form posts and redirects): the bell's count goes up when someone replies or follows and down when a
// notification is opened, which lands on the comment's anchor or the series page; "Mark all read"; the feed after
// following a series and a new chapter (whose notification a job makes a moment after publishing); axe-core on both.
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { addComment } from "../helpers/comments.ts";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";
import { createHub, createPost, createSeriesWithChapter, upload } from "../helpers/web-seed.ts";

// A real browser on a shared 2-core machine: generous, but bounded.
vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let fan: TestUser;

setUpSharedSite(["fan_e2n"], (started, users) => {
  site = started;
  [fan] = users;
});

let runSeq = 0;

/** An artist of their own with a hub, a post (holding the artist's comment) and a series: each test starts from zero. */
async function artistWithWork(js: boolean) {
  const n = ++runSeq;
  const artist = await site.api.register(`artist_e2n${n}`);
  const hub = await createHub(site.api, artist, { name: `Bell Hub ${n}`, description: "Ring." });
  const post = await createPost(site.api, artist, hub.id, { title: `Bell post ${n}`, content: "Ring ring." });
  const postUrl = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;
  const comment = await addComment(site.api, artist, postUrl, `My own comment ${js ? "js" : "nojs"}`);
  const series = await createSeriesWithChapter(site.api, artist, `Bell Series ${n}`, "Start", 30 * n, false);
  return { artist, hub, postUrl, comment, series };
}

const bell = (page: Page) => page.locator("header a.bell");
const bellName = (page: Page) => bell(page).getAttribute("aria-label");
const badge = (page: Page) => page.locator("header .bell__badge");

async function signedIn(user: TestUser, js: boolean) {
  const { page } = await site.newPage({ javaScript: js });
  await logIn(page, user.username, user.password);
  if (js) await hydrated(page);
  return page;
}

async function follow(user: TestUser, seriesId: number) {
  const res = await site.api.request.post(`/user/${user.id}/followed-series/${seriesId}`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

describe.each([
  ["with JavaScript", true],
  ["without JavaScript", false],
])("%s", (_label, js) => {
  it("the bell counts replies and follows; opening one lands on the comment or the series and counts down; Mark all read", async () => {
    const { artist, postUrl, comment, series } = await artistWithWork(js);
    const page = await signedIn(artist, js);
    await page.goto("/");
    expect(await bellName(page)).toBe("Notifications, 0 unread");
    expect(await badge(page).count()).toBe(0);

    const replier = await site.api.register(`replier_e2n${runSeq}`);
    const reply = await addComment(site.api, replier, postUrl, "Lovely work!", comment.id);
    await page.reload();
    expect(await bellName(page)).toBe("Notifications, 1 unread");
    expect(await badge(page).innerText()).toBe("1");

    const follower = await site.api.register(`follower_e2n${runSeq}`);
    await follow(follower, series.id);
    await page.reload();
    expect(await bellName(page)).toBe("Notifications, 2 unread");

    await bell(page).click();
    await page.waitForURL((u) => u.pathname === "/notifications");
    if (js) await hydrated(page);
    await expect
      .poll(() => page.locator(".notification__sentence").allInnerTexts())
      .toEqual([`${follower.username} followed ${series.name}`, `${replier.username} replied to your comment on “Bell post ${runSeq}”`]);
    // Unread: marked for the eye and, in words, for screen readers.
    expect(await page.locator(".notification--unread").count()).toBe(2);
    expect(await page.locator(".notification--unread .visually-hidden").allInnerTexts()).toEqual(["Unread:", "Unread:"]);
    expect(await page.locator(".notification time").first().innerText()).toBe("just now");

    // The reply: onto the comment's anchor, and the bell counts down (with JavaScript, without leaving the document).
    if (js) await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole("button", { name: new RegExp(`${replier.username} replied to your comment`) }).click();
    await page.waitForURL((u) => u.pathname === postUrl && u.hash === `#comment-${reply.id}`);
    await page.locator(`#comment-${reply.id}`).waitFor();
    await expect.poll(() => bellName(page), { timeout: 10_000 }).toBe("Notifications, 1 unread");
    if (js) expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Read ones are plain links; the follow: onto the series page.
    await page.goto("/notifications");
    if (js) await hydrated(page);
    expect(await page.locator(".notification--unread").count()).toBe(1);
    await page.getByRole("button", { name: new RegExp(`${follower.username} followed`) }).click();
    await page.waitForURL((u) => u.pathname === `/series/${encodeURIComponent(series.name)}`);
    await expect.poll(() => bellName(page), { timeout: 10_000 }).toBe("Notifications, 0 unread");
    expect(await badge(page).count()).toBe(0);

    // Two more, then "Mark all read" (and the "Unread only" filter).
    const joiner = await site.api.register(`joiner_e2n${runSeq}`);
    await addComment(site.api, joiner, postUrl, "Another reply", comment.id);
    await follow(joiner, series.id);
    await page.goto("/notifications");
    if (js) await hydrated(page);
    expect(await bellName(page)).toBe("Notifications, 2 unread");
    await page.getByRole("link", { name: "Unread only" }).click();
    await page.waitForURL((u) => u.search === "?unread=true");
    await expect.poll(() => page.locator(".notification").count(), { timeout: 10_000 }).toBe(2);
    await page.getByRole("button", { name: "Mark all read" }).click();
    await expect.poll(() => bellName(page), { timeout: 10_000 }).toBe("Notifications, 0 unread");
    await page.locator(".notice", { hasText: "No notifications yet." }).waitFor();
    expect(new URL(page.url()).search).toBe("?unread=true");
    await page.getByRole("link", { name: "All", exact: true }).click();
    await page.waitForURL((u) => u.search === "");
    await expect.poll(() => page.locator(".notification").count(), { timeout: 10_000 }).toBe(4);
    expect(await page.locator(".notification--unread").count()).toBe(0);
  });
});

describe("the feed", () => {
  it("is empty at first, then shows a followed series' new chapter (and the bell tells of it a moment later)", async () => {
    const artist = await site.api.register("artist_e2n_feed");
    const series = await createSeriesWithChapter(site.api, artist, "Feed Tides", "Start", 200, false);
    const page = await signedIn(fan, true);
    await page.goto("/feed");
    await page.getByRole("heading", { level: 1, name: "From what you follow" }).waitFor();
    await page.locator(".notice", { hasText: "Follow series and join hubs" }).waitFor();
    expect(await page.getByRole("link", { name: "series", exact: true }).getAttribute("href")).toBe("/series");
    expect(await page.getByRole("link", { name: "hubs", exact: true }).getAttribute("href")).toBe("/hubs");
    expect(await page.locator("header nav").getByRole("link", { name: "Feed" }).getAttribute("href")).toBe("/feed");

    await follow(fan, series.id);
    const pageImage = await upload(site.api, artist, 60, 90, 210);
    const published = await site.api.request
      .post(`/series/${encodeURIComponent(series.name)}/chapters`)
      .set(artist.auth)
      .send({ title: "High Water", pages: [pageImage] });
    expect(published.status, JSON.stringify(published.body)).toBe(201);

    await page.reload();
    const items = page.locator(".feed-list__item");
    expect(await items.count()).toBe(2);
    expect(await items.first().innerText()).toContain("New chapter in Feed Tides");
    await items.first().getByRole("link", { name: "Chapter 2: High Water" }).waitFor();

    // The home page's strip: the same, and a link to the feed.
    await page.goto("/");
    const strip = page.locator(".home-feed");
    await strip.getByRole("heading", { name: "From what you follow" }).waitFor();
    await strip.getByRole("link", { name: "Chapter 2: High Water" }).waitFor();
    expect(await strip.getByRole("link", { name: "See your feed" }).getAttribute("href")).toBe("/feed");

    // The chapter's notification comes from a job just after publishing: look again until it is there (bounded).
    const sentence = "New chapter: Feed Tides – Chapter 2: High Water";
    const deadline = Date.now() + 15_000;
    for (;;) {
      await page.goto("/notifications");
      if ((await page.locator(".notification", { hasText: sentence }).count()) > 0) break;
      if (Date.now() > deadline) throw new Error("no chapter notification within 15 s");
      await page.waitForTimeout(300);
    }
    await hydrated(page);
    await page.getByRole("button", { name: new RegExp(sentence) }).click();
    await page.waitForURL((u) => u.pathname === "/series/Feed%20Tides/2");
  });

  it("without JavaScript the feed pages with links", async () => {
    const artist = await site.api.register("artist_e2n_pages");
    const hub = await createHub(site.api, artist, { name: "Paged Feed Hub", description: "Many posts." });
    const reader = await site.api.register("reader_e2n_pages");
    const joined = await site.api.request.post(`/user/${reader.id}/member-hubs/${hub.id}`).set(reader.auth);
    expect(joined.status).toBeLessThan(300);
    for (let i = 1; i <= 12; i++)
      await createPost(site.api, artist, hub.id, { title: `Feed post ${i}`, content: "Some text for the feed." });
    const page = await signedIn(reader, false);
    await page.goto("/feed");
    expect(await page.locator(".feed-list__item").count()).toBe(10);
    expect(await page.locator(".feed-list__item").first().innerText()).toContain("Feed post 12");
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL((u) => u.search === "?page=2");
    await expect
      .poll(() => page.locator(".feed-list__item").allInnerTexts())
      .toEqual([expect.stringContaining("Feed post 2"), expect.stringContaining("Feed post 1")]);
  });
});

describe("accessibility", () => {
  it("/notifications and /feed have no serious axe-core violations, at phone and desktop widths", async () => {
    for (const width of [375, 1280]) {
      const { page } = await site.newPage({ width });
      await logIn(page, fan.username, fan.password);
      for (const url of ["/notifications", "/notifications?unread=true", "/feed", "/"]) {
        await page.goto(url);
        expect(await seriousAxeViolations(page), `${url} at ${width}px`).toEqual([]);
      }
    }
  });
});
