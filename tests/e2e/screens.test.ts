// Every screen of part 1, as a guest and signed in, at phone and desktop widths: no serious or
// critical axe-core violations. Set SCREENSHOTS_DIR to also keep a screenshot of each.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { logIn, seriousAxeViolations, startSite, type Site } from "../helpers/site.ts";
import { seedCommunity } from "../helpers/web-seed.ts";

// A real browser on a shared 2-core machine: generous, but bounded.
vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let seeded: Awaited<ReturnType<typeof seedCommunity>>;
const shots = process.env.SCREENSHOTS_DIR;

beforeAll(async () => {
  site = await startSite();
  seeded = await seedCommunity(site.api);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(() => site?.close());

async function check(page: Page, name: string) {
  // Rendered and hydrated (screenshots also wait for the images).
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  if (shots) await page.waitForLoadState("networkidle");
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  const violations = await seriousAxeViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

const guestScreens = () => [
  ["home", "/"],
  ["home-alias", "/home"],
  ["login", "/login"],
  ["register", "/register"],
  ["about", "/about"],
  ["contact", "/contact"],
  ["hubs", "/hubs"],
  ["hubs-search", "/hubs?q=ink"],
  ["hubs-empty-search", "/hubs?q=nothing-matches"],
  ["hub", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}`],
  ["hub-empty", `/hubs/${encodeURIComponent(seeded.hubs.webcomics.name)}`],
  ["hub-missing", "/hubs/no-such-hub"],
  ["post", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/${seeded.post.id}`],
  ["post-missing", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/999999`],
  ["user", `/user/${seeded.artist.username}`],
  ["user-hubs-tab", `/user/${seeded.artist.username}?tab=hubs`],
  ["user-popup", `/user/${seeded.artist.username}?show=member-hubs`],
  ["user-missing", "/user/nobody_here"],
  ["not-found", "/no/such/page"],
];

const memberScreens = () => [
  ["home", "/"],
  ["profile", "/profile"],
  ["hub", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}`],
  ["post", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/${seeded.post.id}`],
  ["user-own", `/user/${seeded.reader.username}?show=followed-series`],
];

describe.each([
  ["desktop", 1280],
  ["phone", 375],
])("screens at %s width", (label, width) => {
  it("guest screens have no serious accessibility violations", async () => {
    const { page } = await site.newPage({ width, height: 800 });
    for (const [name, url] of guestScreens()) {
      await page.goto(url!);
      await check(page, `${label}-guest-${name}`);
    }
  });

  it("signed-in screens have no serious accessibility violations", async () => {
    const { page } = await site.newPage({ width, height: 800 });
    const reader: TestUser = seeded.reader;
    await logIn(page, reader.username, reader.password);
    for (const [name, url] of memberScreens()) {
      await page.goto(url!);
      await check(page, `${label}-member-${name}`);
    }
  });
});
