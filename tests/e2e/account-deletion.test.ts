// Deleting an account in Chromium (docs/web.md, docs/api.md "Deleting an account"): /settings links to a confirmation page that says
// what goes and what stays and asks for the password; a wrong one is shown on its field; the right one deletes the
// account (without JavaScript too), signs the browser out onto the home page with a notice, and the login fails.
import { describe, expect, it, vi } from "vitest";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

let seq = 0;
const newUser = () => site.api.register(`leaving_e2e${++seq}`);

describe("account deletion", () => {
  it("asks for the password on its own page, then deletes the account and the login fails", async () => {
    const user = await newUser();
    const { page } = await site.newPage();
    await logIn(page, user.username, user.password);
    await page.goto("/settings");
    await hydrated(page);
    await page.getByRole("link", { name: "Delete account..." }).click();
    await page.waitForURL((u) => u.pathname === "/settings/delete");
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { name: "What goes" }).count()).toBe(1);
    expect(await page.getByRole("heading", { name: "What stays" }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel("Password", { exact: true }).fill("not-my-password");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.locator("#delete-account-password-error").waitFor();
    expect(await page.locator("#delete-account-password-error").innerText()).toBe("Current password is incorrect");
    expect((await site.api.request.get(`/user/id/${user.id}`)).status).toBe(200);

    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.getByRole("button", { name: "Delete my account" }).click()]);
    await expect.poll(() => page.getByText("Your account was deleted.").count()).toBe(1);
    // Signed out: the header offers the login again.
    expect(await page.locator("header").getByRole("link", { name: "Login" }).count()).toBeGreaterThan(0);
    expect((await site.api.request.get(`/user/id/${user.id}`)).status).toBe(404);

    await page.goto("/login");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.locator(".form-error, [role=alert]").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("works without JavaScript, and Cancel goes back to the settings", async () => {
    const user = await newUser();
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, user.username, user.password);
    await page.goto("/settings/delete");
    await Promise.all([page.waitForURL((u) => u.pathname === "/settings"), page.getByRole("link", { name: "Cancel" }).click()]);
    expect((await site.api.request.get(`/user/id/${user.id}`)).status).toBe(200);

    await page.goto("/settings/delete");
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.getByRole("button", { name: "Delete my account" }).click()]);
    await expect.poll(() => page.getByText("Your account was deleted.").count()).toBe(1);
    expect((await site.api.request.get(`/user/id/${user.id}`)).status).toBe(404);
  });
});
