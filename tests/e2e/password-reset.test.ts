// Password reset in Chromium (docs/web.md "Password reset"), end to end without JavaScript: "Forgot your password?" on
// /login, the request, the mail written to DATA_DIR/outbox (SMTP_URL unset), its link opened, the new password typed
// twice, signed in at home; the old password refused after. axe-core on each screen (with scripts: axe runs as one).
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { resetTokenIn, waitForOutboxMail } from "../helpers/mail.ts";
import { logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

let seq = 0;
const newUser = () => site.api.register(`reset_e2e${++seq}`);
const SENT = "If an Inkwell account matches what you typed, we have sent a link to its email address. The link works for 60 minutes.";

async function askForLink(page: Page, login: string) {
  await page.goto("/login");
  await Promise.all([
    page.waitForURL((u) => u.pathname === "/forgot-password"),
    page.getByRole("link", { name: "Forgot your password?" }).click(),
  ]);
  await page.getByLabel("Username or email").fill(login);
  await page.getByRole("button", { name: "Send the link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  expect(await page.getByRole("status").innerText()).toBe(SENT);
}

/** The path of the reset link in the newest reset mail to `email`. */
async function mailedPath(email: string, count = 1): Promise<string> {
  const mails = await waitForOutboxMail(site.api.dataDir, email, count, "Reset your Inkwell password");
  return `/reset-password?token=${resetTokenIn(mails.at(-1)!)}`;
}

describe("password reset", () => {
  it("works end to end without JavaScript: link by email, new password twice, signed in at home", async () => {
    const user = await newUser();
    const { page } = await site.newPage({ javaScript: false });

    // An unknown name gets the very same screen.
    await askForLink(page, "nobody_by_that_name");
    await askForLink(page, user.email.toUpperCase());
    const path = await mailedPath(user.email);

    await page.goto(path);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password", { exact: true }).fill("a-new-password");
    await page.getByLabel("New password again").fill("not-the-same");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await page.getByText("The two passwords are not the same").waitFor();

    await page.getByLabel("New password", { exact: true }).fill("a-new-password");
    await page.getByLabel("New password again").fill("a-new-password");
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.getByRole("button", { name: "Set the new password" }).click()]);

    // Signed in: the settings page opens as this user.
    await page.goto("/settings");
    expect(new URL(page.url()).pathname).toBe("/settings");
    await page.getByText(`@${user.username}`).first().waitFor();

    // The link is used: its page says so and offers a new one.
    await page.goto(path);
    await page.getByLabel("New password", { exact: true }).fill("third-password");
    await page.getByLabel("New password again").fill("third-password");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await page.getByText("This reset link is invalid or has expired. Ask for a new one.").waitFor();
    await page.getByRole("link", { name: "Ask for a new link" }).waitFor();

    // The old password no longer signs in; the new one does.
    const fresh = (await site.newPage({ javaScript: false })).page;
    await fresh.goto("/login");
    await fresh.getByLabel("Username").fill(user.username);
    await fresh.getByLabel("Password").fill(user.password);
    await fresh.getByRole("button", { name: "Login" }).click();
    await fresh.getByText("Invalid credentials").waitFor();
    await logIn(fresh, user.username, "a-new-password");
    expect(new URL(fresh.url()).pathname).toBe("/");
  });

  it("passes axe-core on every screen", async () => {
    const user = await newUser();
    const { page } = await site.newPage();
    await page.goto("/forgot-password");
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // An empty submit: the field's error.
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText("Username or email is required").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await askForLink(page, user.username);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto(await mailedPath(user.email));
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto("/reset-password");
    await page.getByRole("link", { name: "Ask for a new link" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
