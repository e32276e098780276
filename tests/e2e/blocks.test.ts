// Blocks in Chromium (docs/web.md "Blocks"): blocking from a profile after its confirmation step, the blocked user's
// comment and reply leaving a post with the "hidden" lines and their "Show them" links, the blocked user's profile
// saying it is not filtered, and unblocking from /settings; without JavaScript (plain forms and links), and axe-core
// on the new states.
import { describe, expect, it, vi } from "vitest";
import { addComment, newPost } from "../helpers/comments.ts";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

describe("blocks", () => {
  it("blocks from the profile, hides the comment with a line to show it, and unblocks from settings", async () => {
    const blocker = await site.api.register(`blocker_e2e_${process.pid}`);
    const blocked = await site.api.register(`blocked_e2e_${process.pid}`);
    const { path } = await newPost(site.api, blocker);
    const mine = await addComment(site.api, blocker, path, "My own comment");
    await addComment(site.api, blocked, path, "A comment from the person I block");
    await addComment(site.api, blocked, path, "A reply from the person I block", mine.id);

    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, blocker.username, blocker.password);

    // The profile's Block link asks first.
    await page.goto(`/user/${blocked.username}`);
    await page.getByRole("link", { name: "Block", exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/user/${blocked.username}/block`);
    await expect.poll(() => page.getByRole("heading", { name: `Block ${blocked.username}?` }).count()).toBe(1);
    await Promise.all([
      page.waitForURL((u) => u.pathname === `/user/${blocked.username}`),
      page.getByRole("button", { name: `Block ${blocked.username}` }).click(),
    ]);
    expect(await page.getByRole("button", { name: "Unblock" }).count()).toBe(1);
    // Their profile is not filtered (decision 018), and says what the block does.
    expect(await page.getByTestId("blocked-profile").innerText()).toContain(`You blocked @${blocked.username}`);

    // Their comment is gone from the post, with a line that shows it again.
    await page.goto(path);
    // (The author sees their own comment twice: rendered, and as the markdown of its edit form.)
    expect(await page.getByText("My own comment").count()).toBeGreaterThan(0);
    expect(await page.getByText("A comment from the person I block").count()).toBe(0);
    expect(await page.getByText("1 comment hidden from people you blocked.").count()).toBe(1);
    // Their reply in my thread too, with its own line under the thread.
    const thread = page.locator(`#comment-${mine.id}`);
    expect(await page.getByText("A reply from the person I block").count()).toBe(0);
    expect(await thread.getByText("1 reply hidden from people you blocked.").count()).toBe(1);
    await thread.locator(".hidden-by-blocks").getByRole("link", { name: "Show them" }).click();
    await page.waitForURL((u) => u.searchParams.get("showBlocked") === "1");
    await expect.poll(() => page.getByText("A reply from the person I block").count()).toBe(1);
    expect(await page.getByText("hidden from people you blocked", { exact: false }).count()).toBe(0);
    await page.goto(path);
    await page.locator("#comments > .hidden-by-blocks").getByRole("link", { name: "Show them" }).click();
    await page.waitForURL((u) => u.searchParams.get("showBlocked") === "1");
    await expect.poll(() => page.getByText("A comment from the person I block").count()).toBe(1);
    await expect.poll(() => page.getByText("Showing comments from people you blocked.").count()).toBe(1);

    // The new states, with scripts (axe-core runs in the page): the hidden line, the list in settings, the block page.
    const { page: withJs } = await site.newPage();
    await logIn(withJs, blocker.username, blocker.password);
    for (const url of [path, `${path}?showBlocked=1`, "/settings", `/user/${blocked.username}/block`, `/user/${blocked.username}`]) {
      await withJs.goto(url);
      await hydrated(withJs);
      expect(await seriousAxeViolations(withJs), url).toEqual([]);
    }

    // Settings lists them; Unblock brings the comment back.
    await page.goto("/settings");
    const section = page.locator("#blocked");
    expect(await section.getByRole("link", { name: `@${blocked.username}` }).count()).toBe(1);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/settings"),
      section.getByRole("button", { name: `Unblock ${blocked.username}` }).click(),
    ]);
    expect(await page.locator("#blocked").getByText("You have not blocked anyone.", { exact: false }).count()).toBe(1);
    await page.goto(path);
    expect(await page.getByText("A comment from the person I block").count()).toBe(1);
    expect(await page.getByText("hidden from people you blocked", { exact: false }).count()).toBe(0);
  });
});
