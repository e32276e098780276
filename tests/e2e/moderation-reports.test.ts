// Reports in Chromium (docs/api.md "Reports", docs/web.md "Reports" and "Moderation"), without JavaScript: a reader reports a
// comment on a hub post (reason from a list, a note, a thank-you), the hub's added moderator opens /moderation, removes
// the comment with a reason, and finds the entry in the hub's mod log; someone with nothing to moderate gets a message.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { addComment } from "../helpers/comments.ts";
import { logIn, setUpSharedSite, type Site } from "../helpers/site.ts";
import { createHub, createPost } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let creator: TestUser;
let moderator: TestUser;
let writer: TestUser;
let reader: TestUser;

setUpSharedSite(["creator_rp", "moderator_rp", "writer_rp", "reader_rp"], (started, users) => {
  site = started;
  [creator, moderator, writer, reader] = users;
});

let hubName: string;
let postUrl: string;
let commentId: number;

beforeAll(async () => {
  const hub = await createHub(site.api, creator, { name: "Report Room", description: "Moderated." });
  hubName = hub.name;
  const added = await site.api.request.put(`/hubs/${hub.id}/moderators/${moderator.id}`).set(creator.auth);
  expect(added.status).toBe(200);
  const post = await createPost(site.api, creator, hub.id, { title: "Welcome thread", content: "Say hello." });
  postUrl = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;
  commentId = (await addComment(site.api, writer, postUrl, "You are all idiots, go away")).id;
});

describe("reporting and resolving", () => {
  it("a reader reports a comment; the hub's moderator removes it from /moderation; the hub's mod log shows it", async () => {
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, reader.username, reader.password);
    await page.goto(postUrl);
    await page
      .locator(`#comment-${commentId}`)
      .getByRole("link", { name: /^Report the comment/ })
      .click();
    await page.waitForURL((u) => u.pathname === `/report/comment/${commentId}`);
    await expect.poll(() => page.getByRole("heading", { name: "Report this comment" }).count()).toBe(1);

    // A reason must be chosen.
    await page.getByRole("button", { name: "Send report" }).click();
    await page.getByText("Choose why you are reporting it").waitFor();

    await page.getByLabel("Harassment, bullying or hate").check();
    await page.getByLabel(/Anything the moderators should know/).fill("Insults everyone in the thread");
    await page.getByRole("button", { name: "Send report" }).click();
    await page.getByText("Thanks, the moderators will look at it.").waitFor();
    await Promise.all([page.waitForURL((u) => u.pathname === postUrl), page.getByRole("link", { name: "Back" }).click()]);

    // The moderator's queue.
    const mod = (await site.newPage({ javaScript: false })).page;
    await logIn(mod, moderator.username, moderator.password);
    await mod.goto("/moderation");
    const item = mod.locator(".report").filter({ hasText: "You are all idiots" });
    expect(await item.count()).toBe(1);
    expect(await item.getByText("Harassment, bullying or hate").count()).toBe(1);
    expect(await item.getByText("Insults everyone in the thread").count()).toBe(1);
    expect(await item.getByRole("link", { name: reader.username }).count()).toBe(1);

    // The reason is required (the form is the confirmation step).
    await item.getByRole("button", { name: "Remove comment" }).click();
    await mod.getByText("A reason is required").waitFor();
    const again = mod.locator(".report").filter({ hasText: "You are all idiots" });
    await again.getByLabel(/^Reason/).fill("Personal attacks");
    await again.getByRole("button", { name: "Remove comment" }).click();
    await mod.getByText("Removed, and the report resolved.").waitFor();
    expect(await mod.getByText("No open reports. All clear.").count()).toBe(1);

    await mod.getByRole("link", { name: "Resolved" }).click();
    await mod.waitForURL((u) => u.searchParams.get("status") === "resolved");
    const resolved = mod.locator(".report").filter({ hasText: "You are all idiots" });
    await expect.poll(() => resolved.getByText(/Removed by moderator_rp/).count()).toBe(1);

    // The hub's mod log.
    await mod.goto(`/hubs/${encodeURIComponent(hubName)}/modlog`);
    expect(await mod.getByText("Personal attacks").count()).toBeGreaterThan(0);
    // The public log names the comment by its number, never by its words (docs/web.md "Hub mod log").
    expect(await mod.getByTestId("modlog").getByText(`#${commentId}`).count()).toBeGreaterThan(0);
    expect(await mod.getByTestId("modlog").getByText("You are all idiots").count()).toBe(0);

    // A guest sees the comment removed.
    const guest = (await site.newPage({ javaScript: false })).page;
    await guest.goto(postUrl);
    expect(await guest.locator(`#comment-${commentId}`).getByText("You are all idiots").count()).toBe(0);
  });

  it("shows no Report link on one's own comment, and a plain message on /moderation to those with nothing to moderate", async () => {
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, reader.username, reader.password);
    const own = (await addComment(site.api, reader, postUrl, "My own words")).id;
    await page.goto(postUrl);
    expect(
      await page
        .locator(`#comment-${own}`)
        .getByRole("link", { name: /^Report/ })
        .count(),
    ).toBe(0);
    await page.goto("/moderation");
    expect(await page.getByText("You have nothing to moderate.", { exact: false }).count()).toBe(1);
  });
});
