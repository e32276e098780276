// The whole site for browser tests: the real API and the BUILT web app on free ports over a fresh
// data folder, and Debian's Chromium driven by playwright-core.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startWeb } from "../../web/main.ts";
import { startTestApi, type TestApi } from "./api.ts";

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

export const SESSION_SECRET = "web-test-session-secret-0123456789";
export const CONTACT_EMAIL = "hello@inkwell.test";

export interface Site {
  api: TestApi;
  apiUrl: string;
  /** The web app's origin, e.g. http://127.0.0.1:41234 */
  url: string;
  browser: Browser;
  /** A new browser context (own cookies) and page; phone width when asked. */
  newPage(options?: { javaScript?: boolean; width?: number; height?: number }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("listening", () => resolve((server.address() as AddressInfo).port));
    server.once("error", reject);
  });
}

export async function startSite(): Promise<Site> {
  const api = await startTestApi();
  const apiServer = api.app.listen(0, "127.0.0.1");
  const apiPort = await listen(apiServer);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const web = await startWeb({
    NODE_ENV: "test",
    PORT: "0",
    API_URL: apiUrl,
    PUBLIC_API_URL: apiUrl,
    DATA_DIR: api.dataDir,
    SESSION_SECRET,
    CONTACT_EMAIL,
  });
  const url = `http://127.0.0.1:${web.port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  return {
    api,
    apiUrl,
    url,
    browser,
    async newPage({ javaScript = true, width = 1280, height = 900 } = {}) {
      // bypassCSP: axe-core is injected as an inline script; the site itself runs under its real CSP.
      const context = await browser.newContext({
        bypassCSP: true,
        javaScriptEnabled: javaScript,
        viewport: { width, height },
        baseURL: url,
      });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    },
    async close() {
      await Promise.allSettled(contexts.map((c) => c.close()));
      await browser.close();
      await web.close();
      apiServer.closeAllConnections();
      await new Promise<void>((resolve) => apiServer.close(() => resolve()));
      await api.close();
    },
  };
}

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
