// The web server keeps pages while the API's data is unchanged (web/page-cache.ts), guests' for every guest and a
// signed-in visitor's for their session alone: hits must look exactly like fresh renders, no write may leave a stale
// page behind, and nobody may get another visitor's page. A kept page is sent as stored bytes (gzipped once), so its
// inline scripts are allowed by their hashes in its CSP instead of a per-response nonce.
import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { startSite, type Site } from "../helpers/site.ts";
import { createHub, createPost, createSeriesWithChapter, joinHub, upload } from "../helpers/web-seed.ts";
import { hashInlineScripts, NONCE_PLACEHOLDER } from "../../web/page-cache.ts";

let site: Site;
let artist: TestUser;
let hub: { id: number; name: string };

beforeAll(async () => {
  site = await startSite();
  artist = await site.api.register("cache_artist");
  hub = await createHub(site.api, artist, { name: "Cache Corner", description: "Kept pages" });
});
afterAll(() => site.close());

const get = (path: string, cookie?: string) => fetch(site.url + path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
/** The page without React's text separators (`<!-- -->`). */
const textOf = (html: string) => html.replaceAll("<!-- -->", "");
const nonceIn = (html: string) => /<script nonce="([^"]+)"/.exec(html)?.[1];
/** The page's inline scripts that run (not JSON-LD data), as the browser reads them. */
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script([^>]*)>([^<]*(?:<(?!\/script>)[^<]*)*)<\/script>/g)]
    .filter(([, attributes]) => !attributes!.includes("src=") && !attributes!.includes("application/ld+json"))
    .map(([, , code]) => code!);
const sha256 = (code: string) => `'sha256-${crypto.createHash("sha256").update(code).digest("base64")}'`;
const scriptSrc = (res: Response) =>
  res.headers
    .get("content-security-policy")!
    .split(";")
    .find((d) => d.startsWith("script-src "))!
    .split(" ")
    .slice(1);

