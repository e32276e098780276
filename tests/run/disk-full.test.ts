// A full disk: reads keep answering, writes answer 503 with the contract's body and change nothing,
// and once space is freed writes work again. On a real, small tmpfs (the tests run as root; a mount
// that fails fails the test).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { createApp } from "../../server/app.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { testConfig } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { imageBytes, noisePng } from "../helpers/images.ts";

const OUT_OF_SPACE = "The server is out of storage space. Please try again later.";
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "comics-full-"));
const filler = path.join(mountPoint, "filler");
let db: Database;
let app: ReturnType<typeof createApp>;
let auth: { Authorization: string };
let hub: { id: number; name: string };
let postId: number;
let imageId: number;

const count = async (table: "Hub" | "Post" | "Image" | "PostLike") =>
  (
    await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
  ).n;
const rowCounts = async () => ({
  hubs: await count("Hub"),
  posts: await count("Post"),
  images: await count("Image"),
  likes: await count("PostLike"),
});

/** Writes zeros until the file system refuses. */
function fillDisk() {
  const fd = fs.openSync(filler, "w");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    fs.closeSync(fd);
  }
}

beforeAll(async () => {
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mountPoint]);
  const dataDir = path.join(mountPoint, "data");
  fs.mkdirSync(dataDir);
  fs.copyFileSync(path.join(inject("templateDataDir"), "app.db"), path.join(dataDir, "app.db"));
  db = await openDatabase(dataDir);
  app = createApp({ db, config: testConfig(dataDir, { responseCacheEntries: 0 }) });
  const agent = supertest(app);
  const reg = await agent.post("/auth/register").send({ username: "full_disk", email: "full@example.com", password: "secret123" });
  auth = { Authorization: `Bearer ${reg.body.accessToken}` };
  hub = (await agent.post("/hubs").set(auth).send({ name: "Full Disk Hub", description: "x" })).body;
  postId = (
    await agent.post("/hub-posts").set(auth).send({ title: "Before the flood", content: "Written while there was room.", hubId: hub.id })
  ).body.id;
  imageId = (
    await agent
      .post("/images")
      .set(auth)
      .attach("file", await imageBytes("jpeg", 900, 600), "page.jpg")
  ).body.id;
  const me = (await agent.get("/user/full_disk").set(auth)).body;
  expect((await agent.put(`/user/${me.id}`).set(auth).send({ profileImageID: imageId })).status).toBe(200);
  // An empty write-ahead log: the next write needs new disk space.
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db.kysely);
  fillDisk();
}, 60_000);

afterAll(async () => {
  await db?.close();
  // libvips keeps recently read files open.
  sharp.cache(false);
  execFileSync("umount", [mountPoint]);
  fs.rmdirSync(mountPoint);
});

describe("with the disk full", () => {
  it("answers reads: lists, a post, an image and a rendition (served from memory)", async () => {
    const agent = supertest(app);
    expect((await agent.get("/hubs")).status).toBe(200);
    expect((await agent.get(`/hubs/${encodeURIComponent(hub.name)}/${postId}`)).status).toBe(200);
    expect((await agent.get(`/hubs/${encodeURIComponent(hub.name)}/${postId}`).set(auth)).status).toBe(200);
    expect((await agent.get(`/images/${imageId}`)).status).toBe(200);
    const rendition = await agent.get(`/images/${imageId}?w=320`);
    expect(rendition.status).toBe(200);
    expect(rendition.headers["content-type"]).toBe("image/jpeg");
  });

  it("answers 503 with the error body to writes, changing nothing", async () => {
    const agent = supertest(app);
    const before = await rowCounts();

    expectError(await agent.post("/hubs").set(auth).send({ name: "No Room Hub", description: "x" }), 503, OUT_OF_SPACE);
    expectError(
      await agent.post("/hub-posts").set(auth).send({ title: "No room at all", content: "This cannot be stored.", hubId: hub.id }),
      503,
      OUT_OF_SPACE,
    );
    expectError(await agent.put(`/hubs/${hub.id}`).set(auth).send({ name: hub.name, description: "changed" }), 503, OUT_OF_SPACE);
    expectError(await agent.post(`/hubs/${encodeURIComponent(hub.name)}/${postId}/like`).set(auth), 503, OUT_OF_SPACE);
    expectError(
      await agent
        .post("/images")
        .set(auth)
        .attach("file", await noisePng(300, 300), "big.png"),
      503,
      OUT_OF_SPACE,
    );

    expect(await rowCounts()).toEqual(before);
    expect((await agent.get(`/hubs/id/${hub.id}`)).body.description).toBe("x");
    const incoming = path.join(mountPoint, "data", "images", "incoming");
    expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
  });

  it("takes writes again once space is freed", async () => {
    fs.rmSync(filler);
    const agent = supertest(app);

    expect((await agent.post("/hubs").set(auth).send({ name: "Room Again Hub", description: "x" })).status).toBe(201);
    expect(
      (
        await agent
          .post("/images")
          .set(auth)
          .attach("file", await noisePng(300, 300), "big.png")
      ).status,
    ).toBe(201);
    expect((await agent.post(`/hubs/${encodeURIComponent(hub.name)}/${postId}/like`).set(auth)).status).toBe(200);
    expect((await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db.kysely)).rows).toEqual([{ integrity_check: "ok" }]);
  });
});
