// Publishing, as an artist does it in Chromium: the menu behind login, the hub, series and post
// forms (validation messages, counters, preview, success and the redirect 2 seconds later),
// uploading a chapter's pages (progress, a refused file, reordering, the cover) and reading it,
// the same without JavaScript, and an edit form refused to someone else.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { fileToUpload, hydrated, logIn, setUpSharedSite, type Site } from "../helpers/site.ts";
import { artPng, comicPagePng, createHub } from "../helpers/web-seed.ts";

vi.setConfig({ testTimeout: 120_000 });

let site: Site, artist: TestUser, other: TestUser;
setUpSharedSite(["inker_e2e", "someone_else"], (started, users) => {
  site = started;
  [artist, other] = users;
});

async function artistPage(options: { javaScript?: boolean; width?: number } = {}) {
  const { page } = await site.newPage(options);
  await logIn(page, artist.username, artist.password);
  return page;
}

describe("the publish menu", () => {
  it("needs a login and comes back to /create, which is the menu", async () => {
    const { page } = await site.newPage({ width: 375 });
    await page.goto("/publish");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?redirectTo=%2Fcreate");
    await page.getByLabel("Username").fill(artist.username);
    await page.getByLabel("Password").fill(artist.password);
    await Promise.all([page.waitForURL((u) => u.pathname === "/publish"), page.getByRole("button", { name: "Login" }).click()]);
    for (const name of ["New Series", "New Hub", "New Chapter", "New Post"]) await page.getByRole("link", { name, exact: true }).waitFor();
    expect(await page.getByText("Coming Soon").count()).toBe(0);
  });

  it("reaches the same forms whatever the letter case, and from the old /create links", async () => {
    const page = await artistPage();
    for (const path of ["/publish/hub", "/publish/Hub", "/PUBLISH/HUB", "/create/hub"]) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1, name: "Create a hub" }).waitFor();
    }
    await page.goto("/publish/Series");
    await page.getByRole("heading", { level: 1, name: "Create a series" }).waitFor();
    await page.goto("/create/series");
    expect(new URL(page.url()).pathname).toBe("/publish/series");
    await page.goto("/publish/Post");
    await page.getByRole("heading", { level: 1, name: "Write a post" }).waitFor();
    await page.goto("/publish/Chapter");
    await page.getByRole("heading", { level: 1, name: "Publish a chapter" }).waitFor();
  });
});

