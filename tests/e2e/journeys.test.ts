// The site as a visitor uses it, in Chromium against the built app: browse as a guest, register,
// log in and out, come back after login, join and like (with and without JavaScript), and lose an
// expired session.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ABOUT } from "../../app/lib/about.ts";
import { commitToken } from "../../app/lib/session.server.ts";
import { hydrated, logIn, SESSION_SECRET, startSite, type Site } from "../helpers/site.ts";
import { tokenFor, webContext } from "../helpers/web.ts";
import { seedCommunity } from "../helpers/web-seed.ts";

// A real browser on a shared 2-core machine: generous, but bounded.
vi.setConfig({ testTimeout: 120_000 });

let site: Site;
let seeded: Awaited<ReturnType<typeof seedCommunity>>;

beforeAll(async () => {
  site = await startSite();
  seeded = await seedCommunity(site.api);
});
afterAll(() => site?.close());

const hubUrl = () => `/hubs/${encodeURIComponent(seeded.hubs.manga.name)}`;
const postUrl = () => `${hubUrl()}/${seeded.post.id}`;
const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
}

describe("guest", () => {
  it("browses home, hubs, search, a hub and a post", async () => {
    const { page } = await site.newPage();
    await page.goto("/");
    await page.getByRole("heading", { name: "Latest Chapters" }).waitFor();
    expect(await page.getByRole("link", { name: "Moonlit Ronin" }).getAttribute("href")).toBe("/series/Moonlit%20Ronin/1");
    expect(await page.getByText("Chapter #1").count()).toBe(2);
    await page.getByRole("heading", { name: "Welcome!" }).waitFor();
    await page.getByRole("heading", { name: "Recent Hubs" }).waitFor();
    // The footer's About preview (its text comes with the root's data), on the home page only.
    await page.getByRole("heading", { name: "About Inkwell" }).waitFor();
    expect(await page.getByText(ABOUT.mission).count()).toBe(1);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Hubs" }).click();
    await page.waitForURL("**/hubs");
    await page.getByRole("heading", { name: "All Hubs" }).waitFor();
    expect(await page.getByRole("heading", { name: "About Inkwell" }).count()).toBe(0);
    await page.getByRole("heading", { name: "Top Hubs" }).waitFor();
    expect(await text(page, ".pager__status")).toBe("Page 1 of 1");

    // Typing searches after a pause; Top Hubs hides while searching.
    await page.getByRole("searchbox", { name: "Search hubs by name" }).pressSequentially("ink", { delay: 50 });
    await page.waitForURL((u) => u.searchParams.get("q") === "ink");
    await page.getByRole("heading", { name: "Search Results" }).waitFor();
    expect(await page.getByRole("heading", { name: "Top Hubs" }).count()).toBe(0);
    expect(await page.locator(".hub-card .card__title").allInnerTexts()).toEqual(["Ink & Brush"]);

    // Submitting searches at once.
    await page.getByRole("searchbox", { name: "Search hubs by name" }).fill("no such hub");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No hubs found.").waitFor();

    await page.goto("/hubs");
    await page.locator(".hub-card").filter({ hasText: "Manga Lovers" }).getByRole("link").click();
    await page.getByRole("heading", { level: 1, name: "Manga Lovers" }).waitFor();
    await page.getByText("to join this hub and post.").waitFor();
    expect(await page.getByRole("button", { name: "Join Hub" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /Created by @mika_/ }).getAttribute("href")).toMatch(/^\/user\/mika_/);

    await page.getByRole("link", { name: "Most Liked" }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "likes");
    // The URL changes as the navigation commits; the list renders a moment later.
    await expect.poll(() => page.locator(".post-card .card__title").first().innerText()).toBe("Monthly art contest: side characters");

    await page.getByRole("link", { name: "Monthly art contest: side characters" }).click();
    await page.getByRole("heading", { level: 1, name: "Monthly art contest: side characters" }).waitFor();
    expect(await text(page, ".post__actions .callout")).toBe("Inicia sesión o regístrate para unirte a este hub.");
    expect(await page.locator(".markdown h2").innerText()).toBe("This month's contest");
    expect(await page.getByRole("link", { name: /1 Like/ }).getAttribute("href")).toBe(
      `/login?redirectTo=${encodeURIComponent(postUrl())}`,
    );

    await page.getByRole("link", { name: "Back to Manga Lovers" }).first().click();
    await page.waitForURL((u) => u.pathname === hubUrl());
  });

  it("shows the not-found texts", async () => {
    const { page } = await site.newPage({ width: 375 });
    await page.goto("/hubs/no-such-hub");
    await page.getByText("No hub found.").waitFor();
    await page.goto(`${hubUrl()}/999999`);
    await page.getByText("Post not found").waitFor();
    await page.goto("/user/nobody_here");
    await page.getByText("User not found").waitFor();
    await page.goto(`/hubs/${encodeURIComponent(seeded.hubs.webcomics.name)}`);
    await page.getByText("No posts available.").waitFor();
  });
});

