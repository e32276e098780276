// Discovery in Chromium (docs/api.md "Series metadata and browsing", docs/web.md §12): the series list's filters and orders by URL with
// JavaScript off, the tag pages, the mature notice for a guest (series and chapter), the "Show mature series"
// setting, and the series form's tags with their field error; axe-core on each new screen.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { hydrated, logIn, seriousAxeViolations, setUpSharedSite, type Site } from "../helpers/site.ts";
import { createSeriesWithChapter } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site, artist: TestUser, reader: TestUser;
setUpSharedSite(["artist_disc_e2e", "reader_disc_e2e", "fan_disc_e2e"], (started, users) => {
  site = started;
  [artist, reader] = users;
});

const BLADE = "Blade of Dawn";
const GARDEN = "Quiet Garden";
const NIGHT = "Night Ink";

beforeAll(async () => {
  const fan = await site.api.register("fan2_disc_e2e");
  const send = async (method: "post" | "put", path: string, body: object, status: number) => {
    const res = await site.api.request[method](path).set(artist.auth).send(body);
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number };
  };
  const blade = await send("post", "/series", { name: BLADE, description: "", tags: ["samurai", "action"], status: "ongoing" }, 201);
  await send(
    "post",
    "/series",
    { name: GARDEN, description: "", tags: ["slice of life"], status: "completed", contentRating: "teen" },
    201,
  );
  const night = await createSeriesWithChapter(site.api, artist, NIGHT, "The First Stain", 300, false);
  await send("put", `/series/${night.id}`, { name: NIGHT, tags: ["samurai", "horror"], contentRating: "mature" }, 200);
  await site.api.request.post(`/user/${fan.id}/followed-series/${blade.id}`).set(fan.auth);
  // Two pages of one tag, for the pager.
  for (let i = 1; i <= 11; i++) await send("post", "/series", { name: `Bulk Series ${i}`, description: "", tags: ["bulk"] }, 201);
});

const cardNames = (page: Page) => page.locator(".grid--cards .card__title").allInnerTexts();
const here = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

describe("the series list without JavaScript", () => {
  it("filters and sorts through the URL: the form, the order links, removing a tag, an empty result", async () => {
    const { page } = await site.newPage({ javaScript: false });
    await page.goto("/series");
    await page.getByLabel("Tags", { exact: true }).fill("Samurai");
    await page.getByLabel("Status").selectOption("ongoing");
    await Promise.all([page.waitForURL((u) => u.searchParams.has("status")), page.getByRole("button", { name: "Apply filters" }).click()]);
    const url = new URL(page.url());
    expect(url.searchParams.get("tag")).toBe("Samurai");
    expect(url.searchParams.get("status")).toBe("ongoing");
    expect(await cardNames(page)).toEqual([BLADE]);
    expect(await page.getByRole("heading", { name: "Matching Series" }).count()).toBe(1);

    // The order is a link that keeps the filters.
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get("sort") === "popular"),
      page.getByRole("navigation", { name: "Sort series" }).getByRole("link", { name: "Popular" }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get("status")).toBe("ongoing");
    expect(new URL(page.url()).searchParams.get("tag")).toBe("Samurai");
    expect(await cardNames(page)).toEqual([BLADE]);

    // Removing the tag keeps the rest.
    await Promise.all([page.waitForURL((u) => !u.searchParams.has("tag")), page.getByRole("link", { name: "Remove tag samurai" }).click()]);
    expect(here(page)).toBe("/series?status=ongoing&sort=popular");

    // The pager keeps the filters and the order.
    await page.goto("/series?tag=bulk&sort=updated");
    expect(await cardNames(page)).toHaveLength(10);
    await Promise.all([page.waitForURL((u) => u.searchParams.get("page") === "2"), page.getByRole("link", { name: "Next" }).click()]);
    expect(here(page)).toBe("/series?tag=bulk&sort=updated&page=2");
    expect(await cardNames(page)).toHaveLength(1);

    await page.goto("/series?tag=samurai&status=completed");
    await page.getByText("No series match these filters.").waitFor();
    await Promise.all([page.waitForURL((u) => u.search === ""), page.getByRole("link", { name: "Clear filters" }).first().click()]);
    await expect.poll(() => page.getByRole("heading", { name: "More Series" }).count()).toBe(1);
    expect(await cardNames(page)).not.toContain(NIGHT);
  });

  it("has no serious axe violations, filtered, empty or plain (axe needs JavaScript)", async () => {
    const { page } = await site.newPage();
    for (const path of ["/series", "/series?tag=samurai&sort=popular", "/series?tag=samurai&status=completed"]) {
      await page.goto(path);
      await hydrated(page);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
  });
});

