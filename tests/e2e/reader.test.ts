// Reading, as a visitor does it in Chromium: find a series from home and from the series list,
// read a chapter in the vertical strip and one page at a time (keyboard, tap zones, the ends
// disabled, the next chapter after the last page), with and without JavaScript, on a phone and
// a desktop; follow the series and like the chapter.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hydrated, logIn, startSite, type Site } from "../helpers/site.ts";
import { seedComics } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let comics: Awaited<ReturnType<typeof seedComics>>;

beforeAll(async () => {
  site = await startSite();
  comics = await seedComics(site.api);
});
afterAll(() => site?.close());

const RONIN = "/series/Moonlit%20Ronin";
const status = (page: Page) => page.locator(".stage__status").innerText();
/** How far an element's top is from the viewport's top, in whole pixels. */
const top = (page: Page, selector: string) => page.locator(selector).evaluate((el) => Math.round(el.getBoundingClientRect().top) + 0);
const chapterNav = (page: Page) => page.getByRole("navigation", { name: "Chapter navigation", exact: true });

describe("finding a series", () => {
  it("goes from home to the newest chapter, and from the series list to a series", async () => {
    const { page } = await site.newPage();
    await page.goto("/");
    await page.getByRole("link", { name: "Moonlit Ronin" }).click();
    await page.waitForURL(`**${RONIN}/3`);
    await page.getByRole("heading", { level: 1, name: "Chapter 3: Moon Over the Bridge" }).waitFor();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Series" }).click();
    await page.getByRole("heading", { name: "Top Series" }).waitFor();
    await page.getByRole("heading", { name: "More Series" }).waitFor();
    expect(await page.locator(".pager__status").innerText()).toBe("Page 1 of 1");

    // Typing searches after a pause; Top Series hides while searching.
    await hydrated(page);
    await page.getByRole("searchbox", { name: "Search series by name" }).pressSequentially("drag", { delay: 40 });
    await page.waitForURL((u) => u.searchParams.get("q") === "drag");
    await page.getByRole("heading", { name: "Search Results" }).waitFor();
    expect(await page.getByRole("heading", { name: "Top Series" }).count()).toBe(0);
    expect(await page.locator(".series-card .card__title").allInnerTexts()).toEqual(["Paper Dragons"]);
    await page.getByRole("searchbox", { name: "Search series by name" }).fill("no such comic");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No series found.").waitFor();

    await page.goto("/series");
    await page.locator(".shelf").getByRole("link", { name: "Moonlit Ronin" }).click();
    await page.getByRole("heading", { level: 1, name: "Moonlit Ronin" }).waitFor();
    expect(await page.locator(".series-hero__banner").evaluate((el) => el.getBoundingClientRect().height)).toBe(300);
    expect(await page.locator(".series-hero__logo").evaluate((el) => el.getBoundingClientRect().width)).toBe(120);
    expect(await page.getByTestId("follower-count").innerText()).toBe("1 follower");
    await page.getByRole("link", { name: /Created by @kana_/ }).waitFor();
    await page.getByText(/^Joined on /).waitFor();
    expect(await page.locator(".chapter-row .card__title").allInnerTexts()).toEqual([
      "Chapter 3: Moon Over the Bridge",
      "Chapter 2: Lanterns",
      "Chapter 1: The Night Market",
    ]);
    await page.getByRole("link", { name: "Most Liked" }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "likes");
    await expect.poll(() => page.locator(".chapter-row .card__title").first().innerText()).toBe("Chapter 1: The Night Market");
    await page.getByRole("link", { name: "Start reading" }).click();
    await page.waitForURL(`**${RONIN}/1`);

    await page.goto("/series/Blank%20Pages");
    await page.getByText("No chapters available.").waitFor();
    expect(await page.locator(".series-hero .banner--fallback").count()).toBe(1);
    await page.goto("/series/nothing-here");
    await page.getByText("No series found.").waitFor();
  });
});

