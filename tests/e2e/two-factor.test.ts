// Two-factor authentication in Chromium (docs/web.md "Two-factor authentication"): TOTP turned on in /settings (the QR
// code drawn on the server, the key as text, a code, the 10 recovery codes shown once), then signing out and in again
// with the password and a code; the code step and the recovery code without JavaScript; axe-core on the new screens.
// Codes come from the tests' own RFC 6238 implementation (tests/helpers/totp-codes.ts) at the real clock: a sign-in
// sends the next step's code (one step of drift), which is never the step the confirmation used.
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";
import { totpCode } from "../helpers/totp-codes.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
setUpSharedSite([], (started) => {
  site = started;
});

let seq = 0;
const newUser = () => site.api.register(`totp_e2e${++seq}`);
const nextStepCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

/** Turns TOTP on through /settings; answers the key as shown and the recovery codes. */
async function turnOn(page: Page, { axe }: { axe: boolean }): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto("/settings");
  await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
  await qr.waitFor();
  expect(await qr.locator("svg path").count()).toBeGreaterThan(0);
  const secret = (await page.locator(".totp-secret").innerText()).replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  if (axe) expect(await seriousAxeViolations(page)).toEqual([]);

  // A wrong code first: the same QR code again, and the field's error.
  const wrong = String((Number(totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, "0");
  await page.getByLabel("Code from the app").fill(wrong);
  await page.getByRole("button", { name: "Turn on", exact: true }).click();
  await page.locator("#totp-code-error").waitFor();
  expect((await page.locator(".totp-secret").innerText()).replace(/\s+/g, "")).toBe(secret);

  await page.getByLabel("Code from the app").fill(totpCode(secret, Date.now()));
  await page.getByRole("button", { name: "Turn on", exact: true }).click();
  await page.getByText("Save your recovery codes now").waitFor();
  const recoveryCodes = await page.getByRole("list", { name: "Recovery codes" }).locator("li").allInnerTexts();
  expect(recoveryCodes).toHaveLength(10);
  if (axe) expect(await seriousAxeViolations(page)).toEqual([]);
  // Shown once: the next visit says it is on, with no codes.
  await page.goto("/settings");
  await page.getByText("On: signing in asks for a code").waitFor();
  expect(await page.getByRole("list", { name: "Recovery codes" }).count()).toBe(0);
  return { secret, recoveryCodes };
}

async function passwordStep(page: Page, username: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/login");
}

const signedInAs = async (page: Page, username: string) => {
  await page.goto("/settings");
  return new URL(page.url()).pathname === "/settings" && (await page.getByText(`@${username}`).count()) > 0;
};

describe("two-factor authentication", () => {
  it("is turned on in settings; signing out and in again asks for a code (no JavaScript for any of it)", async () => {
    const user = await newUser();
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, user.username, user.password);
    const { secret } = await turnOn(page, { axe: false });

    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.getByRole("button", { name: "Logout" }).click()]);
    expect(await signedInAs(page, user.username)).toBe(false);

    await passwordStep(page, user.username, user.password);
    // A wrong code: the step again, with the error on the field.
    await page.getByLabel("Code", { exact: true }).fill("000000" === nextStepCode(secret) ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.locator("#login-code-error").waitFor();
    await page.getByLabel("Code", { exact: true }).fill(nextStepCode(secret));
    await Promise.all([page.waitForURL((u) => u.pathname !== "/login"), page.getByRole("button", { name: "Verify" }).click()]);
    expect(await signedInAs(page, user.username)).toBe(true);
  });

  it("takes a recovery code instead, once, without JavaScript", async () => {
    const user = await newUser();
    const { page: owner } = await site.newPage();
    await logIn(owner, user.username, user.password);
    await hydrated(owner);
    const { recoveryCodes } = await turnOn(owner, { axe: false });

    const { page } = await site.newPage({ javaScript: false });
    await passwordStep(page, user.username, user.password);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").waitFor();
    await page.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await Promise.all([page.waitForURL((u) => u.pathname !== "/login"), page.getByRole("button", { name: "Verify" }).click()]);
    expect(await signedInAs(page, user.username)).toBe(true);

    const { page: again } = await site.newPage({ javaScript: false });
    await passwordStep(again, user.username, user.password);
    await again.getByRole("button", { name: "Use a recovery code instead" }).click();
    await again.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await again.getByRole("button", { name: "Verify" }).click();
    await again.locator("#login-recovery-code-error").waitFor();
  });

  it("has no serious axe violations on the set-up, the recovery codes and the code step (axe needs JavaScript)", async () => {
    const user = await newUser();
    const { page } = await site.newPage();
    await logIn(page, user.username, user.password);
    await hydrated(page);
    const { secret } = await turnOn(page, { axe: true });

    const { page: login } = await site.newPage();
    await login.goto("/login");
    await hydrated(login);
    await login.getByLabel("Username").fill(user.username);
    await login.getByLabel("Password").fill(user.password);
    await login.getByRole("button", { name: "Login" }).click();
    await login.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    expect(await seriousAxeViolations(login)).toEqual([]);
    await login.getByRole("button", { name: "Use a recovery code instead" }).click();
    await login.getByLabel("Recovery code").waitFor();
    expect(await seriousAxeViolations(login)).toEqual([]);
    await login.getByRole("button", { name: "Use a code from the app instead" }).click();
    await login.getByLabel("Code", { exact: true }).fill(nextStepCode(secret));
    await Promise.all([login.waitForURL((u) => u.pathname !== "/login"), login.getByRole("button", { name: "Verify" }).click()]);
    expect(await signedInAs(login, user.username)).toBe(true);
  });
});