/** A GET with exactly these headers (fetch would ask for gzip and decode it), and the body's bytes as sent. */
function rawGet(path: string, headers: Record<string, string>, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(site.url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("guest page cache", () => {
  it("serves a second view from the cache, the same page with its inline scripts allowed by their hashes", async () => {
    const first = await get("/hubs");
    const second = await get("/hubs");
    const [a, b] = [await first.text(), await second.text()];

    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(b).toBe(a);
    expect(nonceIn(b)).toBeUndefined();
    expect(inlineScripts(b).length).toBeGreaterThanOrEqual(3);
    expect([...scriptSrc(second)].sort()).toEqual(["'self'", ...new Set(inlineScripts(b).map(sha256))].sort());
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("answers gzip, identity and HEAD from the same kept bytes, and 304 to its ETag", async () => {
    await get("/hubs");
    const gzipped = await rawGet("/hubs", { "Accept-Encoding": "gzip, deflate, br" });
    const plain = await rawGet("/hubs", {});
    const brOnly = await rawGet("/hubs", { "Accept-Encoding": "br" });
    const head = await rawGet("/hubs", { "Accept-Encoding": "gzip" }, "HEAD");
    const revalidated = await rawGet("/hubs", { "Accept-Encoding": "gzip", "If-None-Match": gzipped.headers.etag! });

    expect([gzipped, plain, brOnly, head].map((r) => r.headers["x-page-cache"])).toEqual(["hit", "hit", "hit", "hit"]);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toContain("Accept-Encoding");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(brOnly.headers["content-encoding"]).toBeUndefined();
    expect(zlib.gunzipSync(gzipped.body).toString()).toBe(plain.body.toString());
    expect(brOnly.body.equals(plain.body)).toBe(true);
    expect(plain.body.toString()).toContain("<h1");
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    expect([head.status, head.body.length, head.headers["content-length"]]).toEqual([200, 0, String(gzipped.body.length)]);
    expect(head.headers["content-security-policy"]).toBe(gzipped.headers["content-security-policy"]);
    expect([revalidated.status, revalidated.body.length]).toEqual([304, 0]);
    expect(revalidated.headers.etag).toBe(gzipped.headers.etag);
  });

  it("runs the kept page's scripts under its CSP in a browser, and refuses an inline script that was changed", async () => {
    await get("/hubs");
    const context = await site.browser.newContext({ baseURL: site.url });
    try {
      await context.addInitScript(() => {
        const seen: string[] = ((window as unknown as { violations: string[] }).violations = []);
        document.addEventListener("securitypolicyviolation", (e) => seen.push(e.effectiveDirective));
      });
      const page = await context.newPage();
      const kept = await page.goto("/hubs");
      expect(await kept!.headerValue("x-page-cache")).toBe("hit");
      await page.waitForSelector("html[data-hydrated=true]");
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);

      // The same answer, one inline script changed by a byte: the browser must not run it.
      await page.route("**/hubs", async (route) => {
        const res = await route.fetch();
        const body = (await res.text()).replace("window.__remixContext = {", "window.__remixContext = { ");
        const { "content-encoding": _, "content-length": __, ...headers } = res.headers();
        await route.fulfill({ status: res.status(), headers, body });
      });
      const changed = await page.goto("/hubs");
      expect(await changed!.headerValue("x-page-cache")).toBe("hit");
      await vi.waitFor(
        async () =>
          expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toContain("script-src-elem"),
        { timeout: 5_000 },
      );
      expect(await page.evaluate(() => typeof (window as unknown as { __remixContext?: unknown }).__remixContext)).toBe("undefined");
    } finally {
      await context.close();
    }
  });

  it("renders again after any write: a new hub shows at once", async () => {
    await get("/hubs");
    const hit = await get("/hubs");
    expect(hit.headers.get("x-page-cache")).toBe("hit");

    await createHub(site.api, artist, { name: "Fresh Off The Press", description: "Just made" });
    const after = await get("/hubs");

    expect(after.headers.get("x-page-cache")).toBe("miss");
    expect(await after.text()).toContain("Fresh Off The Press");
  });

  it("shows a new post and its like on the hub page right after they are made", async () => {
    await get(`/hubs/${encodeURIComponent(hub.name)}`);
    const post = await createPost(site.api, artist, hub.id, { title: "Cached or not", content: "Only fresh pages here." });

    const page = await (await get(`/hubs/${encodeURIComponent(hub.name)}`)).text();

    expect(page).toContain("Cached or not");
    expect(post.id).toBeGreaterThan(0);
  });

  it("does not keep a page that is not found", async () => {
    await get("/hubs/No%20Such%20Hub");
    const again = await get("/hubs/No%20Such%20Hub");
    expect(again.status).toBe(404);
    expect(again.headers.get("x-page-cache")).toBe("miss");
  });

  it("keeps guests' pages apart by the reader-mode cookie, as the app reads it", async () => {
    await joinHub(site.api, artist, hub.id);
    await get("/series");
    const plain = await get("/series");
    // The cookie as the app writes it (JSON in base64): a choice of fit.
    const withMode = await get("/series", `inkwell_reader=${Buffer.from(JSON.stringify({ fit: "width" })).toString("base64")}`);
    // A cookie the app cannot read is no choice: the plain guest's page.
    const unreadable = await get("/series", "inkwell_reader=something");
    expect(plain.headers.get("x-page-cache")).toBe("hit");
    expect(withMode.headers.get("x-page-cache")).toBe("miss");
    expect(unreadable.headers.get("x-page-cache")).toBe("hit");
  });

  it("takes the placeholder out of nonce attributes only: a post holding it shows it as written", async () => {
    const oldPlaceholder = "inkwell-nonce-placeholder-5f0c1a";
    const content = `Mine: ${NONCE_PLACEHOLDER} and \`nonce="${NONCE_PLACEHOLDER}"\` and the old ${oldPlaceholder}`;
    const post = await createPost(site.api, artist, hub.id, { title: "Placeholder text", content });
    const path = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;

    for (const expected of ["miss", "hit"]) {
      const res = await get(path);
      const html = await res.text();
      expect(res.headers.get("x-page-cache")).toBe(expected);
      expect(html).toContain(`Mine: ${NONCE_PLACEHOLDER} and`);
      expect(html).toContain(`<code>nonce=&quot;${NONCE_PLACEHOLDER}&quot;</code>`);
      expect(html).toContain(`the old ${oldPlaceholder}`);
      expect(html).not.toContain(`nonce="`);
      expect([...scriptSrc(res)].sort()).toEqual(["'self'", ...new Set(inlineScripts(html).map(sha256))].sort());
    }
  });

  it("hashes only the scripts the render marked, as the browser parses them", () => {
    const marked = `<script nonce="${NONCE_PLACEHOLDER}">`;
    const html = `<p>a</p>${marked}one()\r\ntwo()</script><script>injected()</script><script nonce="${NONCE_PLACEHOLDER}" type="module" async="">three()</script>${marked}</script>`;

    const kept = hashInlineScripts(html);

    expect(kept.html).toBe(
      `<p>a</p><script>one()\r\ntwo()</script><script>injected()</script><script type="module" async="">three()</script><script></script>`,
    );
    expect(kept.hashes).toEqual([sha256("one()\ntwo()"), sha256("three()")]);
  });

  it("uses a placeholder nobody can guess", () => {
    expect(NONCE_PLACEHOLDER).toMatch(/^inkwell-nonce-[A-Za-z0-9_-]{24}$/);
  });
});

/** The session cookie of a sign-in through the login form, as a browser gets it. */
async function signIn(user: TestUser): Promise<string> {
  const login = await fetch(`${site.url}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
    body: new URLSearchParams({ username: user.username, password: user.password }),
    redirect: "manual",
  });
  return login.headers.get("set-cookie")!.split(";")[0]!;
}

describe("signed-in page cache", () => {
  it("keeps a signed-in visitor's page for their session alone: another user and guests never get it", async () => {
    const reader = await site.api.register("cache_reader");
    const [artistCookie, readerCookie] = [await signIn(artist), await signIn(reader)];

    const first = await get("/settings", artistCookie);
    const second = await get("/settings", artistCookie);
    const theirs = await get("/settings", readerCookie);
    const [rendered, kept, other] = [await first.text(), await second.text(), await theirs.text()];

    expect([first.headers.get("x-page-cache"), second.headers.get("x-page-cache")]).toEqual(["miss", "hit"]);
    expect(rendered).toContain(artist.email);
    expect(kept).toBe(rendered);
    expect([...scriptSrc(second)].sort()).toEqual(["'self'", ...new Set(inlineScripts(kept).map(sha256))].sort());
    expect(theirs.headers.get("x-page-cache")).toBe("miss");
    expect(other).toContain(reader.email);
    expect(other).not.toContain(artist.email);
    const guest = await get("/settings");
    expect(guest.status).toBe(302);
    // The same person signed in again elsewhere: another session, its own pages.
    expect((await get("/settings", await signIn(artist))).headers.get("x-page-cache")).toBe("miss");
  });

  it("renders again after the visitor's own reading progress moves, which the guests' pages do not show", async () => {
    const reader = await site.api.register("cache_progress");
    const cookie = await signIn(reader);
    const series = await createSeriesWithChapter(site.api, artist, "Kept Pages Saga", "The first", 200, false);
    const path = `/series/${encodeURIComponent(series.name)}`;
    await get(path, cookie);
    await get(path);
    const before = await get(path, cookie);
    expect(before.headers.get("x-page-cache")).toBe("hit");
    expect(textOf(await before.text())).not.toContain("Continue: Chapter 1, page 1");

    const saved = await site.api.request.put(`/me/progress/${series.id}`).set(reader.auth).send({ chapterNumber: 1, page: 1 });
    expect(saved.status).toBe(200);

    const after = await get(path, cookie);
    expect(after.headers.get("x-page-cache")).toBe("miss");
    expect(textOf(await after.text())).toContain("Continue: Chapter 1, page 1");
    expect((await get(path)).headers.get("x-page-cache")).toBe("hit");
  });

  it("shows a new unread notification once its job is done, and serves nothing after the session ends", async () => {
    const reader = await site.api.register("cache_bell");
    const cookie = await signIn(reader);
    const series = await createSeriesWithChapter(site.api, artist, "Bell Ringer", "One", 220, false);
    expect((await site.api.request.post(`/user/${reader.id}/followed-series/${series.id}`).set(reader.auth)).status).toBe(200);
    const unread = async () => /data-unread="(\d+)"/.exec(await (await get("/", cookie)).text())?.[1];
    expect(await unread()).toBe("0");

    const page = await upload(site.api, artist, 60, 90, 10);
    const chapter = await site.api.request
      .post(`/series/${encodeURIComponent(series.name)}/chapters`)
      .set(artist.auth)
      .send({ title: "Two", pages: [page] });
    expect(chapter.status).toBe(201);
    await vi.waitFor(async () => expect(await unread()).toBe("1"), { timeout: 10_000, interval: 100 });
    expect((await get("/", cookie)).headers.get("x-page-cache")).toBe("hit");

    const logout = await fetch(`${site.url}/logout`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: site.url, "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    const after = await get("/", cookie);
    expect(after.headers.get("x-page-cache")).not.toBe("hit");
    expect(await after.text()).not.toContain(`/user/${reader.username}`);
  });
});