describe("tags", () => {
  it("a series page links its tags to the tag page, which lists the tag's series; /tags lists them all", async () => {
    const { page } = await site.newPage();
    await page.goto(`/series/${encodeURIComponent(BLADE)}`);
    await page.getByText("Ongoing", { exact: true }).waitFor();
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/tags/samurai"),
      page.getByRole("list", { name: "Tags" }).getByRole("link", { name: "samurai" }).click(),
    ]);
    await page.getByRole("heading", { level: 1, name: "#samurai" }).waitFor();
    expect(await cardNames(page)).toEqual([BLADE]);
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto("/tags");
    await page
      .getByRole("list", { name: "All tags" })
      .getByRole("link", { name: /slice of life/ })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe("mature series", () => {
  it("a guest sees the notice first, on the series and on a chapter, and Continue goes on", async () => {
    const { page } = await site.newPage();
    await page.goto(`/series/${encodeURIComponent(NIGHT)}/1`);
    await page.getByText("Its creator rated this series").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/series/${encodeURIComponent(NIGHT)}`);
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await Promise.all([
      page.waitForURL((u) => u.pathname === `/series/${encodeURIComponent(NIGHT)}/1`),
      page.getByRole("link", { name: "Continue" }).click(),
    ]);
    await page.getByText("The First Stain").first().waitFor();
    // The choice holds for the rest of the browser session.
    await page.goto(`/series/${encodeURIComponent(NIGHT)}`);
    await page.getByRole("heading", { level: 1, name: NIGHT }).waitFor();
    expect(await page.getByText("Its creator rated this series").count()).toBe(0);
    await page.getByText("Mature", { exact: true }).waitFor();
  });

  it("a reader turns on 'Show mature series' in the settings: listed, and no notice", async () => {
    const { page } = await site.newPage();
    await logIn(page, reader.username, reader.password);
    await page.goto("/series?tag=horror");
    await page.getByText("No series match these filters.").waitFor();
    await page.goto(`/series/${encodeURIComponent(NIGHT)}`);
    await page.getByRole("link", { name: "Show mature series" }).waitFor();

    await page.goto("/settings");
    await hydrated(page);
    await page.getByLabel("Show mature series").check();
    await page.locator("#mature").getByRole("button", { name: "Save" }).click();
    await page.getByText("Mature series are now shown in lists.").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto("/series?tag=horror");
    expect(await cardNames(page)).toEqual([NIGHT]);
    await page.goto(`/series/${encodeURIComponent(NIGHT)}`);
    await page.getByRole("heading", { level: 1, name: NIGHT }).waitFor();
    expect(await page.getByText("Its creator rated this series").count()).toBe(0);
  });
});

describe("the series form", () => {
  it("takes comma-separated tags (a bad one on its field), status, rating and direction", async () => {
    const { page } = await site.newPage();
    await logIn(page, artist.username, artist.password);
    await page.goto("/publish/series");
    await hydrated(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel("Series name").fill("Tagged By Form");
    await page.getByLabel("Tags").fill(`Fantasy, ${"x".repeat(31)}`);
    await page.getByLabel("Status").selectOption("hiatus");
    await page.getByLabel("Content rating").selectOption("teen");
    await page.getByLabel("Reading direction").selectOption("rtl");
    await page.getByRole("button", { name: "Create series" }).click();
    await page.locator("#field-tags-error").waitFor();
    expect(await page.locator("#field-tags").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Tags").fill("Fantasy, ink wash");
    await page.getByRole("button", { name: "Create series" }).click();
    await page.getByText("Series created successfully!").waitFor();
    await page.waitForURL("**/series/Tagged%20By%20Form");
    await page.getByText("On hiatus", { exact: true }).waitFor();
    await page.getByText("Right to left (manga)").waitFor();
    await page.getByRole("list", { name: "Tags" }).getByRole("link", { name: "ink wash" }).waitFor();
  });
});