describe("reading a chapter", () => {
  it("shows the vertical strip by default: renditions, lazy pages, the ends disabled, arrows between pages", async () => {
    const { page } = await site.newPage({ width: 1280, height: 800 });
    await page.goto(`${RONIN}/1`);
    await hydrated(page);
    const pages = page.locator(".strip img");
    expect(await pages.count()).toBe(4);
    const first = await pages.first().evaluate((img: HTMLImageElement) => ({
      srcset: img.srcset,
      sizes: img.sizes,
      loading: img.loading,
      w: img.getAttribute("width"),
      h: img.getAttribute("height"),
      alt: img.alt,
    }));
    expect(first.srcset).toMatch(/\?w=320 320w, .*\?w=640 640w, \S+\/images\/\d+ 800w$/);
    expect(first).toMatchObject({ sizes: "(min-width: 800px) 800px, 100vw", loading: "eager", w: "800", h: "1200", alt: "Page 1 of 4" });
    expect(await pages.nth(3).getAttribute("loading")).toBe("lazy");

    // The first chapter: Previous Chapter is disabled, Next Chapter goes on.
    const nav = chapterNav(page);
    expect(await nav.getByText("Previous Chapter").locator("..").getAttribute("aria-disabled")).toBe("true");
    expect(await nav.getByRole("link", { name: "Next Chapter" }).getAttribute("href")).toBe(`${RONIN}/2`);
    expect(await nav.getByRole("link", { name: "Moonlit Ronin" }).getAttribute("href")).toBe(RONIN);

    // The right arrow brings the next page to the top.
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => top(page, "#page-2")).toBe(0);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => top(page, "#page-1")).toBe(0);

    await page.getByRole("link", { name: "Read Chapter 2" }).click();
    await page.waitForURL(`**${RONIN}/2`);
    await page.goto(`${RONIN}/3`);
    await chapterNav(page).getByText("Next Chapter").waitFor();
    expect(await chapterNav(page).getByText("Next Chapter").locator("..").getAttribute("aria-disabled")).toBe("true");
    await page.getByText("You're all caught up").waitFor();
    expect(await page.locator(".chapter-notes strong").innerText()).toBe("Chapter 4");
  });

  it("asks for the reader's code beside the chapter's data when it opens a chapter in the browser", async () => {
    const { page } = await site.newPage();
    await page.goto(RONIN);
    await hydrated(page);
    // The chapter's data (single fetch, `*.data`) is held back until the reader's code has been asked for: had the
    // code waited for the data, as it once did, this would never come.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.data(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    const readerCode = page.waitForRequest(/\/assets\/strip-reader-[\w-]+\.js$/);
    await page.locator(".chapter-row").filter({ hasText: "Chapter 1: The Night Market" }).getByRole("link").first().click();
    await readerCode;
    release();
    await page.waitForURL(`**${RONIN}/1`);
    await expect.poll(() => page.locator(".strip img").count()).toBe(4);
  });

  it("reads one page at a time: keys and tap zones turn pages without reloading, then the next chapter; the choice is remembered", async () => {
    const { page } = await site.newPage({ width: 375, height: 740 });
    await page.goto(`${RONIN}/1`);
    await hydrated(page);
    await page.getByRole("button", { name: "Left to right" }).click();
    await page.locator(".stage").waitFor();
    expect(await status(page)).toBe("Page 1 of 4");
    expect(await page.getByRole("button", { name: "Left to right" }).getAttribute("aria-pressed")).toBe("true");

    // No reload while turning pages: a mark on the window survives.
    await page.evaluate(() => ((window as unknown as { mark: number }).mark = 42));
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => status(page)).toBe("Page 2 of 4");
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    // The next pages are preloaded with the same srcset (once the document has loaded).
    await expect.poll(() => page.locator("link[rel=preload][as=image]").count()).toBe(2);

    // Tap zones: the right part goes on, the left part goes back.
    const frame = await page.locator(".stage__frame").boundingBox();
    await page.mouse.click(frame!.x + frame!.width * 0.85, frame!.y + frame!.height / 2);
    await expect.poll(() => status(page)).toBe("Page 3 of 4");
    await page.mouse.click(frame!.x + frame!.width * 0.1, frame!.y + frame!.height / 2);
    await expect.poll(() => status(page)).toBe("Page 2 of 4");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => status(page)).toBe("Page 1 of 4");
    expect(await page.getByText("Previous page").locator("..").getAttribute("aria-disabled")).toBe("true");
    expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(42);

    // The page fits the phone's screen.
    const box = await page.locator(".stage__page").boundingBox();
    expect(box!.width).toBeLessThanOrEqual(375);
    expect(box!.height).toBeLessThanOrEqual(740);

    // Past the last page: the next chapter, still one page at a time.
    for (const n of [2, 3, 4]) {
      await page.keyboard.press("ArrowRight");
      await expect.poll(() => status(page)).toBe(`Page ${n} of 4`);
    }
    await page.getByRole("link", { name: "Next Chapter" }).first().waitFor();
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(`**${RONIN}/2`);
    await expect.poll(() => status(page)).toBe("Page 1 of 3");

    // Remembered (a cookie): a new visit opens in single-page mode.
    await page.reload();
    await page.locator(".stage").waitFor();
    await page.getByRole("button", { name: "Vertical" }).click();
    await page.locator(".strip").waitFor();
    await page.reload();
    await page.locator(".strip").waitFor();
  });

  it("works without JavaScript: the mode form and the page links", async () => {
    const { page } = await site.newPage({ javaScript: false });
    await page.goto(`${RONIN}/1`);
    expect(await page.locator(".strip img").count()).toBe(4);
    await page.getByRole("button", { name: "Left to right" }).click();
    await page.locator(".stage").waitFor();
    expect(await status(page)).toBe("Page 1 of 4");
    // Nothing but the page shown before the first paint: the next pages are preloaded by script after `load`.
    expect(await page.locator("link[rel=preload][as=image]").count()).toBe(0);
    await page.getByRole("link", { name: "Next page" }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    expect(await status(page)).toBe("Page 2 of 4");
    await page.goto(`${RONIN}/1?page=4`);
    await page.locator(".stage__controls").getByRole("link", { name: "Next Chapter" }).click();
    await page.waitForURL(`**${RONIN}/2`);
    expect(await status(page)).toBe("Page 1 of 3");
  });

  it("follows the series and likes the chapter, and a reload shows the same", async () => {
    await site.api.register("reader_e2e");
    const { page } = await site.newPage();
    // A guest is sent to log in and comes back.
    await page.goto(`${RONIN}/2`);
    expect(
      await page
        .getByRole("link", { name: /0 Likes/ })
        .first()
        .getAttribute("href"),
    ).toBe(`/login?redirectTo=${encodeURIComponent(`${RONIN}/2`)}`);
    await logIn(page, "reader_e2e", "secret123", `/login?redirectTo=${encodeURIComponent(`${RONIN}/2`)}`);
    await hydrated(page);
    await page.getByRole("button", { name: "0 Likes" }).first().click();
    // Both like buttons (top and end of chapter) show the new state.
    await expect.poll(() => page.getByRole("button", { name: "1 Like" }).count()).toBe(2);
    await page.getByRole("button", { name: "Follow" }).first().click();
    await expect.poll(() => page.getByRole("button", { name: "Unfollow" }).count()).toBe(2);
    await page.waitForLoadState("networkidle");
    await page.reload();
    expect(await page.getByRole("button", { name: "1 Like" }).first().getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Unfollow" }).first().waitFor();
    await page.goto(RONIN);
    expect(await page.getByTestId("follower-count").innerText()).toBe("2 followers");
    await page.getByRole("button", { name: "Unfollow" }).click();
    await page.getByRole("button", { name: "Follow" }).waitFor();
    await expect.poll(() => page.getByTestId("follower-count").innerText()).toBe("1 follower");
  });

  it("opens a page's image page", async () => {
    const { page } = await site.newPage({ width: 375 });
    const id = comics.chapters[0]!.pages[0]!.imageId;
    await page.goto(`/media/image/${id}`);
    // The original file name is its uploader's to see; a guest gets a neutral one (docs/decisions/009).
    await page.getByRole("heading", { level: 1, name: `image-${id}.jpg` }).waitFor();
    await page.getByText("image/jpeg").waitFor();
    await page.getByRole("link", { name: `@${comics.artist.username}` }).waitFor();
    await page.goto("/media/image/999999");
    await page.getByText("Image not found").waitFor();
  });
});
