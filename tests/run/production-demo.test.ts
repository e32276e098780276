// Production never holds accounts with the published demo password: `npm start` under
// NODE_ENV=production starts an empty site unless SEED_DEMO=true, and then the demo members get a
// password made at seed time and printed once. Development keeps demo / demo1234 (start-command.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import bcrypt from "bcryptjs";
import Database from "better-sqlite3";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { chooseDemoPassword } from "../../seed/demo-password.ts";
import { seedDemoSetting } from "../../scripts/lib/settings.ts";
import { CHROMIUM, logIn } from "../helpers/site.ts";
import { freePort, runScript, stop, waitForHealth, type Running } from "./run-helpers.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-production-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PRODUCTION = {
  NODE_ENV: "production",
  JWT_SECRET: "production-jwt-secret-0123456789",
  SESSION_SECRET: "production-session-secret-0123456789",
  LOG_LEVEL: "warn",
  AUTH_RATE_LIMIT_PER_15_MIN: "0",
};

async function startProduction(dataDir: string, extra: Record<string, string> = {}) {
  const [webPort, apiPort] = [await freePort(), await freePort()];
  const site = runScript("scripts/start.ts", {
    ...PRODUCTION,
    DATA_DIR: dataDir,
    PORT: String(webPort),
    API_PORT: String(apiPort),
    ...extra,
  });
  await waitForHealth(`http://127.0.0.1:${apiPort}/health`, site);
  await waitForHealth(`http://127.0.0.1:${webPort}/health`, site);
  return { site, api: `http://127.0.0.1:${apiPort}`, web: `http://localhost:${webPort}` };
}

async function stopped(site: Running) {
  expect(await stop(site), site.output()).toBe(0);
}

function users(dataDir: string): { username: string; passwordHash: string }[] {
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  try {
    return db.prepare("SELECT username, passwordHash FROM User").all() as { username: string; passwordHash: string }[];
  } finally {
    db.close();
  }
}

const login = (api: string, username: string, password: string) =>
  fetch(`${api}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });

describe("the demo password", () => {
  it("is demo1234 only outside production; production makes a new one unless DEMO_PASSWORD is set", () => {
    expect(chooseDemoPassword({ NODE_ENV: "development" })).toEqual({ password: "demo1234", source: "development" });
    const [a, b] = [chooseDemoPassword({ NODE_ENV: "production" }), chooseDemoPassword({ NODE_ENV: "production" })];
    expect(a.source).toBe("generated");
    expect(a.password).not.toBe("demo1234");
    expect(a.password.length).toBeGreaterThanOrEqual(16);
    expect(a.password).not.toBe(b.password);
    expect(chooseDemoPassword({ NODE_ENV: "production", DEMO_PASSWORD: "chosen-by-operator" })).toEqual({
      password: "chosen-by-operator",
      source: "setting",
    });
    expect(() => chooseDemoPassword({ NODE_ENV: "production", DEMO_PASSWORD: "short" })).toThrow(
      "DEMO_PASSWORD: must be at least 8 characters",
    );
  });

  it("SEED_DEMO is on by default except in production", () => {
    expect(seedDemoSetting({ NODE_ENV: "development" })).toBe(true);
    expect(seedDemoSetting({ NODE_ENV: "production" })).toBe(false);
    expect(seedDemoSetting({ NODE_ENV: "production", SEED_DEMO: "true" })).toBe(true);
    expect(seedDemoSetting({ NODE_ENV: "development", SEED_DEMO: "false" })).toBe(false);
  });
});

describe("npm start in production", () => {
  it("starts an empty site by default: no demo accounts at all", async () => {
    const dataDir = path.join(tmp, "default");
    const { site, api } = await startProduction(dataDir);
    try {
      const hubs = await (await fetch(`${api}/hubs`)).json();
      expect(hubs.totalElements).toBe(0);
      expect((await login(api, "demo", "demo1234")).status).toBe(401);
      expect(site.output()).not.toContain("demo1234");
      expect(site.output()).toContain("SEED_DEMO=true adds the demo");
    } finally {
      await stopped(site);
    }
    expect(users(dataDir)).toEqual([]);
  }, 120_000);

  it("with SEED_DEMO=true seeds members that refuse demo1234 and accept the password printed once", async () => {
    const dataDir = path.join(tmp, "demo");
    const first = await startProduction(dataDir, { SEED_DEMO: "true" });
    let printed: string;
    try {
      const match = /demo login: demo \/ (\S+) {2}\(made for this site now/.exec(first.site.output());
      expect(match, first.site.output()).not.toBeNull();
      printed = match![1]!;
      expect(printed).not.toBe("demo1234");
      expect((await login(first.api, "demo", "demo1234")).status).toBe(401);
      expect((await login(first.api, "demo", printed)).status).toBe(200);
      expect(first.site.output().split(printed).length - 1).toBe(1); // in the log once
    } finally {
      await stopped(first.site);
    }

    const members = users(dataDir);
    expect(members).toHaveLength(20);
    for (const member of members) {
      expect(bcrypt.compareSync("demo1234", member.passwordHash), member.username).toBe(false);
      expect(bcrypt.compareSync(printed, member.passwordHash), member.username).toBe(true);
    }

    // A restart keeps the data and does not print the password again (nor make a new one).
    const again = await startProduction(dataDir, { SEED_DEMO: "true" });
    try {
      expect(again.site.output()).not.toContain(printed);
      expect(again.site.output()).not.toContain("demo login");
      const res = await login(again.api, "demo", printed);
      expect(res.status, `${await res.text()}\n${again.site.output()}`).toBe(200);
    } finally {
      await stopped(again.site);
    }
  }, 400_000); // seeding draws ~340 images: a minute or more on a busy 2-core machine

  it("with DEMO_PASSWORD set gives every member that password and never logs it", async () => {
    const dataDir = path.join(tmp, "chosen");
    const chosen = "operator-chose-this";
    const { site, api, web } = await startProduction(dataDir, { SEED_DEMO: "true", DEMO_PASSWORD: chosen });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      expect((await login(api, "demo", chosen)).status).toBe(200);
      expect((await login(api, "demo", "demo1234")).status).toBe(401);
      expect(site.output()).toContain("demo login: demo / the password in DEMO_PASSWORD");
      expect(site.output()).not.toContain(chosen);

      // docker compose's default: production (Secure cookie, HSTS, upgrade-insecure-requests) on plain
      // http://localhost. Browsers treat localhost as secure: the cookie comes back, nothing is upgraded.
      const page = await (await browser.newContext({ baseURL: web })).newPage();
      page.setDefaultTimeout(30_000);
      await logIn(page, "demo", chosen);
      expect((await page.context().cookies()).map((c) => c.secure)).toContain(true);
      await page.goto("/");
      expect(new URL(page.url()).protocol).toBe("http:");
      await expect(page.getByText("Logout").count()).resolves.toBeGreaterThan(0);
      // Images come from the API's origin (http://localhost:<API_PORT>); lazy ones load once scrolled to.
      const images = page.locator("main img");
      expect(await images.count()).toBeGreaterThan(3);
      for (const image of (await images.all()).slice(0, 4)) {
        await image.scrollIntoViewIfNeeded();
        await expect
          .poll(() => image.evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth), { timeout: 15_000 })
          .toBeGreaterThan(0);
        expect(await image.getAttribute("src")).toMatch(/^http:\/\/localhost:\d+\/images\//);
      }
    } finally {
      await browser.close().catch(() => {});
      await stopped(site);
    }
  }, 400_000);
});
