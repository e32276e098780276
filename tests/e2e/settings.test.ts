// /settings in Chromium (docs/api.md §12): a password change in one browser keeps that browser signed in and sends
// another browser of the same user to /login on its next page; "Log out everywhere" after its confirmation step,
// without JavaScript; axe-core on the page and on its confirmation step.
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

let seq = 0;
const newUser = () => site.api.register(`settings_e2e${++seq}`);

async function signedIn(username: string, password: string, js = true) {
  const { page } = await site.newPage({ javaScript: js });
  await logIn(page, username, password);
  if (js) await hydrated(page);
  return page;
}

const onLoginPage = (page: Page) => new URL(page.url()).pathname === "/login";

describe("settings", () => {
  it("a password change keeps this browser signed in and ends the other browser's session", async () => {
    const user = await newUser();
    const laptop = await signedIn(user.username, user.password);
    const phone = await signedIn(user.username, user.password);

    await laptop.goto("/settings");
    await hydrated(laptop);
    expect(await laptop.getByText(`Now: ${user.email}`).count()).toBe(1);
    await laptop.locator("#settings-current-password").fill(user.password);
    await laptop.getByLabel("New password").fill("fresh-password-1");
    await laptop.getByRole("button", { name: "Change password" }).click();
    await laptop.getByText("Password changed.").waitFor();

    // This browser: still signed in, with the new token in its cookie.
    await laptop.goto("/settings");
    expect(new URL(laptop.url()).pathname).toBe("/settings");
    expect(await laptop.getByRole("heading", { name: "Settings" }).count()).toBe(1);
    // The other browser: its next page sends it to the login page.
    await phone.goto("/feed");
    await phone.waitForURL((u) => u.pathname === "/login");
    expect(onLoginPage(phone)).toBe(true);
    await logIn(phone, user.username, "fresh-password-1", phone.url());
    expect(onLoginPage(phone)).toBe(false);
  });

  it("a wrong current password is shown on its field", async () => {
    const user = await newUser();
    const page = await signedIn(user.username, user.password);
    await page.goto("/settings");
    await hydrated(page);
    await page.locator("#settings-current-password").fill("not-my-password");
    await page.getByLabel("New password").fill("fresh-password-1");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.locator("#settings-current-password-error").waitFor();
    expect(await page.locator("#settings-current-password-error").innerText()).toBe("Current password is incorrect");
    expect(await page.locator("#settings-current-password").getAttribute("aria-invalid")).toBe("true");
  });

  it("log out everywhere asks first, then ends every session (without JavaScript)", async () => {
    const user = await newUser();
    const page = await signedIn(user.username, user.password, false);
    const other = await signedIn(user.username, user.password, false);
    await page.goto("/settings");
    await page.getByRole("link", { name: "Log out everywhere..." }).click();
    await page.waitForURL((u) => u.searchParams.get("confirm") === "logout-all");
    await expect.poll(() => page.getByText("Log out on every device and browser, this one included?").count()).toBe(1);

    await Promise.all([page.waitForURL((u) => u.pathname === "/login"), page.getByRole("button", { name: "Log out everywhere" }).click()]);

    await other.goto("/settings");
    expect(onLoginPage(other)).toBe(true);
    await page.goto("/settings");
    expect(onLoginPage(page)).toBe(true);
  });

  it("has a settings link in the header and no serious axe violations, confirmation step included", async () => {
    const user = await newUser();
    const page = await signedIn(user.username, user.password);
    await page.goto("/");
    await page.locator("header").getByRole("link", { name: "Settings", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/settings");
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto("/settings?confirm=logout-all");
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