describe("hub, series and post forms", () => {
  it("creates a hub: validation messages, a counter, a logo upload, success and the redirect", async () => {
    const page = await artistPage({ width: 375 });
    await createHub(site.api, other, { name: "Taken Name" });
    await page.goto("/publish/hub");
    await hydrated(page);
    const create = page.getByRole("button", { name: "Create hub" });
    await create.click();
    await page.getByText("Hub name is required").waitFor();
    await page.getByLabel("Hub name").fill("ab");
    await create.click();
    await page.getByText("Hub name must be at least 3 characters").waitFor();
    expect(await page.locator("#field-name-count").innerText()).toContain("2 / 100");

    await page.getByLabel("Hub name").fill("Taken Name");
    await create.click();
    await page.getByText("A hub with this name already exists").waitFor();

    await page.getByLabel("Logo file").setInputFiles(fileToUpload(await artPng(300, 300, 40), "logo.png"));
    await page.locator(".image-picker img[alt='Logo preview']").waitFor();
    await page.getByLabel("Hub name").fill("  Midnight Inkers  ");
    await page.getByLabel("Description").fill("We ink at night.");
    const saved = Date.now();
    await create.click();
    await page.getByText("Hub created successfully!").waitFor();
    await page.waitForURL("**/hubs/Midnight%20Inkers");
    expect(Date.now() - saved).toBeGreaterThanOrEqual(1900);
    await page.getByRole("heading", { level: 1, name: "Midnight Inkers" }).waitFor();
    expect(await page.locator(".hero__logo").getAttribute("src")).toMatch(/\/images\/\d+\?w=96$/);

    // Edit: the owner's link on the hub page.
    await page.getByRole("link", { name: "Edit hub" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Midnight Inkers" }).waitFor();
    expect(await page.getByLabel("Description").inputValue()).toBe("We ink at night.");
    await hydrated(page);
    await page.getByLabel("Description").fill("We ink at night, every night.");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Hub updated successfully!").waitFor();
    await page.waitForURL("**/hubs/Midnight%20Inkers");
    await page.locator(".hero__description").getByText("We ink at night, every night.").waitFor();
  });

  it("creates a hub without JavaScript: the file travels with the form, the page refreshes after 2 seconds", async () => {
    const page = await artistPage({ javaScript: false });
    await page.goto("/publish/hub");
    await page.getByLabel("Hub name").fill("No Script Club");
    await page.getByLabel("Banner file").setInputFiles(fileToUpload(await artPng(900, 300, 200), "banner.png"));
    await page.getByRole("button", { name: "Create hub" }).click();
    await page.getByText("Hub created successfully!").waitFor();
    expect(await page.locator("meta[http-equiv=refresh]").getAttribute("content")).toBe("2;url=/hubs/No%20Script%20Club");
    await page.waitForURL("**/hubs/No%20Script%20Club");
    expect(await page.locator(".hero__banner").getAttribute("src")).toMatch(/\/images\/\d+/);
  });

  it("creates and edits a series; someone else cannot open its edit form", async () => {
    const page = await artistPage();
    await page.goto("/publish/series");
    await hydrated(page);
    await page.getByLabel("Series name").fill("x");
    await page.getByRole("button", { name: "Create series" }).click();
    await page.getByText("Series name must be at least 3 characters").waitFor();
    await page.getByLabel("Series name").fill("Ink Tides");
    await page.getByLabel("Description").fill("Pirates, but the sea is ink.");
    await page.getByRole("button", { name: "Create series" }).click();
    await page.getByText("Series created successfully!").waitFor();
    await page.waitForURL("**/series/Ink%20Tides");
    await page.getByRole("link", { name: "Edit series" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Ink Tides" }).waitFor();
    const editUrl = page.url();

    const { page: intruder } = await site.newPage();
    await logIn(intruder, other.username, other.password);
    const response = await intruder.goto(editUrl);
    expect(response?.status()).toBe(403);
    await intruder.getByRole("heading", { level: 1, name: "You can't edit this series" }).waitFor();
    await intruder.getByText(`Only its creator, @${artist.username}, can edit “Ink Tides”.`).waitFor();
    expect(await intruder.getByLabel("Series name").count()).toBe(0);
  });

  it("writes a post with the toolbar and the preview, from the hub's '+ Post' link", async () => {
    const page = await artistPage();
    const hub = await createHub(site.api, artist, { name: "Toolbar Hub" });
    await page.goto(`/hubs/${encodeURIComponent(hub.name)}`);
    await page.getByRole("link", { name: "Post" }).click();
    await page.waitForURL((u) => u.pathname === "/publish/post" && u.searchParams.get("hubId") === String(hub.id));
    // The URL moves before the new page renders; wait for its heading so "Hub" is the form's field.
    await page.getByRole("heading", { level: 1, name: "Write a post" }).waitFor();
    await hydrated(page);
    expect(await page.getByLabel("Hub").inputValue()).toBe(String(hub.id));

    await page.getByLabel("Title").fill("Tiny");
    await page.getByLabel("Content").fill("short");
    await page.getByRole("button", { name: "Publish post" }).click();
    await page.getByText("Title must be at least 5 characters").waitFor();
    await page.getByText("Content must be at least 10 characters").waitFor();

    await page.getByLabel("Title").fill("Inking with a brush");
    const content = page.getByLabel("Content");
    await content.fill("Start with ");
    await content.press("End");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("wet ink");
    await content.press("End");
    await content.pressSequentially(" and patience.");
    await page.getByRole("button", { name: "H2", exact: true }).click();
    expect(await content.inputValue()).toBe("## Start with **wet ink** and patience.");

    await page.getByRole("tab", { name: "Preview" }).click();
    await page.locator(".editor__preview h2 strong").getByText("wet ink").waitFor();
    await page.getByRole("tab", { name: "Write" }).click();
    await page.getByRole("button", { name: "Publish post" }).click();
    await page.getByText("Post published successfully!").waitFor();
    await page.waitForURL(/\/hubs\/Toolbar%20Hub\/\d+$/);
    expect(await page.locator(".post__content h2 strong").innerText()).toBe("wet ink");
  });

  it("previews a post without JavaScript", async () => {
    const page = await artistPage({ javaScript: false });
    await page.goto("/publish/post");
    await page.getByLabel("Content").fill("Some *emphasis* here, enough.");
    await page.getByRole("button", { name: "Preview" }).click();
    await page.locator(".editor__preview em").getByText("emphasis").waitFor();
    await page.getByRole("button", { name: "Write" }).click();
    expect(await page.getByLabel("Content").inputValue()).toBe("Some *emphasis* here, enough.");
  });
});

describe("publishing a chapter", () => {
  let seriesName: string;
  beforeAll(async () => {
    seriesName = (await site.api.request.post("/series").set(artist.auth).send({ name: "Page Turner" })).body.name;
  });

  it("uploads several pages (refusing a non-image and a file too large), reorders them, picks a cover, and reads it", async () => {
    const page = await artistPage();
    await page.goto(`/publish/chapter?series=${encodeURIComponent(seriesName)}`);
    await hydrated(page);
    expect(await page.getByLabel("Series").inputValue()).toBe(seriesName);
    const pages = await Promise.all([1, 2, 3].map((n) => comicPagePng(600, 900, n * 70, `Page ${n}`)));
    // Hold the uploads to see them under way: each file has its progress, and saving waits.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/uploads", async (route) => {
      await held;
      await route.continue();
    });
    await page.locator("#field-pageFiles").setInputFiles([
      fileToUpload(pages[2]!, "page-10.png"),
      fileToUpload(pages[0]!, "page-2.png"),
      fileToUpload(Buffer.from("this is not a picture"), "notes.png"),
      fileToUpload(pages[1]!, "page-3.png"),
      // Over 10 MB: refused in the browser by its size, before any upload.
      fileToUpload(Buffer.alloc(10 * 1024 * 1024 + 1), "huge.png"),
    ]);
    await expect.poll(() => page.locator(".page-item__progress progress").count()).toBe(4);
    expect(await page.locator(".page-item__progress").allInnerTexts()).toEqual(["0%", "0%", "Waiting...", "Waiting..."]);
    expect(await page.getByRole("button", { name: "Uploading..." }).isDisabled()).toBe(true);
    release();
    // In file-name order; the refusals say which file and why.
    await page.getByText("huge.png: The file is too large (at most 10 MB).").waitFor();
    await page.getByText("notes.png: Only JPEG, PNG, WebP and GIF images are accepted.").waitFor();
    await expect.poll(() => page.locator(".pages__summary").innerText()).toBe("3 pages · 2 failed");
    expect(await page.locator(".page-item--ready .page-item__file").allInnerTexts()).toEqual(["page-2.png", "page-3.png", "page-10.png"]);

    // Put the last page first, drop the refused files, pick the new second page as the cover.
    await page.getByRole("button", { name: "Move Page 3 up" }).click();
    await page.getByRole("button", { name: "Move Page 2 up" }).click();
    await page.getByRole("button", { name: "Dismiss notes.png" }).click();
    await page.getByRole("button", { name: "Dismiss huge.png" }).click();
    expect(await page.locator(".page-item__file").allInnerTexts()).toEqual(["page-10.png", "page-2.png", "page-3.png"]);
    await page.getByRole("radio", { name: "Use page 2 as the cover" }).check();
    const ids = await page.locator("input[name=pages]").evaluateAll((inputs) => inputs.map((i) => Number((i as HTMLInputElement).value)));

    await page.getByLabel("Chapter title").fill("Shipwreck");
    await page.getByLabel("Description").fill("Everything sinks.");
    await page.getByLabel("Notes").fill("Thanks for reading **Page Turner**!");
    await page.getByRole("button", { name: "Publish chapter" }).click();
    await page.getByText("Chapter published successfully!").waitFor();
    await page.waitForURL("**/series/Page%20Turner/1");

    await page.getByRole("heading", { level: 1, name: "Chapter 1: Shipwreck" }).waitFor();
    // The strip's code loads after the page's own on a client navigation: poll until it is there.
    await expect
      .poll(() =>
        page.locator(".strip img").evaluateAll((imgs) => imgs.map((i) => Number((i as HTMLImageElement).src.match(/images\/(\d+)/)![1]))),
      )
      .toEqual(ids);
    expect(await page.locator(".reader-head__cover").getAttribute("src")).toContain(`/images/${ids[1]}?`);
    expect(await page.locator(".chapter-notes strong").innerText()).toBe("Page Turner");

    // Editing keeps the pages unless changed.
    await page.getByRole("link", { name: "Edit chapter" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Chapter 1: Shipwreck" }).waitFor();
    await hydrated(page);
    expect(
      await page.locator("input[name=pages]").evaluateAll((inputs) => inputs.map((i) => Number((i as HTMLInputElement).value))),
    ).toEqual(ids);
    await page.getByLabel("Chapter title").fill("Shipwreck!");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Chapter updated successfully!").waitFor();
    await page.waitForURL("**/series/Page%20Turner/1");
    await page.getByRole("heading", { level: 1, name: "Chapter 1: Shipwreck!" }).waitFor();
    // The heading can come before the reader has rendered its pages (a client-side navigation): wait for them.
    await expect.poll(() => page.locator(".strip img").count()).toBe(3);
  });

  it("publishes without JavaScript: several files in one input, uploaded with the form", async () => {
    const page = await artistPage({ javaScript: false, width: 375 });
    await page.goto(`/publish/chapter?series=${encodeURIComponent(seriesName)}`);
    const files = await Promise.all([1, 2].map((n) => comicPagePng(500, 750, n * 120, `Page ${n}`, "jpeg")));
    await page
      .locator("#field-pageFiles")
      .setInputFiles([
        fileToUpload(files[0]!, "a-1.jpg", "image/jpeg"),
        fileToUpload(Buffer.from("nope"), "b.txt", "text/plain"),
        fileToUpload(files[1]!, "c-2.jpg", "image/jpeg"),
      ]);
    await page.getByLabel("Chapter title").fill("Plain forms");
    await page.getByRole("button", { name: "Publish chapter" }).click();
    // The refused file is named; the two pages are kept for the next try.
    await page.getByText("b.txt: Only JPEG, PNG, WebP and GIF images are accepted.").waitFor();
    await page.getByText("One file was not uploaded.", { exact: false }).waitFor();
    expect(await page.locator("input[name=pages]").count()).toBe(2);
    await page.getByRole("button", { name: "Publish chapter" }).click();
    await page.getByText("Chapter published successfully!").waitFor();
    await page.waitForURL(/\/series\/Page%20Turner\/\d+$/);
    await expect.poll(() => page.locator(".strip img").count()).toBe(2);
  });
});
