// Unpublished uploads are private to their uploader (docs/decisions/009-image-safety.md), yet the
// publish forms still show their previews (through the web app's /uploads/{id}), and a chapter
// published from fresh uploads shows its pages to a guest.
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { fileToUpload, hydrated, logIn, setUpSharedSite, type Site } from "../helpers/site.ts";
import { artPng, comicPagePng } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site, artist: TestUser, other: TestUser;
setUpSharedSite(["private_inker", "private_other"], (started, users) => {
  site = started;
  [artist, other] = users;
});

/** Waits until every matched image has loaded with real pixels; answers their src. */
async function loadedImages(page: Page, selector: string, count: number): Promise<string[]> {
  await expect.poll(() => page.locator(selector).count()).toBe(count);
  await expect
    .poll(
      () =>
        page
          .locator(selector)
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)),
      { timeout: 15_000 },
    )
    .toBe(true);
  return page.locator(selector).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).getAttribute("src")!));
}

async function signedIn(user: TestUser) {
  const { page } = await site.newPage();
  await logIn(page, user.username, user.password);
  return page;
}

describe("previews of fresh uploads", () => {
  it("the hub form shows the uploaded logo, served to its uploader by the web app", async () => {
    const page = await signedIn(artist);
    await page.goto("/publish/hub");
    await hydrated(page);

    await page.getByLabel("Logo file").setInputFiles(fileToUpload(await artPng(300, 300, 40), "logo.png"));

    const [src] = await loadedImages(page, ".image-picker img[alt='Logo preview']", 1);
    expect(src).toMatch(/^\/uploads\/[0-9]+\?w=240$/);
    const id = Number(src!.split("/")[2]!.split("?")[0]);
    // The API itself keeps it from everyone else, and so does the web route.
    expect((await fetch(`${site.apiUrl}/images/${id}`)).status).toBe(404);
    expect((await fetch(`${site.url}/uploads/${id}`)).status).toBe(404);
    const stranger = await signedIn(other);
    const res = await stranger.request.get(`/uploads/${id}`);
    expect(res.status()).toBe(404);
    const own = await page.request.get(`/uploads/${id}`);
    expect(own.status()).toBe(200);
    expect(own.headers()["cache-control"]).toBe("private, no-store");
  });

  it("a chapter published from fresh uploads: their thumbnails before, its pages for a guest after", async () => {
    const created = await site.api.request.post("/series").set(artist.auth).send({ name: "Private Ink", description: "x" });
    expect(created.status).toBe(201);
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, artist.username, artist.password);
    await page.goto(`/publish/chapter?series=${encodeURIComponent("Private Ink")}`);
    const files = await Promise.all([1, 2].map((n) => comicPagePng(500, 750, n * 90, `Page ${n}`, "png")));
    // A refused file brings the form back with the two uploaded, still private, pages.
    await page
      .locator("#field-pageFiles")
      .setInputFiles([
        fileToUpload(files[0]!, "a-1.png"),
        { name: "b.txt", mimeType: "text/plain", buffer: Buffer.from("nope") },
        fileToUpload(files[1]!, "c-2.png"),
      ]);
    await page.getByLabel("Chapter title").fill("Unveiled");
    await page.getByRole("button", { name: "Publish chapter" }).click();
    await page.getByText("b.txt: Only JPEG, PNG, WebP and GIF images are accepted.").waitFor();
    const ids = await page.locator("input[name=pages]").evaluateAll((inputs) => inputs.map((i) => Number((i as HTMLInputElement).value)));
    expect(ids.length).toBe(2);
    for (const id of ids) expect((await fetch(`${site.apiUrl}/images/${id}`)).status).toBe(404);

    const thumbs = await loadedImages(page, ".page-item img", 2);
    expect(thumbs).toEqual(ids.map((id) => `/uploads/${id}?w=160`));

    await page.getByRole("button", { name: "Publish chapter" }).click();
    await page.getByText("Chapter published successfully!").waitFor();
    const { page: guest } = await site.newPage();
    await guest.goto(`/series/${encodeURIComponent("Private Ink")}/1`);
    await guest.getByRole("heading", { level: 1, name: "Chapter 1: Unveiled" }).waitFor();
    const shown = await loadedImages(guest, ".strip img", 2);
    expect(shown.every((s) => s.startsWith(`${site.apiUrl}/images/`))).toBe(true);
  });
});
