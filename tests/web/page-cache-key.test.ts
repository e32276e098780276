// The page cache's key is read from the request exactly as the render reads it (docs/web.md §10): a request whose
// cookies or headers the app reads one way must never be kept under the key of a request it reads another way
// (issue 27, item 4: a repeated cookie was read last-wins by the key and first-wins by the app).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../helpers/api.ts";
import { createSeriesWithChapter } from "../helpers/web-seed.ts";
import { postForm, startWebServer, type WebServer } from "../helpers/web-server.ts";

let site: WebServer;
let artist: TestUser;
const MATURE = "Night Ink Cache";
const PLAIN = "Day Ink Cache";
let plainId: number;
const seriesPath = `/series/${encodeURIComponent(MATURE)}`;
/** The mature cookie as the app writes it after Continue ("1", JSON in base64). */
const ACKNOWLEDGED = "inkwell_mature=IjEi";

beforeAll(async () => {
  site = await startWebServer();
  artist = await site.api.register("cache_key_artist");
  const series = await createSeriesWithChapter(site.api, artist, MATURE, "The First Stain", 200, false);
  const res = await site.api.request.put(`/series/${series.id}`).set(artist.auth).send({ name: MATURE, contentRating: "mature" });
  if (res.status !== 200) throw new Error(`make ${MATURE} mature: ${res.status} ${JSON.stringify(res.body)}`);
  plainId = (await createSeriesWithChapter(site.api, artist, PLAIN, "Morning", 100, false)).id;
}, 60_000);
afterAll(() => site?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(site.url + path, { headers, redirect: "manual" });
/** Whether a series page is the mature notice (its Continue link). */
const isNotice = (html: string) => html.includes("/mature?next=");

describe("the page cache's key", () => {
  it("keeps a series page rendered for a repeated mature cookie apart from the plain guest's", async () => {
    const poisoned = await get(seriesPath, { Cookie: `${ACKNOWLEDGED}; inkwell_mature=` });
    expect(poisoned.status).toBe(200);
    // The app reads the first of a repeated cookie: this visitor chose Continue and sees the series.
    expect(isNotice(await poisoned.text())).toBe(false);

    const guest = await get(seriesPath);
    expect(guest.status).toBe(200);
    expect(isNotice(await guest.text())).toBe(true);
    // A guest with the cookie set the other way round sees the notice too, from the cache or not.
    const other = await get(seriesPath, { Cookie: `inkwell_mature=; ${ACKNOWLEDGED}` });
    expect(isNotice(await other.text())).toBe(true);
  });

  it("keeps a mature chapter rendered for a repeated mature cookie apart from the plain guest's", async () => {
    const chapter = `${seriesPath}/1`;
    const poisoned = await get(chapter, { Cookie: `${ACKNOWLEDGED}; inkwell_mature=` });
    expect(poisoned.status).toBe(200);

    // A guest without the cookie is sent to the series page's notice, never served the kept chapter.
    const guest = await get(chapter);
    expect(guest.headers.get("x-page-cache")).not.toBe("hit");
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`${seriesPath}?next=${encodeURIComponent(chapter)}`);
  });

  it("shares a kept page between guests whose cookies the app reads alike", async () => {
    const first = await get(`${seriesPath}?sort=oldest`, { Cookie: ACKNOWLEDGED });
    const second = await get(`${seriesPath}?sort=oldest`, { Cookie: `${ACKNOWLEDGED}; inkwell_mature=` });
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(await second.text()).toBe(await first.text());
  });

  it("keeps a page rendered for another Host apart, even one that moves the path the render sees", async () => {
    const host = new URL(site.url).host;
    // Node accepts this Host header; a render's URL would be http://<host>/hubs?/series/..., the /hubs page.
    const odd = await rawGet(seriesPath, `${host}/hubs?`);
    expect(odd.status).toBeLessThan(500);
    const guest = await get(seriesPath);
    expect(isNotice(await guest.text())).toBe(true);
  });

  it("keeps a signed-in reader's prefetch of a chapter apart from their visit, which saves their progress", async () => {
    const reader = await site.api.register("cache_key_reader");
    const login = await postForm(site, "/login", { username: reader.username, password: reader.password });
    const session = login.headers.get("set-cookie")!.split(";")[0]!;
    const chapter = `/series/${encodeURIComponent(PLAIN)}/1`;
    // A prefetch only reads (app/lib/progress.server.ts isPrefetch): its render saves no progress.
    const prefetch = await get(chapter, { Cookie: session, "Sec-Purpose": "prefetch" });
    expect(prefetch.status).toBe(200);
    const visit = await get(chapter, { Cookie: session });
    expect(visit.headers.get("x-page-cache")).toBe("miss");
    const progress = await site.api.request.get(`/me/progress/${plainId}`).set(reader.auth);
    expect(progress.body.progress).toMatchObject({ chapterNumber: 1 });
  });
});

/** A GET with a Host header of our choosing (fetch would not send it). */
async function rawGet(path: string, host: string): Promise<{ status: number }> {
  const http = await import("node:http");
  const { port } = new URL(site.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, headers: { Host: host } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode! }));
    });
    req.on("error", reject);
    req.end();
  });
}
