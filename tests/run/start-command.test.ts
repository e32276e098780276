// The README's start command, as a newcomer runs it: an empty data folder gets migrated, seeded once
// and served; SIGTERM stops it cleanly; a second start keeps everything and seeds nothing.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-start-"));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startSite(webPort: number, apiPort: number): Started {
  let output = "";
  // What `npm start` runs, without npm in between: npm itself dies of the signal instead of
  // reporting the site's exit code.
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(webPort),
      API_PORT: String(apiPort),
      LOG_LEVEL: "warn",
      NODE_ENV: "development",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(url: string, site: Started, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (site.child.exitCode !== null) throw new Error(`the site exited early:\n${site.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} never became healthy:\n${site.output()}`);
}

async function stop(site: Started): Promise<number | null> {
  site.child.kill("SIGTERM");
  return site.exited;
}

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
    expect(pkg.scripts.start).toBe("tsx scripts/start.ts");
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
