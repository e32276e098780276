// Every screen, as a guest, a reader and an artist, at phone and desktop widths: no serious or
// critical axe-core violations. Set SCREENSHOTS_DIR to also keep a screenshot of each.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { logIn, seriousAxeViolations, startSite, type Site } from "../helpers/site.ts";
import { addComment } from "../helpers/comments.ts";
import { publishComicChapter, seedCommunity } from "../helpers/web-seed.ts";
import { setAdmin } from "../../scripts/admin.ts";

// A real browser on a shared 2-core machine: generous, but bounded.
vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let seeded: Awaited<ReturnType<typeof seedCommunity>>;
/**
 * Part 2's things: the series, a chapter of several pages with notes, an image. (Screens that
 * differ only in their data, such as a sort order or an edit form of a create form, are left to
 * the journeys.)
 */
let comic: { seriesId: number; hubId: number; imageId: number };
const shots = process.env.SCREENSHOTS_DIR;
let troll: TestUser;
let admin: TestUser;
const RONIN = "/series/Moonlit%20Ronin";

beforeAll(async () => {
  site = await startSite();
  seeded = await seedCommunity(site.api);
  const chapter = await publishComicChapter(
    site.api,
    seeded.artist,
    "Moonlit Ronin",
    { title: "Lanterns", description: "The debt collector finds her first.", content: "Thanks for reading! **More** next month." },
    4,
    200,
  );
  // The post and the chapter screens show a comment section with a thread (a reply, a mention).
  for (const place of [`/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/${seeded.post.id}`, `${RONIN}/2`]) {
    const top = await addComment(site.api, seeded.reader, place, `Love this, @${seeded.artist.username}!`);
    await addComment(site.api, seeded.artist, place, "Thank you **so** much", top.id);
  }
  // The reader moderates the manga hub: its moderators page has someone to remove.
  const moderator = await site.api.request.put(`/hubs/${seeded.hubs.manga.id}/moderators/${seeded.reader.id}`).set(seeded.artist.auth);
  expect(moderator.status).toBe(200);
  // A ban in the manga hub (its bans page and mod log have a row) and a site admin for the admins' screens.
  troll = await site.api.register(`troll_${process.pid}`);
  const ban = await site.api.request
    .put(`/hubs/${seeded.hubs.manga.id}/bans/${troll.id}`)
    .set(seeded.artist.auth)
    .send({ reason: "Spam", days: 7 });
  expect(ban.status).toBe(200);
  // An open report on the manga hub's post: the moderation queue has an item with its resolve form.
  const report = await site.api.request
    .post("/reports")
    .set(troll.auth)
    .send({ subject: { type: "post", id: seeded.post.id }, reason: "spam", note: "Looks like an advert" });
  expect(report.status).toBe(201);
  admin = await site.api.register(`admin_${process.pid}`);
  expect((await setAdmin(site.api.db, admin.username, "grant")).ok).toBe(true);
  site.api.dataChanged();
  // The admin blocks the troll, who commented on the chapter: its comments show the hidden line, /settings the list.
  await addComment(site.api, troll, `${RONIN}/2`, "First!!!");
  expect((await site.api.request.put(`/me/blocks/${troll.id}`).set(admin.auth)).status).toBe(200);
  const series = (await site.api.request.get(RONIN)).body;
  comic = { seriesId: series.id, hubId: seeded.hubs.manga.id, imageId: chapter.pages[0]!.imageId };
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
  ["series", "/series"],
  ["series-search", "/series?q=ronin"],
  ["series-detail", RONIN],
  ["series-missing", "/series/no-such-series"],
  ["chapter-strip", `${RONIN}/2`],
  ["image", `/media/image/${comic.imageId}`],
  ["hub-modlog", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/modlog`],
];

const memberScreens = () => [
  ["home", "/"],
  ["profile", "/profile"],
  ["hub", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}`],
  ["post", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/${seeded.post.id}`],
  ["user-own", `/user/${seeded.reader.username}?show=followed-series`],
  ["chapter", `${RONIN}/2`],
  ["edit-refused", `/publish/series/${comic.seriesId}`],
  ["notifications", "/notifications"],
  ["notifications-unread", "/notifications?unread=true"],
  ["feed", "/feed"],
  ["hub-moderators-read-only", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/moderators`],
  ["settings", "/settings"],
  ["delete-account", "/settings/delete"],
  // Reports (docs/web.md "Reports"): the form and its thank-you; the reader moderates the manga hub, so has a queue.
  ["report", `/report/user/${seeded.artist.id}?back=${encodeURIComponent(`/user/${seeded.artist.username}`)}`],
  ["report-sent", `/report/user/${seeded.artist.id}?sent=1`],
  ["moderation", "/moderation"],
];

const artistScreens = () => [
  ["publish-menu", "/publish"],
  ["publish-hub", "/publish/hub"],
  ["publish-series-edit", `/publish/series/${comic.seriesId}`],
  ["publish-post", `/publish/post?hubId=${comic.hubId}`],
  ["publish-chapter", "/publish/chapter?series=Moonlit%20Ronin"],
  ["publish-chapter-edit", "/publish/chapter/Moonlit%20Ronin/2"],
  ["profile-pictures", "/profile"],
  ["hub-moderators", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/moderators`],
  ["hub-moderators-remove", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/moderators?remove=${seeded.reader.id}`],
  // Removal's confirmation step (docs/web.md "Removal"); nothing is removed until it is sent.
  [
    "remove-post",
    `/moderate/remove/post/${seeded.post.id}?back=${encodeURIComponent(`/hubs/${seeded.hubs.manga.name}/${seeded.post.id}`)}`,
  ],
  ["hub-bans", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/bans`],
  ["hub-bans-unban", `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}/bans?unban=${troll.id}`],
  ["moderation-queue", "/moderation"],
  ["moderation-resolved", "/moderation?status=resolved"],
];

const adminScreens = () => [
  ["modlog", "/modlog"],
  ["user-with-suspend", `/user/${troll.username}`],
  ["suspend", `/user/${troll.username}/suspend`],
  // Blocks (docs/web.md "Blocks"): the confirmation step, the page of someone blocked, the list and the hidden line.
  ["block", `/user/${seeded.reader.username}/block`],
  ["block-already", `/user/${troll.username}/block`],
  ["settings-blocked", "/settings"],
  ["chapter-hidden-comments", `${RONIN}/2`],
  ["chapter-hidden-comments-shown", `${RONIN}/2?showBlocked=1`],
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

  it("the artist's publishing screens have no serious accessibility violations", async () => {
    const { page } = await site.newPage({ width, height: 800 });
    await logIn(page, seeded.artist.username, seeded.artist.password);
    for (const [name, url] of artistScreens()) {
      await page.goto(url!);
      await check(page, `${label}-artist-${name}`);
    }
    // Validation messages and the preview tab.
    await page.goto("/publish/post");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Publish post" }).click();
    await page.getByText("Post title is required").waitFor();
    await check(page, `${label}-artist-publish-post-invalid`);
    await page.getByLabel("Content").fill("# Preview\n\nSome **bold** text.");
    await page.getByRole("tab", { name: "Preview" }).click();
    await check(page, `${label}-artist-publish-post-preview`);
  });

  it("the single-page reader has no serious accessibility violations", async () => {
    const { page } = await site.newPage({ width, height: 800 });
    await page.goto(`${RONIN}/2`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Left to right" }).click();
    await page.locator(".stage").waitFor();
    await page.goto(`${RONIN}/2?page=4`);
    await check(page, `${label}-guest-chapter-single-page-last`);
  });

  it("the admins' screens have no serious accessibility violations", async () => {
    const { page } = await site.newPage({ width, height: 800 });
    await logIn(page, admin.username, admin.password);
    for (const [name, url] of adminScreens()) {
      await page.goto(url!);
      await check(page, `${label}-admin-${name}`);
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
