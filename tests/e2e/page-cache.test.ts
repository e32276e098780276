// The web server keeps guests' pages while the API's data is unchanged (web/page-cache.ts):
// hits must look exactly like fresh renders, and no write may leave a stale page behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { startSite, type Site } from "../helpers/site.ts";
import { createHub, createPost, joinHub } from "../helpers/web-seed.ts";
import { NONCE_PLACEHOLDER } from "../../web/page-cache.ts";

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
const nonceIn = (html: string) => /<script nonce="([^"]+)"/.exec(html)?.[1];

describe("guest page cache", () => {
  it("serves a second view from the cache, identical but for a fresh nonce that matches its CSP", async () => {
    const first = await get("/hubs");
    const second = await get("/hubs");
    const [a, b] = [await first.text(), await second.text()];

    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(nonceIn(a)).toBeTruthy();
    expect(nonceIn(b)).not.toBe(nonceIn(a));
    expect(b.replaceAll(nonceIn(b)!, "N")).toBe(a.replaceAll(nonceIn(a)!, "N"));
    expect(second.headers.get("content-security-policy")).toContain(`'nonce-${nonceIn(b)}'`);
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

  it("never keeps a signed-in visitor's page", async () => {
    const login = await fetch(`${site.url}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
      body: new URLSearchParams({ username: artist.username, password: artist.password }),
      redirect: "manual",
    });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;

    const first = await get("/hubs", cookie);
    const second = await get("/hubs", cookie);

    expect(first.headers.get("x-page-cache")).toBeNull();
    expect(second.headers.get("x-page-cache")).toBeNull();
    expect(await second.text()).toContain(`/user/${artist.username}`);
  });

  it("does not keep a page that is not found", async () => {
    await get("/hubs/No%20Such%20Hub");
    const again = await get("/hubs/No%20Such%20Hub");
    expect(again.status).toBe(404);
    expect(again.headers.get("x-page-cache")).toBe("miss");
  });

  it("keeps guests' pages apart by the reader-mode cookie", async () => {
    await joinHub(site.api, artist, hub.id);
    await get("/series");
    const plain = await get("/series");
    const withMode = await get("/series", "inkwell_reader=something");
    expect(plain.headers.get("x-page-cache")).toBe("hit");
    expect(withMode.headers.get("x-page-cache")).toBe("miss");
  });

  it("puts the nonce only in nonce attributes: a post holding the placeholder shows it as written", async () => {
    const oldPlaceholder = "inkwell-nonce-placeholder-5f0c1a";
    const content = `Mine: ${NONCE_PLACEHOLDER} and \`nonce="${NONCE_PLACEHOLDER}"\` and the old ${oldPlaceholder}`;
    const post = await createPost(site.api, artist, hub.id, { title: "Placeholder text", content });
    const path = `/hubs/${encodeURIComponent(hub.name)}/${post.id}`;

    for (const expected of ["miss", "hit"]) {
      const res = await get(path);
      const html = await res.text();
      const nonce = nonceIn(html)!;
      expect(res.headers.get("x-page-cache")).toBe(expected);
      expect(html).toContain(`Mine: ${NONCE_PLACEHOLDER} and`);
      expect(html).toContain(`the old ${oldPlaceholder}`);
      expect(html.split(nonce).length - 1).toBe(html.split(`nonce="${nonce}"`).length - 1);
    }
  });

  it("uses a placeholder nobody can guess", () => {
    expect(NONCE_PLACEHOLDER).toMatch(/^inkwell-nonce-[A-Za-z0-9_-]{24}$/);
  });
});
