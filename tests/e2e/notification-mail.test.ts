// Notification mail in Chromium (docs/web.md "Notification mail"), without JavaScript: the settings page's "Email
// notifications" card (the unverified notice, a select per kind, Save), and a mail's unsubscribe link: its page changes
// nothing until its button is pressed. axe-core on each screen (with scripts: axe runs as one).
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { unsubscribeSecret, unsubscribeToken } from "../../server/mail/unsubscribe.ts";
import { DEFAULT_EMAIL_SETTINGS } from "../../server/rules/email-preferences.ts";
import { logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

let seq = 0;
const newUser = () => site.api.register(`unsub_e2e${++seq}`);
const prefsOf = async (user: { auth: { Authorization: string } }) =>
  (await site.api.request.get("/me/email-preferences").set(user.auth)).body as Record<string, string>;

async function axeClean(page: Page, path: string) {
  const { page: withScripts } = await site.newPage();
  for (const cookie of await page.context().cookies()) await withScripts.context().addCookies([cookie]);
  await withScripts.goto(path);
  expect(await seriousAxeViolations(withScripts), path).toEqual([]);
}

describe("notification mail", () => {
  it("the settings card says an unverified address gets none, and saves a setting per kind", async () => {
    const user = await newUser();
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, user.username, user.password);

    await page.goto("/settings");
    const card = page.locator("#email-notifications");
    await card.getByRole("heading", { name: "Email notifications" }).waitFor();
    await card.getByText("no notification email is sent until you verify it").waitFor();
    await axeClean(page, "/settings");
    expect(await card.getByLabel("Replies to your comments").inputValue()).toBe("instant");
    await card.getByLabel("Mentions of you").selectOption({ label: "Off" });
    await card.getByLabel("New chapters of series you follow").selectOption({ label: "Weekly digest" });
    await card.getByRole("button", { name: "Save" }).click();

    await page.locator("#email-notifications").getByText("Your email notification settings are saved.").waitFor();
    expect(await prefsOf(user)).toEqual({ ...DEFAULT_EMAIL_SETTINGS, mention: "off", chapter: "weekly" });
    expect(await page.locator("#email-notifications").getByLabel("Mentions of you").inputValue()).toBe("off");
  });

  it("the unsubscribe link's page turns the kind off only when its button is pressed", async () => {
    const user = await newUser();
    const token = unsubscribeToken(unsubscribeSecret(site.api.config.jwtSecret), user.id, "reply");
    const path = `/unsubscribe?token=${encodeURIComponent(token)}`;
    const { page } = await site.newPage({ javaScript: false });

    await page.goto(path);
    await page.getByRole("heading", { name: "Unsubscribe from reply emails" }).waitFor();
    await axeClean(page, path);
    // Opening the link changed nothing (a mail scanner fetching it would not either).
    expect((await prefsOf(user)).reply).toBe("instant");

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByText("You will no longer get reply emails.").waitFor();
    expect(await prefsOf(user)).toEqual({ ...DEFAULT_EMAIL_SETTINGS, reply: "off" });
  });
});
