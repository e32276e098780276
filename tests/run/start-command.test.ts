// The README's start command, as a newcomer runs it: an empty data folder gets migrated, seeded once
// and served; SIGTERM stops it cleanly; a second start keeps everything and seeds nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, root, runScript, stop, waitForHealth } from "./run-helpers.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-start-"));

/** What `npm start` runs, without npm in between (see runScript). */
const startSite = (webPort: number, apiPort: number) =>
  runScript("scripts/start.ts", {
    DATA_DIR: dataDir,
    PORT: String(webPort),
    API_PORT: String(apiPort),
    LOG_LEVEL: "warn",
    NODE_ENV: "development",
  });

function rowCounts(): Record<string, number> {
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
    return Object.fromEntries(["User", "Hub", "Post", "Series", "Chapter", "ChapterPage", "Image", "PostLike"].map((t) => [t, count(t)]));
  } finally {
    db.close();
  }
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("npm start on an empty data folder", () => {
  it("is the command this test runs", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    expect(pkg.scripts.start).toBe("node scripts/start.ts");
  });

  let countsAfterFirstStart: Record<string, number>;

  it("migrates, seeds the demo, serves both apps, and stops on SIGTERM", async () => {
    const [webPort, apiPort] = [await freePort(), await freePort()];
    const site = startSite(webPort, apiPort);
    try {
      await waitForHealth(`http://127.0.0.1:${apiPort}/health`, site);
      await waitForHealth(`http://127.0.0.1:${webPort}/health`, site);

      const home = await (await fetch(`http://127.0.0.1:${webPort}/`)).text();
      expect(home).toContain("Latest Chapters");
      const chapterLinks = [...home.matchAll(/href="(\/series\/[^"/]+\/\d+)"/g)].map((m) => m[1]!);
      expect(chapterLinks.length).toBeGreaterThanOrEqual(5);

      // A chapter linked from home has pages whose images load.
      const [, seriesName, number] = /\/series\/([^/]+)\/(\d+)/.exec(chapterLinks[0]!)!;
      const chapter = await (await fetch(`http://127.0.0.1:${apiPort}/series/${seriesName}/${number}`)).json();
      expect(chapter.pages.length).toBeGreaterThanOrEqual(3);
      for (const page of chapter.pages) {
        const image = await fetch(`http://127.0.0.1:${apiPort}/images/${page.imageId}?w=640`);
        expect(image.status).toBe(200);
        expect(image.headers.get("content-type")).toMatch(/^image\//);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      }
      expect(site.output()).toContain("demo / demo1234");
      // Both apps in one process: the pages call the API in memory (docs/web.md §1).
      expect(site.output()).toContain("pages call the API in process (no HTTP)");
      expect(site.output()).toContain(`http://localhost:${webPort}`);
    } finally {
      const code = await stop(site);
      expect(code, site.output()).toBe(0);
    }
    countsAfterFirstStart = rowCounts();
    expect(countsAfterFirstStart).toMatchObject({ User: 20, Hub: 12, Post: 60, Series: 10, Chapter: 40 });
  }, 300_000); // seeding draws ~340 images: a minute on a busy 2-core machine

  it("keeps every row on a second start and seeds nothing twice", async () => {
    const [webPort, apiPort] = [await freePort(), await freePort()];
    const site = startSite(webPort, apiPort);
    try {
      await waitForHealth(`http://127.0.0.1:${webPort}/health`, site);
      const login = await fetch(`http://127.0.0.1:${apiPort}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: "demo", password: "demo1234" }),
      });
      expect(login.status).toBe(200);
      expect(site.output()).not.toContain("demo content added");
    } finally {
      expect(await stop(site)).toBe(0);
    }
    expect(rowCounts()).toEqual(countsAfterFirstStart);
  }, 120_000);
});
