// `npm run copy-site`: a SQLite site (the scale seed, plus an upload and a post through the API) copied into real
// PostgreSQL + S3 (Swift), then the API on the copy (with Redis) answers as the original did and keeps writing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { databaseFile, openDatabase, type Database } from "../../server/db/database.ts";
import { BucketImageFiles } from "../../server/images/bucket-storage.ts";
import { extensionOf, formatOf } from "../../server/images/image-formats.ts";
import { s3ObjectStore, type S3Settings } from "../../server/images/s3-storage.ts";
import { memorySharedState, redisSharedState, type SharedState } from "../../server/shared-state.ts";
import { counterMismatches } from "../../seed/counters.ts";
import { BIG_HUB_NAME, seedScale } from "../../seed/scale.ts";
import { copySite, COPIED_TABLES, SourceNotMigratedError, TargetNotEmptyError, type CopySiteResult } from "../../scripts/lib/copy-site.ts";
import { testConfig } from "../helpers/api.ts";
import { imageBytes } from "../helpers/images.ts";
import { freshDataDir } from "../helpers/test-data-dir.ts";
import { startServices, type RunningServices } from "../services/index.ts";

const COUNTS = { users: 60, hubs: 80, posts: 700, bigHubPosts: 300, series: 6, chapters: 40 };
const PASSWORD = "copy-site-1234";

interface Site {
  db: Database;
  shared: SharedState;
  request: supertest.Agent;
}

function siteOn(db: Database, dataDir: string, options: { s3?: S3Settings; redisUrl?: string } = {}): Site {
  const shared = options.redisUrl ? redisSharedState(options.redisUrl, { keyPrefix: "copy-site-test:" }) : memorySharedState();
  const app = createApp({ db, config: testConfig(dataDir, { s3: options.s3, responseCacheEntries: 0 }), shared });
  return { db, shared, request: supertest.agent(app) };
}

const encoded = (name: string) => encodeURIComponent(name);

let services: RunningServices;
let sourceDir: string;
let targetDir: string;
let source: Site;
let copy: Site;
let copied: CopySiteResult;
let s3: S3Settings;
let uploadedId: number;
let uploadedBytes: Buffer;
let token: string;

