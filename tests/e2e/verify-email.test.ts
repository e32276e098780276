// Verified email addresses in Chromium (docs/web.md "Verified email addresses"), without JavaScript: the settings
// page's notice and "Send the link again", the mailed link (DATA_DIR/outbox, SMTP_URL unset) opened, its button
// pressed; an email change waiting for its link, then taking effect. axe-core on each screen (with scripts: axe runs
// as one).
import type { ParsedMail } from "mailparser";
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { waitForOutboxMail } from "../helpers/mail.ts";
import { logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

let seq = 0;
const newUser = () => site.api.register(`verify_e2e${++seq}`);

/** The path of the verification link in a message (the API's PUBLIC_URL is not this site's origin). */
function linkPath(mail: ParsedMail): string {
  const match = /https?:\/\/[^/\s]+(\/verify-email\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? "");
  if (!match) throw new Error(`no verification link in: ${mail.text}`);
  return match[1]!;
}

/** Whether the API says the user's address is verified, and the change that waits. */
const state = async (user: { username: string; auth: { Authorization: string } }) =>
  (await site.api.request.get(`/user/${user.username}`).set(user.auth)).body as {
    email: string;
    emailVerified: boolean;
    pendingEmail: string | null;
  };

async function axeClean(page: Page, path: string) {
  const { page: withScripts } = await site.newPage();
  for (const cookie of await page.context().cookies()) await withScripts.context().addCookies([cookie]);
  await withScripts.goto(path);
  expect(await seriousAxeViolations(withScripts), path).toEqual([]);
}

describe("verified email addresses", () => {
  it("the settings notice sends a new link; the link's page verifies only when its button is pressed", async () => {
    const user = await newUser();
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, user.username, user.password);

    await page.goto("/settings");
    await page.getByText("Your email address is not verified yet.").waitFor();
    await axeClean(page, "/settings");
    await page.getByRole("button", { name: "Send the link again" }).click();
    await page.getByText(`We sent a new link to ${user.email}.`).waitFor();

    const mails = await waitForOutboxMail(site.api.dataDir, user.email, 2, "Verify your email address on Inkwell");
    const path = linkPath(mails[1]!);
    await page.goto(path);
    await page.getByRole("heading", { name: "Verify your email address" }).waitFor();
    await axeClean(page, path);
    // Opening the link used nothing (a mail scanner fetching it would not either).
    expect((await state(user)).emailVerified).toBe(false);

    await page.getByRole("button", { name: "Verify my email address" }).click();
    await page.getByRole("heading", { name: "Email address verified" }).waitFor();
    expect((await state(user)).emailVerified).toBe(true);

    await page.goto("/settings");
    await page.getByText(`Now: ${user.email} (verified)`).waitFor();
    expect(await page.getByText("Your email address is not verified yet.").count()).toBe(0);
    // The link is used: a second press says so.
    await page.goto(path);
    await page.getByRole("button", { name: "Verify my email address" }).click();
    await page.getByText("This link is invalid or has expired").waitFor();
  });

  it("a changed email waits for its link, then takes effect", async () => {
    const user = await newUser();
    const newEmail = `moved_${user.username}@example.org`;
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, user.username, user.password);

    await page.goto("/settings");
    await page.getByLabel("New email").fill(newEmail);
    await page.locator("#settings-email-password").fill(user.password);
    await page.getByRole("button", { name: "Change email" }).click();
    await page.getByText(`We sent a link to ${newEmail}. Your email changes once you open it.`).waitFor();
    await page.getByText(`Waiting for confirmation: ${newEmail}.`).waitFor();
    expect(await state(user)).toMatchObject({ email: user.email, pendingEmail: newEmail });

    const mail = (await waitForOutboxMail(site.api.dataDir, newEmail, 1))[0]!;
    await page.goto(linkPath(mail));
    await page.getByRole("button", { name: "Verify my email address" }).click();
    await page.getByText(`Your email address is now ${newEmail}.`).waitFor();
    await axeClean(page, "/settings");

    await page.goto("/settings");
    await page.getByText(`Now: ${newEmail}`).waitFor();
    expect(await state(user)).toMatchObject({ email: newEmail, emailVerified: true, pendingEmail: null });
  });
});
