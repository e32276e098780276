// Removal by moderators in Chromium (docs/api.md "Removal", docs/web.md "Removal"): a moderator added to a hub removes a
// comment on one of its posts through the confirmation step with a reason (without JavaScript); a guest then sees
// exactly "Removed by moderators: {reason}" in its place, its author still sees the comment with that notice, and the
// moderator restores it. An admin removes and restores a chapter and a series from their pages (issue 14: the admin's
// Remove/Restore links, which the pages learn from the viewer's role).
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { setAdmin } from "../../scripts/admin.ts";
import type { TestUser } from "../helpers/api.ts";
import { addComment } from "../helpers/comments.ts";
import { logIn, setUpSharedSite, type Site } from "../helpers/site.ts";
import { createHub, createPost, createSeriesWithChapter } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let creator: TestUser;
let moderator: TestUser;
let writer: TestUser;
let admin: TestUser;

setUpSharedSite(["creator_rm", "moderator_rm", "writer_rm", "admin_rm"], (started, users) => {
  site = started;
  [creator, moderator, writer, admin] = users;
});

let postUrl: string;
let commentId: number;

beforeAll(async () => {
  const hub = await createHub(site.api, creator, { name: "Removal Room", description: "Moderated." });
  const added = await site.api.request.put(`/hubs/${hub.id}/moderators/${moderator.id}`).set(creator.auth);
  expect(added.status).toBe(200);
  const post = await createPost(site.api, creator, hub.id, { title: "House rules", content: "Be kind to each other here." });
  postUrl = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;
  commentId = (await addComment(site.api, writer, postUrl, "Buy cheap followers at example.com")).id;
});

describe("removing a comment", () => {
  it("a moderator removes it with a reason; a guest sees the reason in its place, the author the comment and the notice", async () => {
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, moderator.username, moderator.password);
    await page.goto(postUrl);
    await page
      .locator(`#comment-${commentId}`)
      .getByRole("link", { name: /^Remove the comment/ })
      .click();
    await page.waitForURL((u) => u.pathname === `/moderate/remove/comment/${commentId}`);
    await expect.poll(() => page.getByRole("heading", { name: "Remove this comment?" }).count()).toBe(1);

    // The reason is required.
    await page.getByRole("button", { name: "Remove comment" }).click();
    await page.getByText("A reason is required").waitFor();

    await page.getByLabel("Reason").fill("Spam links");
    await Promise.all([page.waitForURL((u) => u.pathname === postUrl), page.getByRole("button", { name: "Remove comment" }).click()]);
    // The moderator still sees the comment, with the notice and a way to restore it.
    const mine = page.locator(`#comment-${commentId}`);
    expect(await mine.getByText("Buy cheap followers").count()).toBe(1);
    expect(await mine.getByRole("link", { name: /^Restore the comment/ }).count()).toBe(1);

    const guest = (await site.newPage({ javaScript: false })).page;
    await guest.goto(postUrl);
    const removed = guest.locator(`#comment-${commentId}`);
    expect((await removed.locator(".comment__removed").innerText()).trim()).toBe("Removed by moderators: Spam links");
    expect(await removed.getByText("Buy cheap followers").count()).toBe(0);

    const author = (await site.newPage({ javaScript: false })).page;
    await logIn(author, writer.username, writer.password);
    await author.goto(postUrl);
    const own = author.locator(`#comment-${commentId}`);
    expect(await own.locator(".comment__content").getByText("Buy cheap followers").count()).toBe(1);
    expect(await own.getByText("Removed by moderators: Spam links").count()).toBe(1);

    // Restored: everyone sees it again.
    await mine.getByRole("link", { name: /^Restore the comment/ }).click();
    await page.getByLabel("Reason").fill("Checked: a real shop");
    await Promise.all([page.waitForURL((u) => u.pathname === postUrl), page.getByRole("button", { name: "Restore comment" }).click()]);
    await guest.goto(postUrl);
    await expect.poll(() => guest.locator(`#comment-${commentId}`).getByText("Buy cheap followers").count()).toBe(1);
    expect(await guest.getByText("Removed by moderators").count()).toBe(0);
  });
});

/** On `url`, follows the link `link` to the confirmation step, gives `reason` and confirms with `button`; back on `url`. */
async function confirmStep(page: Page, url: string, link: string, reason: string, button: string) {
  await page.goto(url);
  await page.getByRole("link", { name: link, exact: true }).click();
  await page.waitForURL((u) => u.pathname.startsWith("/moderate/"));
  await page.getByLabel("Reason").fill(reason);
  await Promise.all([page.waitForURL((u) => u.pathname === url), page.getByRole("button", { name: button }).click()]);
}

describe("an admin removing a chapter and a series", () => {
  it("finds Remove and Restore on the chapter's and the series' pages; guests see the reason while removed", async () => {
    const series = await createSeriesWithChapter(site.api, writer, "Admin Removal Serial", "Pilot", 200, false);
    const seriesUrl = `/series/${encodeURIComponent(series.name)}`;
    const chapterUrl = `${seriesUrl}/1`;
    expect((await setAdmin(site.api.db, admin.username, "grant")).ok).toBe(true);

    // Someone who is neither its author nor an admin gets no such links.
    const { page: other } = await site.newPage({ javaScript: false });
    await logIn(other, moderator.username, moderator.password);
    for (const [url, link] of [
      [chapterUrl, "Remove chapter"],
      [seriesUrl, "Remove series"],
    ] as const) {
      await other.goto(url);
      expect(await other.getByRole("link", { name: link, exact: true }).count(), url).toBe(0);
    }

    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, admin.username, admin.password);
    const guest = (await site.newPage({ javaScript: false })).page;

    await confirmStep(page, chapterUrl, "Remove chapter", "Traced art", "Remove chapter");
    // The admin still sees it, with the line and a way back.
    expect(await page.getByText("Removed by moderators: Traced art").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Restore chapter", exact: true }).count()).toBe(1);
    await guest.goto(chapterUrl);
    expect(await guest.getByText("Removed by moderators: Traced art", { exact: true }).count()).toBe(1);
    expect(await guest.getByRole("heading", { name: /Pilot/ }).count()).toBe(0);

    await confirmStep(page, seriesUrl, "Remove series", "Impersonation", "Remove series");
    expect(await page.getByRole("link", { name: "Restore series", exact: true }).count()).toBe(1);
    await guest.goto(seriesUrl);
    expect(await guest.getByText("Removed by moderators: Impersonation", { exact: true }).count()).toBe(1);
    expect(await guest.getByText(`${series.name}: a serial comic.`).count()).toBe(0);

    await confirmStep(page, chapterUrl, "Restore chapter", "Permission shown", "Restore chapter");
    await confirmStep(page, seriesUrl, "Restore series", "Cleared up", "Restore series");
    expect(await page.getByRole("link", { name: "Remove series", exact: true }).count()).toBe(1);
    await guest.goto(chapterUrl);
    expect(await guest.getByText("Removed by moderators").count()).toBe(0);
    expect(await guest.getByRole("heading", { name: /Pilot/ }).count()).toBeGreaterThan(0);
    await guest.goto(seriesUrl);
    expect(await guest.getByText("Removed by moderators").count()).toBe(0);
    expect(await guest.getByText(`${series.name}: a serial comic.`).count()).toBe(1);
  });
});
