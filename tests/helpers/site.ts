// The whole site for browser tests: the real API and the BUILT web app on free ports over a fresh
// data folder, and Debian's Chromium driven by playwright-core.
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { registerUsers, type UsersNamed } from "./api.ts";
import { startWebServer, type WebServer } from "./web-server.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export { CONTACT_EMAIL, SESSION_SECRET } from "./web-server.ts";

export interface Site extends WebServer {
  browser: Browser;
  /** A new browser context (own cookies) and page; phone width when asked. */
  newPage(options?: { javaScript?: boolean; width?: number; height?: number }): Promise<{ context: BrowserContext; page: Page }>;
}

/** The web server (startWebServer) and a Chromium to browse it. */
export async function startSite(): Promise<Site> {
  const server = await startWebServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  return {
    ...server,
    browser,
    async newPage({ javaScript = true, width = 1280, height = 900 } = {}) {
      // bypassCSP: axe-core is injected as an inline script; the site itself runs under its real CSP.
      const context = await browser.newContext({
        bypassCSP: true,
        javaScriptEnabled: javaScript,
        viewport: { width, height },
        baseURL: server.url,
      });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    },
    async close() {
      await Promise.allSettled(contexts.map((c) => c.close()));
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A browser test file's shared set-up: before its tests, the site with a user registered under each name,
 * handed to `ready`; after them, closed.
 */
export function setUpSharedSite<const Usernames extends readonly string[]>(
  usernames: Usernames,
  ready: (site: Site, users: UsersNamed<Usernames>) => void,
): void {
  let site: Site | undefined;
  beforeAll(async () => {
    site = await startSite();
    ready(site, await registerUsers(site.api, usernames));
  });
  afterAll(() => site?.close());
}

/** Waits until the page's scripts have taken over (root.tsx marks <html data-hydrated>). */
export const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

/** A file for a file input, from bytes. */
export const fileToUpload = (bytes: Buffer, name: string, mimeType = "image/png") => ({ name, mimeType, buffer: bytes });

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve("axe-core/axe.min.js");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core in the page; answers the serious and critical violations (WCAG 2.x A/AA and best practices). */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Logs in through the login form and waits for the page it lands on. */
export async function logIn(page: Page, username: string, password: string, from = "/login") {
  await page.goto(from);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((u) => u.pathname !== "/login"), page.getByRole("button", { name: "Login" }).click()]);
}