async function rowCounts(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COPIED_TABLES) {
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

beforeAll(async () => {
  const started = startServices({ bucket: "copied-site" });
  started.catch(() => {}); // awaited below; the seed runs meanwhile
  sourceDir = freshDataDir();
  const sourceDb = await openDatabase(sourceDir);
  await seedScale(sourceDb, sourceDir, COUNTS, { bcryptCost: 4, password: PASSWORD, now: Date.UTC(2025, 5, 1) });
  source = siteOn(sourceDb, sourceDir);

  // An upload (its row has a fileKey, unlike the seed's) and a post with it, through the API on SQLite.
  const login = await source.request.post("/auth/login").send({ username: "demo", password: PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  token = login.body.accessToken as string;
  uploadedBytes = await imageBytes("png", 64, 48);
  const upload = await source.request.post("/images").set("Authorization", `Bearer ${token}`).attach("file", uploadedBytes, "copy.png");
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  uploadedId = upload.body.id as number;
  const hub = await source.request.get(`/hubs/${encoded(BIG_HUB_NAME)}`);
  const demo = await source.request.get("/user/demo");
  const join = await source.request.post(`/user/${demo.body.id}/member-hubs/${hub.body.id}`).set("Authorization", `Bearer ${token}`);
  expect([200, 409]).toContain(join.status);
  const post = await source.request
    .post("/hub-posts")
    .set("Authorization", `Bearer ${token}`)
    .send({ title: "Copied with its image", content: `An image: ![page](/images/${uploadedId})`, description: "", hubId: hub.body.id });
  expect(post.status, JSON.stringify(post.body)).toBe(201);

  services = await started;
  s3 = {
    endpoint: services.s3.endpoint,
    region: services.s3.region,
    bucket: services.s3.bucket,
    accessKeyId: services.s3.accessKeyId,
    secretAccessKey: services.s3.secretAccessKey,
    forcePathStyle: true,
  };
  copied = await copySite({ fromDir: sourceDir, databaseUrl: services.postgres.url, s3, batchRows: 97, imageConcurrency: 4 });

  targetDir = fs.mkdtempSync(path.join(os.tmpdir(), "copy-site-target-"));
  copy = siteOn(await openDatabase(targetDir, services.postgres.url), targetDir, { s3, redisUrl: services.redis.url });
}, 240_000);

afterAll(async () => {
  for (const site of [copy, source]) {
    if (!site) continue;
    await site.db.close();
    await site.shared.close();
  }
  await services?.stop();
  for (const dir of [sourceDir, targetDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("copy-site", () => {
  it("copies every row of every table, with its id, and every image original", async () => {
    expect(copy.db.engine).toBe("postgres");
    const before = await rowCounts(source.db);
    expect(await rowCounts(copy.db)).toEqual(before);
    expect(copied.rows).toEqual(before);
    expect(before.Post).toBe(COUNTS.posts + 1);
    expect(copied.originals).toBe(before.Image);
    expect(copied.missingOriginals).toEqual([]);
    const ids = (db: Database) => db.kysely.selectFrom("Post").select(["id", "title", "likes", "date"]).orderBy("id").execute();
    expect(await ids(copy.db)).toEqual(await ids(source.db));
    expect(await counterMismatches(copy.db.kysely)).toEqual(await counterMismatches(source.db.kysely));
    expect(Object.values(await counterMismatches(copy.db.kysely)).every((n) => n === 0)).toBe(true);
  });

  it("answers lists, counts, a post and a search on the copy as the original does", async () => {
    const top = await source.request.get(`/hubs/${encoded(BIG_HUB_NAME)}/posts/latest?page=1&size=10`);
    const newest = (top.body as { content: { id: number }[] }).content[0]!.id;
    for (const url of [
      "/hubs?page=1",
      "/hubs?page=3",
      "/hubs/top?per_page=5",
      `/hubs/${encoded(BIG_HUB_NAME)}`,
      `/hubs/${encoded(BIG_HUB_NAME)}/posts/latest?page=1&size=10`,
      `/hubs/${encoded(BIG_HUB_NAME)}/posts/latest?page=20&size=10`,
      `/hubs/${encoded(BIG_HUB_NAME)}/posts/by-likes?page=2&size=10`,
      `/hubs/${encoded(BIG_HUB_NAME)}/${newest}`,
      "/series/top?per_page=10",
      "/user/demo",
    ]) {
      const [want, got] = await Promise.all([source.request.get(url), copy.request.get(url)]);
      expect(want.status, url).toBe(200);
      expect({ url, status: got.status, body: got.body }).toEqual({ url, status: 200, body: want.body });
    }
    const names = (res: supertest.Response) => (res.body as { content: { name: string }[] }).content.map((h) => h.name).sort();
    const [want, got] = await Promise.all([source.request.get("/hubs/search?name=ink"), copy.request.get("/hubs/search?name=ink")]);
    expect(names(got)).toEqual(names(want));
    expect(names(got).length).toBeGreaterThan(0);
  });

  it("serves the images' bytes from the bucket: a seeded original and an upload", async () => {
    const seeded = await copy.db.kysely
      .selectFrom("Image")
      .select(["id", "fileKey", "contentType"])
      .where("fileKey", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const format = formatOf(seeded.contentType);
    const onDisk = fs.readFileSync(path.join(sourceDir, "images", "originals", `${seeded.id}.${extensionOf(format)}`));
    const bucket = s3ObjectStore(s3);
    try {
      expect(Buffer.compare((await bucket.read(BucketImageFiles.objectName({ ...seeded, format })))!, onDisk)).toBe(0);
    } finally {
      bucket.close();
    }
    const seededAnswer = await getBytes(copy, `/images/${seeded.id}`);
    expect(seededAnswer.status).toBe(200);
    expect(Buffer.compare(seededAnswer.body as Buffer, onDisk)).toBe(0);

    const uploaded = await copy.db.kysely.selectFrom("Image").select(["fileKey"]).where("id", "=", uploadedId).executeTakeFirstOrThrow();
    expect(uploaded.fileKey).not.toBeNull();
    const [want, got] = await Promise.all([source, copy].map((site) => getBytes(site, `/images/${uploadedId}`)));
    expect(got!.status).toBe(200);
    expect(Buffer.compare(got!.body as Buffer, want!.body as Buffer)).toBe(0);
  });

  it("takes new writes with ids after the copied ones", async () => {
    const maxId = async (table: "Post" | "Image" | "User") =>
      Number(
        (
          await copy.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.max("id").as("id"))
            .executeTakeFirstOrThrow()
        ).id,
      );
    const [maxPost, maxImage, maxUser] = [await maxId("Post"), await maxId("Image"), await maxId("User")];
    expect(maxImage).toBe(uploadedId);
    const login = await copy.request.post("/auth/login").send({ username: "demo", password: PASSWORD });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.accessToken as string}` };
    const hub = await copy.request.get(`/hubs/${encoded(BIG_HUB_NAME)}`);
    const post = await copy.request
      .post("/hub-posts")
      .set(auth)
      .send({ title: "Written on PostgreSQL", content: "After the copy, a new post.", description: "", hubId: hub.body.id });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    expect(post.body.id).toBe(maxPost + 1);
    const image = await copy.request
      .post("/images")
      .set(auth)
      .attach("file", await imageBytes("png", 20, 20), "new.png");
    expect(image.status, JSON.stringify(image.body)).toBe(201);
    expect(image.body.id).toBe(maxImage + 1);
    const registered = await copy.request
      .post("/auth/register")
      .send({ username: "after_copy", email: "after_copy@example.com", password: "secret123" });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const user = await copy.request.get("/user/after_copy");
    expect(user.body.id).toBe(maxUser + 1);
    const hubAfter = await copy.request.get(`/hubs/${encoded(BIG_HUB_NAME)}`);
    expect(hubAfter.body.postCount).toBe(hub.body.postCount + 1);
  });

  it("refuses a target that already has rows, and writes nothing", async () => {
    const before = await rowCounts(copy.db);
    await expect(copySite({ fromDir: sourceDir, databaseUrl: services.postgres.url, s3 })).rejects.toThrow(TargetNotEmptyError);
    expect(await rowCounts(copy.db)).toEqual(before);
  });

  it("refuses a SQLite database written by an older version (a table missing) with a clear message, touching nothing", async () => {
    // A copy of the site's database file without the Block table, as a version before blocks left it.
    const olderDir = fs.mkdtempSync(path.join(os.tmpdir(), "copy-site-older-"));
    const admin = new pg.Client({ connectionString: services.postgres.url });
    await admin.connect();
    try {
      const reader = new BetterSqlite3(databaseFile(sourceDir), { readonly: true });
      reader.exec(`VACUUM INTO '${databaseFile(olderDir).replaceAll("'", "''")}'`);
      reader.close();
      const older = new BetterSqlite3(databaseFile(olderDir));
      older.exec('DROP TABLE "Block"');
      older.close();
      await admin.query('CREATE DATABASE "copy_site_older"');
      const url = new URL(services.postgres.url);
      url.pathname = "/copy_site_older";

      const attempt = copySite({ fromDir: olderDir, databaseUrl: url.toString(), s3: { ...s3, bucket: "copy-site-older" } });
      await expect(attempt).rejects.toThrow(SourceNotMigratedError);
      await expect(attempt).rejects.toThrow(
        "The SQLite database has no Block table: an older version of Inkwell wrote it. Start the site on it once (npm start migrates it), then copy it.",
      );
      // Not even migrated: no table, so no row of a partial copy.
      const target = new pg.Client({ connectionString: url.toString() });
      await target.connect();
      try {
        const { rows } = await target.query<{ n: string }>(
          "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()",
        );
        expect(Number(rows[0]!.n)).toBe(0);
      } finally {
        await target.end();
      }
      // The site's own copy is as it was.
      expect((await rowCounts(copy.db)).Block).toBe((await rowCounts(source.db)).Block);
    } finally {
      await admin.query('DROP DATABASE IF EXISTS "copy_site_older" WITH (FORCE)').catch(() => {});
      await admin.end();
      fs.rmSync(olderDir, { recursive: true, force: true });
    }
  });
});

/** GET of an image's bytes, as a Buffer. */
const getBytes = (site: Site, url: string) =>
  site.request
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });
