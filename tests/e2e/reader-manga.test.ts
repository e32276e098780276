// Manga reading in Chromium (issue 15): pages right to left (the series' default, the keys, the taps
// and the links follow the direction), two-page spreads on a wide screen with the cover alone and
// "Shift by one page", fit width / height / original size, the choices remembered across reloads,
// paging without JavaScript; and the steady strip: no layout shift while pages load, the place kept
// on reload, and the end not reached while pages above are still loading. axe-core in each mode.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestApi, TestUser } from "../helpers/api.ts";
import { hydrated, seriousAxeViolations, startSite, type Site } from "../helpers/site.ts";
import { comicPagePng, uploadBytes } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
const MANGA = "/series/Tide%20Shrine";
const STRIP = "/series/Long%20Scroll";

/** A series (with its reading direction) and one chapter of pages of the given sizes. */
async function seriesWithPages(api: TestApi, user: TestUser, name: string, readingDirection: string, sizes: [number, number][]) {
  const created = await api.request.post("/series").set(user.auth).send({ name, readingDirection });
  if (created.status !== 201) throw new Error(`create series: ${created.status} ${JSON.stringify(created.body)}`);
  const pages: number[] = [];
  for (const [i, [w, h]] of sizes.entries())
    pages.push(await uploadBytes(api, user, await comicPagePng(w, h, 20 + i * 40, `Page ${i + 1}`), `p${i + 1}.jpg`));
  const res = await api.request
    .post(`/series/${encodeURIComponent(name)}/chapters`)
    .set(user.auth)
    .send({ title: "Opening", pages });
  if (res.status !== 201) throw new Error(`publish chapter: ${res.status} ${JSON.stringify(res.body)}`);
  return created.body as { id: number; readingDirection?: string };
}

let mangaDirection: string | undefined;

beforeAll(async () => {
  site = await startSite();
  const artist = await site.api.register(`mangaka_${process.pid}`);
  // Seven pages: the cover, four tall pages, an artist's spread (wider than tall), a last page.
  const tall: [number, number] = [800, 1200];
  const manga = await seriesWithPages(site.api, artist, "Tide Shrine", "rtl", [tall, tall, tall, tall, tall, [1600, 1200], tall]);
  mangaDirection = manga.readingDirection;
  await seriesWithPages(
    site.api,
    artist,
    "Long Scroll",
    "vertical",
    Array.from({ length: 12 }, () => [800, 1600] as [number, number]),
  );
});
afterAll(() => site?.close());

const status = (page: Page) => page.locator(".stage__controls:visible .stage__status").innerText();
const visiblePages = (page: Page) =>
  page.locator(".stage__frame img:visible").evaluateAll((imgs) =>
    imgs.map((img) => ({
      alt: (img as HTMLImageElement).alt,
      x: Math.round(img.getBoundingClientRect().x),
      w: Math.round(img.getBoundingClientRect().width),
      h: Math.round(img.getBoundingClientRect().height),
    })),
  );