describe("accounts", () => {
  // With scripts the rules are checked in the browser first; without, every message comes from the server.
  it.each([
    { javaScript: true, username: "fresh_reader" },
    { javaScript: false, username: "plain_reader" },
  ])("register shows each validation message, then creates the account (JavaScript: $javaScript)", async ({ javaScript, username }) => {
    const { page } = await site.newPage({ width: 375, javaScript });
    await page.goto("/register");
    if (javaScript) await hydrated(page);
    const attempt = async (username: string, email: string, password: string) => {
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
    };
    const cases: [string, string, string, string][] = [
      ["ab", "ok@example.com", "secret123", "Username must be at least 3 characters"],
      ["has space", "ok@example.com", "secret123", "Username cannot contain spaces"],
      ["bad-name!", "ok@example.com", "secret123", "Username can only contain letters, numbers and underscores"],
      ["good_name", "not-an-email", "secret123", "Please enter a valid email address"],
      ["good_name", "ok@example.com", "12345", "Password must be at least 6 characters"],
    ];
    for (const [username, email, password, message] of cases) {
      await attempt(username, email, password);
      await page.getByText(message).waitFor();
      // With scripts the form then moves the focus to the first field in error, a frame later. A fill focuses
      // its field and then types: that frame in between sends the text to the field in error (the next username
      // into the password: the form then signs up "good_name" and no "already exists" shows, as CI once saw).
      if (javaScript) await page.locator("form [aria-invalid='true']:focus").waitFor();
    }
    await attempt(seeded.artist.username, "other@example.com", "secret123");
    // Polled on the alert itself, so a different answer ("Registration failed", a timeout) shows in the failure.
    await expect.poll(() => page.locator(".form-error").allInnerTexts()).toEqual(["Username or email already exists"]);

    await attempt(username, `${username}@example.com`, "secret123");
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByRole("link", { name: `@${username}` }).waitFor();
  });

  it("logs in (wrong password first) and out", async () => {
    const { page } = await site.newPage();
    await page.goto("/login");
    await page.getByLabel("Username").fill(seeded.reader.username);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Invalid credentials").waitFor();
    expect(await page.getByLabel("Username").inputValue()).toBe(seeded.reader.username);

    await page.getByLabel("Password").fill(seeded.reader.password);
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.getByRole("button", { name: "Login" }).click()]);
    await page.getByRole("link", { name: `@${seeded.reader.username}` }).waitFor();
    await page.getByRole("heading", { name: "Stats" }).waitFor();

    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("banner").getByRole("link", { name: "Login" }).waitFor();
    expect(await page.getByRole("button", { name: "Logout" }).count()).toBe(0);
  });

  it("sends a guest to login and back to the page they wanted", async () => {
    const { page } = await site.newPage();
    await page.goto("/profile");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?redirectTo=%2Fprofile");
    await page.getByText("Please log in to view profile").waitFor();
    await page.getByLabel("Username").fill(seeded.reader.username);
    await page.getByLabel("Password").fill(seeded.reader.password);
    await Promise.all([page.waitForURL((u) => u.pathname === "/profile"), page.getByRole("button", { name: "Login" }).click()]);
    await page.getByRole("heading", { level: 1, name: seeded.reader.username }).waitFor();
    await page.getByRole("button", { name: "Refresh Profile" }).click();
    await settle(page);
    expect(new URL(page.url()).pathname).toBe("/profile");
  });

  it("ends an expired session, and one the API rejects, on the login page", async () => {
    const { context, page } = await site.newPage();
    const setToken = async (ctx: BrowserContext, token: string) => {
      const serialized = await commitToken(webContext(site.apiUrl), token).catch(() => "");
      const value = serialized.split(";")[0]!.slice("inkwell_session=".length);
      await ctx.addCookies([{ name: "inkwell_session", value, url: site.url }]);
    };
    expect(SESSION_SECRET).toBe(webContext(site.apiUrl).config.sessionSecret);

    await setToken(context, tokenFor(seeded.reader, site.api.config.jwtSecret, -60));
    await page.goto("/hubs");
    await page.waitForURL((u) => u.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/hubs");
    await page.getByRole("banner").getByRole("link", { name: "Login" }).waitFor();

    await setToken(context, tokenFor(seeded.reader, "a-secret-the-api-does-not-know", 3600));
    await page.goto(postUrl());
    await page.waitForURL((u) => u.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(postUrl());
    expect((await context.cookies()).find((c) => c.name === "inkwell_session")).toBeUndefined();
  });
});

