// kill -9 during writes: every acknowledged write survives, no image row lacks its file (or the
// reverse) once the start-up tidy ran, no temp files are left, and the database is intact.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { imageBytes, noisePng } from "../helpers/images.ts";
import { freePort, runScript, waitForHealth, type Running } from "./run-helpers.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-crash-"));
const imagesDir = path.join(dataDir, "images");
const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif" };

interface Api extends Running {
  url: string;
}

async function startApi(): Promise<Api> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = runScript(
    "server/main.ts",
    {
      DATA_DIR: dataDir,
      API_PORT: String(port),
      LOG_LEVEL: "warn",
      NODE_ENV: "development",
      BCRYPT_COST: "4",
      AUTH_RATE_LIMIT_PER_15_MIN: "0",
      UPLOAD_RATE_PER_HOUR: "0",
    },
    { oneProcess: true },
  );
  await waitForHealth(`${url}/health`, running, 30_000, 100);
  return { ...running, url };
}

/** What the API acknowledged (answered 2xx to): all of it must be there after the crash. */
let lastImage: { id: number; username: string } | undefined;
const acked = {
  users: [] as string[],
  hubs: [] as string[],
  posts: [] as number[],
  likes: [] as [string, number][],
  images: [] as number[],
};

async function writer(api: Api, name: string, images: Buffer[], stop: () => boolean): Promise<void> {
  const json = (method: string, p: string, body?: unknown, token?: string) =>
    fetch(`${api.url}${p}`, {
      method,
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  try {
    const reg = await json("POST", "/auth/register", { username: name, email: `${name}@example.com`, password: "secret123" });
    if (reg.status !== 201) throw new Error(`register ${reg.status}`);
    acked.users.push(name);
    const token = ((await reg.json()) as { accessToken: string }).accessToken;
    const hubName = `Hub ${name}`;
    const hub = await json("POST", "/hubs", { name: hubName, description: "crash" }, token);
    if (hub.status !== 201) throw new Error(`hub ${hub.status}`);
    acked.hubs.push(hubName);
    const hubId = ((await hub.json()) as { id: number }).id;
    const myPosts: number[] = [];
    for (let i = 0; !stop(); i++) {
      switch (i % 4) {
        case 0:
        case 2: {
          const form = new FormData();
          form.append("file", new Blob([images[i % images.length]! as BlobPart]), `p${i}.png`);
          const res = await fetch(`${api.url}/images`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
          if (res.status !== 201) throw new Error(`upload ${res.status}`);
          const id = ((await res.json()) as { id: number }).id;
          acked.images.push(id);
          lastImage = { id, username: name };
          break;
        }
        case 1: {
          const res = await json(
            "POST",
            "/hub-posts",
            { title: `Post ${i} of ${name}`, content: "Written before the crash.", hubId },
            token,
          );
          if (res.status !== 201) throw new Error(`post ${res.status}`);
          const id = ((await res.json()) as { id: number }).id;
          acked.posts.push(id);
          myPosts.push(id);
          break;
        }
        case 3: {
          const post = myPosts[myPosts.length - 1];
          if (post === undefined) break;
          const res = await json("POST", `/hubs/${encodeURIComponent(hubName)}/${post}/like`, undefined, token);
          if (res.status !== 200) throw new Error(`like ${res.status}`);
          acked.likes.push([name, post]);
          break;
        }
      }
    }
  } catch (err) {
    // The kill cuts requests in flight: those were never acknowledged.
    if (!stop()) throw err;
  }
}

function check() {
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const has = (sql: string, arg: unknown) => db.prepare(sql).get(arg) !== undefined;
    for (const u of acked.users) expect(has("SELECT 1 FROM User WHERE username = ?", u), `user ${u}`).toBe(true);
    for (const h of acked.hubs) expect(has("SELECT 1 FROM Hub WHERE name = ?", h), `hub ${h}`).toBe(true);
    for (const p of acked.posts) expect(has("SELECT 1 FROM Post WHERE id = ?", p), `post ${p}`).toBe(true);
    for (const i of acked.images) expect(has("SELECT 1 FROM Image WHERE id = ?", i), `image ${i}`).toBe(true);
    for (const [u, p] of acked.likes) {
      expect(
        db.prepare("SELECT 1 FROM PostLike l JOIN User u ON u.id = l.userId WHERE u.username = ? AND l.postId = ?").get(u, p),
        `like ${u} ${p}`,
      ).toBeDefined();
    }
    const rows = db.prepare("SELECT id, contentType FROM Image").all() as { id: number; contentType: string }[];
    const expected = new Set(rows.map((r) => `${r.id}.${EXTENSIONS[r.contentType]}`));
    const originals = fs.existsSync(path.join(imagesDir, "originals")) ? fs.readdirSync(path.join(imagesDir, "originals")) : [];
    expect(
      originals.filter((f) => !expected.has(f)),
      "files without a row",
    ).toEqual([]);
    expect(
      [...expected].filter((f) => !originals.includes(f)),
      "rows without a file",
    ).toEqual([]);
    const incoming = path.join(imagesDir, "incoming");
    expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : [], "temp files").toEqual([]);
    const all = fs.readdirSync(imagesDir, { recursive: true }) as string[];
    expect(
      all.filter((f) => f.endsWith(".tmp")),
      "temp files",
    ).toEqual([]);
    return rows.length;
  } finally {
    db.close();
  }
}

let api: Api | undefined;
let images: Buffer[];
beforeAll(async () => {
  fs.copyFileSync(path.join(inject("templateDataDir"), "app.db"), path.join(dataDir, "app.db"));
  images = [await noisePng(400, 300), await imageBytes("jpeg", 1200, 900), await noisePng(200, 200), await imageBytes("png", 300, 200)];
});
afterAll(async () => {
  if (api && api.child.exitCode === null) {
    api.child.kill("SIGTERM");
    await api.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("keeps every acknowledged write through three kill -9 during concurrent writes", async () => {
  api = await startApi();
  let imagesSeen = 0;
  for (let round = 0; round < 3; round++) {
    let stopped = false;
    const writers = Array.from({ length: 6 }, (_, w) => writer(api!, `crash_${round}_${w}`, images, () => stopped));
    // Once the writers are under way (an upload acknowledged this round), at a random moment.
    const imagesBefore = acked.images.length;
    const warmUntil = Date.now() + 20_000;
    while (acked.images.length === imagesBefore && Date.now() < warmUntil) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, Math.random() * 1500));
    stopped = true;
    api.child.kill("SIGKILL");
    await api.exited;
    await Promise.all(writers);

    const t0 = Date.now();
    api = await startApi();
    console.log(
      `round ${round}: restart ${Date.now() - t0} ms, acked so far`,
      JSON.stringify({ users: acked.users.length, posts: acked.posts.length, images: acked.images.length, likes: acked.likes.length }),
    );
    imagesSeen = check();
    // An acknowledged image reads back for its uploader.
    if (lastImage) {
      const login = await fetch(`${api.url}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: lastImage.username, password: "secret123" }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      expect((await fetch(`${api.url}/images/${lastImage.id}`, { headers: { Authorization: `Bearer ${accessToken}` } })).status).toBe(200);
    }
  }
  expect(acked.images.length).toBeGreaterThan(0);
  expect(acked.posts.length).toBeGreaterThan(0);
  expect(imagesSeen).toBeGreaterThanOrEqual(acked.images.length);
}, 180_000); // ~40 s on an idle 2-core machine: four starts of the API