const pressed = (page: Page, name: string) => page.getByRole("button", { name, exact: true }).getAttribute("aria-pressed");
/** Clicks a settings button and waits until the page shows the choice. */
async function choose(page: Page, name: string) {
  await page.getByRole("button", { name, exact: true }).click();
  await expect.poll(() => pressed(page, name)).toBe("true");
  await page.waitForLoadState("networkidle");
}
async function noAxeViolations(page: Page) {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

describe("reading manga right to left", () => {
  it("opens in the series' direction; keys, taps and the page links follow it; a change is remembered per series", async () => {
    expect(mangaDirection, "the API keeps the series' readingDirection (docs/api.md 'Series metadata and browsing')").toBe("rtl");
    const { page } = await site.newPage({ width: 700, height: 900 });
    await page.goto(`${MANGA}/1`);
    await hydrated(page);
    await page.locator(".stage.stage--rtl").waitFor();
    expect(await pressed(page, "Right to left")).toBe("true");
    expect(await status(page)).toBe("Page 1 of 7");
    // The controls read the way the pages turn: Next page on the left.
    expect(
      await page.locator(".stage__controls:visible > *").evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.trim())),
    ).toEqual(["Next page", "Page 1 of 7", "Previous page"]);
    await page.waitForFunction(() => !!document.querySelector(".stage [data-step]"));

    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Page 2 of 7");
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Page 3 of 7");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => status(page)).toBe("Page 2 of 7");

    // Taps: the left part goes on, the right part back.
    const frame = (await page.locator(".stage__frame").boundingBox())!;
    await page.mouse.click(frame.x + frame.width * 0.2, frame.y + frame.height / 2);
    await expect.poll(() => status(page)).toBe("Page 3 of 7");
    await page.mouse.click(frame.x + frame.width * 0.9, frame.y + frame.height / 2);
    await expect.poll(() => status(page)).toBe("Page 2 of 7");
    await noAxeViolations(page);

    // The reader's pick wins over the series' default, across reloads, for this series only.
    await choose(page, "Left to right");
    await page.locator(".stage.stage--ltr").waitFor();
    await noAxeViolations(page);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => status(page)).toBe("Page 3 of 7");
    await page.reload();
    await page.locator(".stage.stage--ltr").waitFor();
    expect(await pressed(page, "Left to right")).toBe("true");
    await page.goto(`${STRIP}/1`);
    await page.locator(".strip").waitFor();
    expect(await pressed(page, "Vertical")).toBe("true");
    await page.goto(`${MANGA}/1`);
    await hydrated(page);
    await choose(page, "Right to left");
    await page.reload();
    await page.locator(".stage.stage--rtl").waitFor();
  });

  it("pages right to left without JavaScript: links, and the settings form", async () => {
    const { page } = await site.newPage({ javaScript: false, width: 700, height: 900 });
    await page.goto(`${MANGA}/1`);
    await page.locator(".stage.stage--rtl").waitFor();
    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    expect(await status(page)).toBe("Page 2 of 7");
    await page.getByRole("link", { name: "Previous page" }).click();
    await page.waitForURL((u) => !u.searchParams.has("page"));
    expect(await status(page)).toBe("Page 1 of 7");
    // The tap zones are plain links too: the left part goes on.
    expect(await page.locator(".tap-zone--next").evaluate((a) => a.getBoundingClientRect().left)).toBe(
      await page.locator(".stage__frame").evaluate((f) => f.getBoundingClientRect().left),
    );
    await page.goto(`${MANGA}/1?page=3`);
    await page.getByRole("button", { name: "Fit width", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "3");
    expect(await pressed(page, "Fit width")).toBe("true");
    expect(await status(page)).toBe("Page 3 of 7");
    await page.getByRole("button", { name: "Vertical", exact: true }).click();
    await page.waitForURL((u) => u.hash === "#page-3");
    await expect.poll(() => page.locator(".strip img").count()).toBe(7);
  });
});

