// kill -9 during writes and uploads: every acknowledged write survives, every Image row has its bytes (its uploader
// reads metadata and bytes alike; issue 27 item 13), no file is left without its row, no temp files are left, and the
// database is intact. On SQLite with the data folder, and on PostgreSQL with an S3 bucket.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { BucketImageFiles } from "../../server/images/bucket-storage.ts";
import { tidyBucket } from "../../server/images/image-tidy.ts";
import { s3ObjectStore } from "../../server/images/s3-storage.ts";
import { imageBytes, noisePng } from "../helpers/images.ts";
import { startPostgres, startSwift, type RunningPostgres, type RunningSwift } from "../services/index.ts";
import { freePort, runScript, waitForHealth, type Running } from "./run-helpers.ts";

const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif" };

interface Api extends Running {
  url: string;
}

/** One configuration under test: its settings, its database and what its image store holds. */
interface Site {
  dataDir: string;
  env: Record<string, string>;
  /** Rows of a query written with `?` placeholders and quoted names (both engines read it). */
  rows<T>(query: string, ...args: unknown[]): Promise<T[]>;
  /** The store's own checks after the start-up: files without rows, temp files. */
  checkStore(images: { id: number; contentType: string; fileKey: string | null }[]): Promise<void>;
  /** Checks once the last API stopped. */
  afterLast?(): Promise<void>;
}

async function startApi(site: Site): Promise<Api> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = runScript("server/main.ts", {
    DATA_DIR: site.dataDir,
    API_PORT: String(port),
    LOG_LEVEL: "warn",
    NODE_ENV: "development",
    BCRYPT_COST: "4",
    AUTH_RATE_LIMIT_PER_15_MIN: "0",
    UPLOAD_RATE_PER_HOUR: "0",
    POST_RATE_PER_HOUR: "0", // writers under load post faster than a person (docs/api.md "Limits")
    ...site.env,
  });
  await waitForHealth(`${url}/health`, running, 60_000, 100);
  return { ...running, url };
}

/** What the API acknowledged (answered 2xx to): all of it must be there after the crash. */
interface Acked {
  users: string[];
  hubs: string[];
  posts: number[];
  likes: [string, number][];
  images: number[];
  /** Each user's token: the uploader reads its own images back. */
  tokens: Map<string, string>;
}

const newAcked = (): Acked => ({ users: [], hubs: [], posts: [], likes: [], images: [], tokens: new Map() });

