// Passkeys in Chromium (docs/web.md "Passkeys", docs/api.md "Passkeys"), with the DevTools protocol's virtual
// authenticator (a CTAP2 platform authenticator that keeps discoverable credentials and verifies its user): a passkey
// added in /settings, then, signed out, a sign-in with it from /login without a username; without JavaScript the
// settings page says adding needs it and deletes with a plain form, and the login page keeps only the password form.
// axe-core on both screens. WebAuthn refuses IP addresses as the relying party id, so the site runs at localhost on a
// fixed port of this test's, and PUBLIC_URL names it.
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { CHROMIUM, hydrated, logIn, seriousAxeViolations } from "../helpers/site.ts";
import { startWebServer, type WebServer } from "../helpers/web-server.ts";

vi.setConfig({ testTimeout: 120_000 });

const PORT = 4651;
const ORIGIN = `http://localhost:${PORT}`;

let server: WebServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startWebServer({ api: { publicUrl: ORIGIN }, env: { PORT: String(PORT), PUBLIC_URL: ORIGIN } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
});

afterAll(async () => {
  await Promise.allSettled(contexts.map((c) => c.close()));
  await browser?.close();
  await server?.close();
});

async function newPage(javaScript = true): Promise<Page> {
  // bypassCSP: axe-core is injected as an inline script; the site itself runs under its real CSP.
  const context = await browser.newContext({ baseURL: ORIGIN, javaScriptEnabled: javaScript, bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/** A virtual platform authenticator for the page, as a phone's or a laptop's built-in one. */
async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials };
}

const passkeyItems = (page: Page) => page.locator("#passkeys .passkey-list__item");

let seq = 0;
const newUser = (): Promise<TestUser> => server.api.register(`passkey_e2e${++seq}`);

describe("passkeys in the browser", () => {
  it("adds a passkey in settings, then signs in with it without a username", async () => {
    const user = await newUser();
    const page = await newPage();
    const authenticator = await withAuthenticator(page);
    await logIn(page, user.username, user.password);

    await page.goto("/settings#passkeys");
    await hydrated(page);
    expect(await page.locator("#passkeys").getByText("You have no passkeys yet.").count()).toBe(1);
    await page.getByLabel("Passkey name").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("status").filter({ hasText: 'Passkey "Test laptop" added.' }).waitFor();
    await expect.poll(() => passkeyItems(page).count()).toBe(1);
    expect(await passkeyItems(page).innerText()).toContain("Never used");
    const [credential] = await authenticator.credentials();
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Signed out, back in with the passkey alone.
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.getByRole("button", { name: "Logout" }).click()]);
    await page.goto("/login?redirectTo=%2Fsettings");
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/settings"),
      page.getByRole("button", { name: "Sign in with a passkey" }).click(),
    ]);
    await hydrated(page);
    expect(await passkeyItems(page).innerText()).toContain("Last used");
    expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(0);
  });

  it("says so when the authenticator holds a passkey of the account already, and adds nothing", async () => {
    const user = await newUser();
    const page = await newPage();
    await withAuthenticator(page);
    await logIn(page, user.username, user.password);
    await page.goto("/settings");
    await hydrated(page);
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => passkeyItems(page).count()).toBe(1);
    // The options exclude the account's passkeys: the same authenticator refuses to make a second one.
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.locator("#passkeys [role=alert]").filter({ hasText: "This device already has a passkey for your account." }).waitFor();
    expect(await passkeyItems(page).count()).toBe(1);
  });

  it("without JavaScript: settings says adding needs it and deletes with a plain form; the login keeps its password form", async () => {
    const user = await newUser();
    const withJs = await newPage();
    await withAuthenticator(withJs);
    await logIn(withJs, user.username, user.password);
    await withJs.goto("/settings");
    await hydrated(withJs);
    await withJs.getByLabel("Passkey name").fill("Phone");
    await withJs.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => passkeyItems(withJs).count()).toBe(1);

    const page = await newPage(false);
    await page.goto("/login");
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).count()).toBe(0);
    await logIn(page, user.username, user.password);
    await page.goto("/settings");
    expect(await page.getByText("Adding a passkey needs JavaScript").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Add a passkey" }).count()).toBe(0);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/settings" && u.hash === "#passkeys"),
      page.getByRole("button", { name: "Delete passkey Phone" }).click(),
    ]);
    await expect.poll(() => page.locator("#passkeys").getByText("You have no passkeys yet.").count()).toBe(1);
    expect(
      await server.api.request
        .get("/me/passkeys")
        .set(user.auth)
        .then((r) => r.body),
    ).toEqual([]);
  });
});