async function joinAndLike(page: Page, js: boolean) {
  const hydrated = () => (js ? page.locator("html[data-hydrated]").waitFor({ state: "attached" }) : Promise.resolve());
  const memberCount = () => text(page, "[data-testid=member-count]");
  const likeCount = () => text(page, ".like-button__count");

  await page.goto(hubUrl());
  await hydrated();
  expect(await memberCount()).toBe("2 members");
  await page.getByRole("button", { name: "Join Hub" }).click();
  await page.getByRole("button", { name: "Joined" }).waitFor();
  await settle(page);
  expect(await memberCount()).toBe("3 members");
  await page.reload();
  await page.getByRole("button", { name: "Joined" }).waitFor();
  expect(await memberCount()).toBe("3 members");

  await page.goto(postUrl());
  await hydrated();
  expect(await likeCount()).toBe("1");
  await page.getByRole("button", { name: "1 Like" }).click();
  await page.getByRole("button", { name: "2 Likes" }).waitFor();
  await settle(page);
  expect(await page.getByRole("button", { name: "2 Likes" }).getAttribute("aria-pressed")).toBe("true");
  await page.reload();
  await hydrated();
  expect(await page.getByRole("button", { name: "2 Likes" }).getAttribute("aria-pressed")).toBe("true");

  // And back.
  await page.getByRole("button", { name: "2 Likes" }).click();
  await page.getByRole("button", { name: "1 Like" }).waitFor();
  await page.getByRole("button", { name: "Leave Hub" }).click();
  await page.getByRole("button", { name: "Join Hub" }).waitFor();
  await settle(page);
  await page.reload();
  expect(await page.getByRole("button", { name: "1 Like" }).getAttribute("aria-pressed")).toBe("false");
  await page.getByRole("button", { name: "Join Hub" }).waitFor();
}

/** Holds the page's form posts (Remix's .data requests) until released. */
async function holdPosts(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const matcher = (u: URL) => u.pathname.endsWith(".data");
  await page.route(matcher, async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  return async () => {
    release();
    await settle(page);
    await page.unroute(matcher);
  };
}

describe("join and like", () => {
  it("works with JavaScript (optimistic), and survives a reload", async () => {
    await site.api.register("js_reader");
    const { page } = await site.newPage();
    await logIn(page, "js_reader", "secret123");
    await joinAndLike(page, true);
  });

  it("shows a toggle at once and rolls it back when the server refuses", async () => {
    await site.api.register("optimist");
    const { page } = await site.newPage();
    await logIn(page, "optimist", "secret123");
    await page.goto(postUrl());
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    // The new state shows while the request is still held.
    let release = await holdPosts(page);
    await page.getByRole("button", { name: "1 Like" }).click();
    await page.getByRole("button", { name: "2 Likes" }).waitFor();
    await release();
    expect(await page.getByRole("button", { name: "2 Likes" }).getAttribute("aria-pressed")).toBe("true");

    // Joining a hub that does not exist fails on the API: the button comes back, with no message.
    await page.locator("input[name=hubId]").evaluate((input: HTMLInputElement) => (input.value = "999999"));
    release = await holdPosts(page);
    await page.getByRole("button", { name: "Join Hub" }).click();
    await page.getByRole("button", { name: "Leave Hub" }).waitFor();
    await release();
    await page.getByRole("button", { name: "Join Hub" }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);

    // Leave the post as it was for the next test.
    await page.getByRole("button", { name: "2 Likes" }).click();
    await page.getByRole("button", { name: "1 Like" }).waitFor();
    await settle(page);
  });

  it("works without JavaScript (plain forms)", async () => {
    await site.api.register("nojs_reader");
    const { page } = await site.newPage({ javaScript: false });
    await logIn(page, "nojs_reader", "secret123", `/login?redirectTo=${encodeURIComponent(hubUrl())}`);
    expect(new URL(page.url()).pathname).toBe(hubUrl());
    await joinAndLike(page, false);
    // Search, sort and paging are links and GET forms too.
    await page.goto("/hubs");
    await page.getByRole("searchbox", { name: "Search hubs by name" }).fill("manga");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((u) => u.searchParams.get("q") === "manga");
    await page.getByRole("heading", { name: "Search Results" }).waitFor();
  });
});
