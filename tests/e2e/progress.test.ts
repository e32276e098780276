// Reading progress in Chromium (docs/web.md "Reading progress"): the strip saves the page in view as the reader
// scrolls, a reload and another browser signed in as the same user resume there, the series page and home say where
// to continue, and without JavaScript opening a chapter moves the continue link to it (and marks the one before read).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { hydrated, logIn, seriousAxeViolations, startSite, type Site } from "../helpers/site.ts";
import { publishComicChapter } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let reader: TestUser;
let seriesId: number;
const NAME = "Ink Tide";
const PATH = "/series/Ink%20Tide";

beforeAll(async () => {
  site = await startSite();
  const artist = await site.api.register(`tide_artist_${process.pid}`);
  reader = await site.api.register(`tide_reader_${process.pid}`);
  const created = await site.api.request.post("/series").set(artist.auth).send({ name: NAME, description: "Waves of ink." });
  expect(created.status).toBe(201);
  seriesId = created.body.id as number;
  // Pages of 800 × 1200: in a 1280 × 800 window one page fills the screen, so the page in view is clear.
  await publishComicChapter(site.api, artist, NAME, { title: "High Water" }, 8, 10);
  await publishComicChapter(site.api, artist, NAME, { title: "Low Tide" }, 2, 200);
});
afterAll(() => site?.close());

/** Where the reader is in the series, as the API has it. */
async function saved(): Promise<{ chapterNumber: number; page: number } | null> {
  const res = await site.api.request.get(`/me/progress/${seriesId}`).set(reader.auth);
  expect(res.status).toBe(200);
  return res.body.progress as { chapterNumber: number; page: number } | null;
}

/** The top of page `n` of the strip, relative to the viewport's top. */
const pageTop = (page: Page, n: number) => page.locator(`#page-${n}`).evaluate((el) => Math.round(el.getBoundingClientRect().top));

describe("reading progress", () => {
  it("saves the page in view, resumes there after a reload and in another browser, and says where to continue", async () => {
    const { page } = await site.newPage({ width: 1280, height: 800 });
    await logIn(page, reader.username, reader.password);
    await page.goto(`${PATH}/1`);
    await hydrated(page);
    // Opening the chapter saved it at page 1.
    expect(await saved()).toMatchObject({ chapterNumber: 1, page: 1 });

    // Read down to page 5 (page by page, as a reader scrolls).
    for (let n = 2; n <= 5; n++) {
      await page.locator(`#page-${n}`).evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.waitForTimeout(150);
    }
    await expect.poll(saved, { timeout: 10_000, interval: 250 }).toMatchObject({ chapterNumber: 1, page: 5 });

    await page.reload();
    await hydrated(page);
    await expect.poll(() => pageTop(page, 5), { timeout: 5_000 }).toBeLessThanOrEqual(5);
    expect(await pageTop(page, 5)).toBeGreaterThan(-400);

    // Another browser, signed in as the same reader, opens the chapter at page 5.
    const other = await site.newPage({ width: 1280, height: 800 });
    await logIn(other.page, reader.username, reader.password);
    await other.page.goto(`${PATH}/1`);
    await hydrated(other.page);
    await expect.poll(() => pageTop(other.page, 5), { timeout: 5_000 }).toBeLessThanOrEqual(5);
    expect(await pageTop(other.page, 5)).toBeGreaterThan(-400);
    // Opening it again did not move the position back.
    expect(await saved()).toMatchObject({ chapterNumber: 1, page: 5 });

    // The series page and home say where to continue, to the exact page.
    await other.page.goto(PATH);
    const cont = other.page.getByRole("link", { name: "Continue: Chapter 1, page 5" });
    await cont.waitFor();
    expect(await cont.getAttribute("href")).toBe(`${PATH}/1?page=5#page-5`);
    expect(await seriousAxeViolations(other.page)).toEqual([]);
    await other.page.goto("/");
    const home = other.page.getByRole("region", { name: "Continue reading" });
    await home.getByRole("link", { name: new RegExp(`^${NAME}`) }).waitFor();
    await home.getByText("Chapter 1, page 5").waitFor();
    await home.getByText("1 more chapter").waitFor();
    expect(await seriousAxeViolations(other.page)).toEqual([]);

    // The end of the chapter: its last page is reached, and the next chapter's link (prefetched when in view) does not
    // count as opening that chapter.
    await page.locator("#page-8").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await expect.poll(saved, { timeout: 10_000, interval: 250 }).toMatchObject({ chapterNumber: 1, page: 8 });
    await page.locator("#chapter-end").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.getByRole("link", { name: "Read Chapter 2" }).waitFor();
    await page.waitForTimeout(1_500);
    expect(await saved()).toMatchObject({ chapterNumber: 1, page: 8 });
    // Reaching the last page marked the chapter read.
    await other.page.goto(PATH);
    await other.page.locator(".chapter-row", { hasText: "Chapter 1: High Water" }).getByText("Read", { exact: true }).waitFor();
  });

  it("without JavaScript, opening a chapter moves the continue link to it and marks the chapter before read", async () => {
    const { page } = await site.newPage({ javaScript: false, width: 1280, height: 800 });
    await logIn(page, reader.username, reader.password);
    await page.goto(`${PATH}/2`);
    await page.getByRole("heading", { level: 1, name: "Chapter 2: Low Tide" }).waitFor();
    expect(await saved()).toMatchObject({ chapterNumber: 2, page: 1 });

    await page.goto(PATH);
    await page.getByRole("link", { name: "Continue: Chapter 2, page 1" }).waitFor();
    const rows = page.locator(".chapter-row");
    await expect.poll(() => rows.count()).toBe(2);
    // Chapter 1 was left for chapter 2: read, said in words.
    expect(await rows.filter({ hasText: "Chapter 1: High Water" }).locator(".read-mark").innerText()).toContain("Read");
    expect(await rows.filter({ hasText: "Chapter 2: Low Tide" }).locator(".read-mark").count()).toBe(0);
  });
});