/** `uploadsOnly`: a writer that does nothing but upload, for upload load during the kill. */
async function writer(api: Api, acked: Acked, name: string, images: Buffer[], stop: () => boolean, uploadsOnly: boolean): Promise<void> {
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
    acked.tokens.set(name, token);
    const hubName = `Hub ${name}`;
    const hub = await json("POST", "/hubs", { name: hubName, description: "crash" }, token);
    if (hub.status !== 201) throw new Error(`hub ${hub.status}`);
    acked.hubs.push(hubName);
    const hubId = ((await hub.json()) as { id: number }).id;
    const myPosts: number[] = [];
    for (let i = 0; !stop(); i++) {
      switch (uploadsOnly ? 0 : i % 4) {
        case 0:
        case 2: {
          const form = new FormData();
          form.append("file", new Blob([images[i % images.length]! as BlobPart]), `p${i}.png`);
          const res = await fetch(`${api.url}/images`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
          if (res.status !== 201) throw new Error(`upload ${res.status}`);
          acked.images.push(((await res.json()) as { id: number }).id);
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

/** After a restart: the acknowledged writes are there, and every Image row (acknowledged or not) is whole. */
async function check(site: Site, api: Api, acked: Acked): Promise<number> {
  const has = async (query: string, ...args: unknown[]) => (await site.rows(query, ...args)).length > 0;
  for (const u of acked.users) expect(await has(`SELECT 1 FROM "User" WHERE "username" = ?`, u), `user ${u}`).toBe(true);
  for (const h of acked.hubs) expect(await has(`SELECT 1 FROM "Hub" WHERE "name" = ?`, h), `hub ${h}`).toBe(true);
  for (const p of acked.posts) expect(await has(`SELECT 1 FROM "Post" WHERE "id" = ?`, p), `post ${p}`).toBe(true);
  for (const i of acked.images) expect(await has(`SELECT 1 FROM "Image" WHERE "id" = ?`, i), `image ${i}`).toBe(true);
  for (const [u, p] of acked.likes) {
    const like = `SELECT 1 FROM "PostLike" l JOIN "User" u ON u."id" = l."userId" WHERE u."username" = ? AND l."postId" = ?`;
    expect(await has(like, u, p), `like ${u} ${p}`).toBe(true);
  }
  const images = await site.rows<{ id: number; contentType: string; fileKey: string | null; username: string }>(
    `SELECT i."id", i."contentType", i."fileKey", u."username" FROM "Image" i JOIN "User" u ON u."id" = i."authorId" ORDER BY i."id"`,
  );
  // What the issue saw: a row whose metadata answers its uploader while its bytes are 404 (and count against the quota).
  const broken: string[] = [];
  for (const image of images) {
    const auth = { Authorization: `Bearer ${acked.tokens.get(image.username)}` };
    const metadata = await fetch(`${api.url}/images/metadata/${image.id}`, { headers: auth });
    const bytes = await fetch(`${api.url}/images/${image.id}`, { headers: auth });
    await Promise.all([metadata.arrayBuffer(), bytes.arrayBuffer()]);
    if (metadata.status !== 200 || bytes.status !== 200) broken.push(`${image.id}: metadata ${metadata.status}, bytes ${bytes.status}`);
  }
  expect(broken, "image rows without their bytes").toEqual([]);
  await site.checkStore(images);
  return images.length;
}

async function killCycles(site: Site, rounds: number): Promise<void> {
  const images = [
    await noisePng(400, 300),
    await imageBytes("jpeg", 1200, 900),
    await noisePng(200, 200),
    await imageBytes("png", 300, 200),
  ];
  const acked = newAcked();
  let api = await startApi(site);
  try {
    let imagesSeen = 0;
    for (let round = 0; round < rounds; round++) {
      let stopped = false;
      // Six writers of everything, and four that only upload: many uploads are in flight at the kill.
      const writers = Array.from({ length: 10 }, (_, w) => writer(api, acked, `crash_${round}_${w}`, images, () => stopped, w >= 6));
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
      api = await startApi(site);
      const restartMs = Date.now() - t0;
      imagesSeen = await check(site, api, acked);
      console.log(
        `round ${round}: restart ${restartMs} ms, acked so far`,
        JSON.stringify({ users: acked.users.length, posts: acked.posts.length, images: acked.images.length, rows: imagesSeen }),
      );
    }
    expect(acked.images.length).toBeGreaterThan(0);
    expect(acked.posts.length).toBeGreaterThan(0);
    expect(imagesSeen).toBeGreaterThanOrEqual(acked.images.length);
  } finally {
    if (api.child.exitCode === null) {
      api.child.kill("SIGTERM");
      await api.exited;
    }
  }
  await site.afterLast?.();
}

describe("on SQLite and the data folder", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-crash-"));
  const imagesDir = path.join(dataDir, "images");
  const site: Site = {
    dataDir,
    env: {},
    rows<T>(query: string, ...args: unknown[]) {
      const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
      try {
        return Promise.resolve(db.prepare(query).all(...args) as T[]);
      } finally {
        db.close();
      }
    },
    checkStore(images) {
      const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        db.close();
      }
      const expected = new Set(images.map((r) => `${r.id}.${EXTENSIONS[r.contentType]}`));
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
      return Promise.resolve();
    },
  };
  beforeAll(() => fs.copyFileSync(path.join(inject("templateDataDir"), "app.db"), path.join(dataDir, "app.db")));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("keeps every acknowledged write, and no image row without its file, through five kill -9 under uploads", async () => {
    await killCycles(site, 5);
  }, 300_000); // ~50 s on an idle 2-core machine: six starts of the API
});

describe("on PostgreSQL and an S3 bucket", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-crash-s3-"));
  let postgres: RunningPostgres | undefined;
  let swift: RunningSwift | undefined;
  let database: pg.Client | undefined;
  let s3: S3Client | undefined;
  const site: Site = {
    dataDir,
    env: {},
    async rows<T>(query: string, ...args: unknown[]) {
      let n = 0;
      return (
        await database!.query(
          query.replace(/\?/g, () => `$${++n}`),
          args,
        )
      ).rows as T[];
    },
    async checkStore(images) {
      const [objects, markers] = [await listObjects("originals/"), await listObjects("incoming/")];
      const expected = new Set(images.map((r) => `originals/${r.fileKey}.${EXTENSIONS[r.contentType]}`));
      expect(
        [...expected].filter((name) => !objects.includes(name)),
        "rows without an object",
      ).toEqual([]);
      // Uploads the kill cut before their row: each is marked, for the tidy once it is old enough (another instance's
      // upload in flight is never touched).
      const orphans = objects.filter((name) => !expected.has(name));
      expect(
        orphans.filter((name) => !markers.includes(name.replace(/^originals\//, "incoming/"))),
        "objects without a row or a marker",
      ).toEqual([]);
      cutUploads = orphans.length;
    },
    async afterLast() {
      const db = await openDatabase(dataDir, postgres!.url);
      const files = new BucketImageFiles(s3ObjectStore(s3Settings()));
      try {
        // At start and hourly the tidy leaves markers younger than ten minutes; with no API running, all of them go.
        expect((await tidyBucket(db, files)).removed).toBe(0);
        const report = await tidyBucket(db, files, { olderThanMs: 0 });
        console.log(`uploads cut before their row, in the bucket at the end: ${cutUploads}; tidied: ${report.removed}`);
        const images = await site.rows<{ fileKey: string; contentType: string }>(`SELECT "fileKey", "contentType" FROM "Image"`);
        expect((await listObjects("originals/")).sort()).toEqual(
          images.map((r) => `originals/${r.fileKey}.${EXTENSIONS[r.contentType]}`).sort(),
        );
        expect(await listObjects("incoming/"), "markers").toEqual([]);
      } finally {
        await db.close();
      }
    },
  };
  let cutUploads = 0;
  const s3Settings = () => ({
    endpoint: swift!.endpoint,
    region: swift!.region,
    bucket: swift!.bucket,
    accessKeyId: swift!.accessKeyId,
    secretAccessKey: swift!.secretAccessKey,
    forcePathStyle: true,
  });
  async function listObjects(prefix: string): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3!.send(new ListObjectsV2Command({ Bucket: swift!.bucket, Prefix: prefix, ContinuationToken: token }));
      names.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token);
    return names;
  }
  beforeAll(async () => {
    [postgres, swift] = await Promise.all([startPostgres(), startSwift({ bucket: "crash" })]);
    site.env = { ...postgres.env, ...swift.env };
    database = new pg.Client({ connectionString: postgres.url });
    await database.connect();
    s3 = new S3Client(swift.clientConfig());
  }, 180_000);
  afterAll(async () => {
    s3?.destroy();
    await database?.end();
    await Promise.all([postgres?.stop(), swift?.stop()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("keeps every acknowledged write, and no image row without its object, through five kill -9 under uploads", async () => {
    await killCycles(site, 5);
  }, 300_000);
});
