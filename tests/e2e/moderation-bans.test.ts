// Hub bans in Chromium (docs/api.md "Bans, suspensions and the mod log"): a moderator bans a member from the hub's bans page without JavaScript, the
// hub's public mod log shows it, the banned member's post is refused with the API's words, and lifting the ban asks
// first.
import { describe, expect, it, vi } from "vitest";
import { setAdmin } from "../../scripts/admin.ts";
import type { TestUser } from "../helpers/api.ts";
import { createHub, joinHub } from "../helpers/fixtures.ts";
import { hydrated, logIn, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site, moderator: TestUser, member: TestUser, admin: TestUser, target: TestUser;
setUpSharedSite(["bans_mod_e2e", "bans_member_e2e", "bans_admin_e2e", "bans_target_e2e"], (started, users) => {
  site = started;
  [moderator, member, admin, target] = users;
});

describe("hub bans in the browser", () => {
  it("a moderator bans a member; the mod log shows it; the member's post is refused; lifting asks first", async () => {
    const hub = await createHub(site.api, moderator);
    await joinHub(site.api, member, hub.id);
    const hubUrl = `/hubs/${encodeURIComponent(hub.name)}`;

    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, moderator.username, moderator.password);
    await page.goto(hubUrl);
    await Promise.all([
      page.waitForURL((u) => u.pathname.endsWith("/bans")),
      page.getByRole("link", { name: "Bans", exact: true }).click(),
    ]);
    expect(await page.getByText("Nobody is banned from this hub.").count()).toBe(1);
    await page.getByLabel("Username").fill(member.username);
    await page.getByLabel("Reason").fill("Spam links");
    await page.getByLabel("Days").fill("3");
    await Promise.all([page.waitForURL((u) => u.searchParams.has("banned")), page.getByRole("button", { name: "Ban user" }).click()]);
    await expect.poll(() => page.getByText(`${member.username} is banned from this hub.`).count()).toBe(1);
    expect(await page.getByTestId("ban-list").innerText()).toContain("Spam links");

    // The public mod log, as a guest.
    const guest = (await site.newPage({ javaScript: false })).page;
    await guest.goto(hubUrl);
    await Promise.all([guest.waitForURL((u) => u.pathname.endsWith("/modlog")), guest.getByRole("link", { name: "Mod log" }).click()]);
    const entry = guest.getByTestId("modlog").locator("li").first();
    expect(await entry.innerText()).toContain(`${moderator.username} banned ${member.username}`);
    expect(await entry.innerText()).toContain("Reason: Spam links");

    // The member tries to post there and reads why not.
    const banned = (await site.newPage()).page;
    await logIn(banned, member.username, member.password);
    await banned.goto(`/publish/post?hubId=${hub.id}`);
    await hydrated(banned);
    await banned.getByLabel("Title").fill("Buy my stuff");
    await banned.getByLabel("Content").fill("Cheap things for sale here.");
    await banned.getByRole("button", { name: "Publish post" }).click();
    await banned.getByText("You are banned from this hub").first().waitFor();

    // Lifting: a confirmation step, then the list is empty and the log has both entries.
    await page.getByRole("link", { name: `Lift the ban of ${member.username}` }).click();
    await page.waitForURL((u) => u.searchParams.has("unban"));
    await expect.poll(() => page.getByRole("heading", { name: `Lift the ban of ${member.username}?` }).count()).toBe(1);
    await Promise.all([page.waitForURL((u) => u.searchParams.has("unbanned")), page.getByRole("button", { name: "Lift ban" }).click()]);
    await expect.poll(() => page.getByText("Nobody is banned from this hub.").count()).toBe(1);
    await guest.reload();
    expect(await guest.getByTestId("modlog").locator("li").first().innerText()).toContain(`lifted the ban of ${member.username}`);
  });

  it("an admin suspends an account from its profile (without JavaScript); its login says so; lifting lets it back", async () => {
    expect((await setAdmin(site.api.db, admin.username, "grant")).ok).toBe(true);
    site.api.dataChanged();
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, admin.username, admin.password);
    await page.goto(`/user/${target.username}`);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/suspend")), page.getByRole("link", { name: "Suspend" }).click()]);
    await expect.poll(() => page.getByRole("heading", { name: `Suspend ${target.username}?` }).count()).toBe(1);
    await page.getByLabel("Reason").fill("Harassment");
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get("done") === "suspended"),
      page.getByRole("button", { name: "Suspend account" }).click(),
    ]);
    expect(await page.getByRole("heading", { name: `${target.username} is suspended` }).count()).toBe(1);
    expect(await page.getByText("No end. Reason: Harassment").count()).toBe(1);

    const other = (await site.newPage({ javaScript: false })).page;
    await other.goto("/login");
    await other.getByLabel("Username").fill(target.username);
    await other.getByLabel("Password").fill(target.password);
    await other.getByRole("button", { name: "Login" }).click();
    await other.getByText("This account is suspended").waitFor();

    await page.goto("/modlog");
    expect(await page.getByTestId("modlog").locator("li").first().innerText()).toContain(`${admin.username} suspended ${target.username}`);

    await page.goto(`/user/${target.username}/suspend`);
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get("done") === "lifted"),
      page.getByRole("button", { name: "Lift suspension" }).click(),
    ]);
    await logIn(other, target.username, target.password);
    expect(new URL(other.url()).pathname).not.toBe("/login");
  });
});