describe("two-page spreads and fit", () => {
  it("shows spreads on a wide screen: the cover alone, right page first, shift by one, a wide page alone; fit modes; remembered", async () => {
    const { page } = await site.newPage({ width: 1400, height: 900 });
    await page.goto(`${MANGA}/1`);
    await hydrated(page);
    await choose(page, "Two pages");
    await page.locator(".stage--spread").waitFor();
    expect(await status(page)).toBe("Page 1 of 7");
    expect((await visiblePages(page)).map((p) => p.alt)).toEqual(["Page 1 of 7"]);

    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Pages 2–3 of 7");
    const spread = await visiblePages(page);
    expect(spread.map((p) => p.alt)).toEqual(["Page 2 of 7", "Page 3 of 7"]);
    // Right to left: page 2 on the right of page 3, side by side, the whole spread in view (fit height).
    expect(spread[0]!.x).toBeGreaterThan(spread[1]!.x);
    expect(spread[0]!.x).toBe(spread[1]!.x + spread[1]!.w);
    expect(spread[0]!.h).toBeLessThanOrEqual(900 - 76);
    expect(spread[0]!.h).toBeGreaterThan(800);
    await noAxeViolations(page);

    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Pages 4–5 of 7");
    // The artist's spread (wider than tall) alone.
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Page 6 of 7");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => status(page)).toBe("Pages 4–5 of 7");

    // Shift by one page: page 2 alone, then 3–4.
    await choose(page, "Shift by one page");
    await expect.poll(() => status(page)).toBe("Pages 4–5 of 7".replace("4–5", "3–4"));
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => status(page)).toBe("Page 2 of 7");

    // Fit width: the spread fills the stage's width; original size: the image's own pixels.
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Pages 3–4 of 7");
    await choose(page, "Fit width");
    const frameWidth = await page.locator(".stage__frame").evaluate((f) => f.clientWidth);
    await expect.poll(async () => (await visiblePages(page)).map((p) => p.w)).toEqual([frameWidth / 2, frameWidth / 2].map(Math.round));
    await choose(page, "Original size");
    await expect
      .poll(async () => (await visiblePages(page)).map((p) => [p.w, p.h]))
      .toEqual([
        [800, 1200],
        [800, 1200],
      ]);
    await noAxeViolations(page);

    // Remembered across a reload: spreads, shifted, original size, right to left.
    await page.reload();
    await page.locator(".stage--spread.stage--fit-original.stage--rtl").waitFor();
    expect(await pressed(page, "Shift by one page")).toBe("true");
    expect(await status(page)).toBe("Pages 3–4 of 7");

    // A narrow screen shows the page at ?page= alone, with single-page links.
    await choose(page, "Fit height");
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(() => status(page)).toBe("Page 3 of 7");
    expect((await visiblePages(page)).map((p) => p.alt)).toEqual(["Page 3 of 7"]);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Page 4 of 7");
    // Where spreads do not show, neither does their setting.
    expect(await page.getByRole("button", { name: "Single page", exact: true }).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1400, height: 900 });
    await choose(page, "Single page");
  });
});

describe("a steady strip", () => {
  it("keeps every page's space while images load: no layout shift, the end not reached early, the place kept on reload", async () => {
    const { page } = await site.newPage({ width: 1280, height: 800 });
    // Throttled images: every page image arrives 1.5 s late.
    await page.route(`${site.apiUrl}/images/**`, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    await page.addInitScript(() => {
      const w = window as unknown as { shift: number };
      w.shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!e.hadRecentInput) w.shift += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`${STRIP}/1`);
    await hydrated(page);
    const strip = await page.locator(".strip").evaluate((el) => el.getBoundingClientRect().height);
    // Twelve 800 × 1600 pages, about 800 px wide: their space is there before any image has loaded.
    expect(strip).toBeGreaterThan(12 * 1580);
    expect(
      await page.locator(".strip img").evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete).length),
    ).toBeLessThan(12);
    expect(await page.locator("#chapter-end").evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(12 * 1580);
    await page.waitForFunction(() => document.querySelector(".strip__progress")?.textContent === "1 / 12");

    // Scroll down the strip while pages arrive late.
    for (let i = 0; i < 12; i++) {
      await page.mouse.wheel(0, 1200);
      await page.waitForTimeout(150);
    }
    await page.waitForTimeout(2000);
    expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBeLessThan(0.01);
    expect(await page.locator("#chapter-end").evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(800);

    // The place survives a reload.
    await page.locator("#page-6").scrollIntoViewIfNeeded();
    await page.locator("#page-6").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.waitForTimeout(300);
    const before = await page.evaluate(() => Math.round(window.scrollY));
    await page.reload();
    await hydrated(page);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(before);
    await expect.poll(() => page.locator(".strip__progress").textContent()).toBe("6 / 12");
    expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBeLessThan(0.01);
    await noAxeViolations(page);
  });

  it("arriving at ?page= scrolls to that page", async () => {
    const { page } = await site.newPage({ width: 1280, height: 800 });
    await page.goto(`${STRIP}/1?page=4`);
    await hydrated(page);
    const topOf = (n: number) => page.locator(`#page-${n}`).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    await expect.poll(() => topOf(4)).toBe(0);
    // Read on, then reload: the place read to is kept, not ?page= again.
    await page.locator("#page-8").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await expect.poll(() => page.locator(".strip__progress").textContent()).toBe("8 / 12");
    await page.reload();
    await hydrated(page);
    await page.waitForTimeout(500);
    expect(await topOf(8)).toBe(0);
  });
});
