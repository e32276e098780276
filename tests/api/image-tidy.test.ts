import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanUpload } from "../../server/images/image-formats.ts";
import { embeddedImageIds } from "../../server/images/image-refs.ts";
import { tidyImages } from "../../server/images/image-tidy.ts";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { imageBytes, uploadImage } from "../helpers/images.ts";

let api: TestApi;
let artist: TestUser;
// The tidy is the data folder's (a bucket has no renames to finish): images in the folder on either engine.
setUpSharedTestApi(
  ["tidy_artist"],
  (started, users) => {
    api = started;
    [artist] = users;
  },
  { s3: undefined },
);

describe("the start-up tidy of images/incoming", () => {
  it("rolls a committed upload forward, removes uploads without a row and every temp file, old ones included", async () => {
    const images = path.join(api.dataDir, "images");
    const id = await uploadImage(api, artist);
    const { fileKey } = await api.db.kysely.selectFrom("Image").select("fileKey").where("id", "=", id).executeTakeFirstOrThrow();
    const original = path.join(images, "originals", `${id}.png`);
    // A crash after the row was committed, before the rename: the file is still in incoming/.
    fs.renameSync(original, path.join(images, "incoming", `${fileKey}.png`));
    // A crash before the row: a staged file nothing names. And temp files, new and old style.
    fs.writeFileSync(path.join(images, "incoming", `${randomUUID()}.png`), "half an upload");
    fs.writeFileSync(path.join(images, "incoming", `${randomUUID()}.tmp`), "half a rendition");
    fs.mkdirSync(path.join(images, "w320"), { recursive: true });
    fs.writeFileSync(path.join(images, "originals", `77.png.${randomUUID()}.tmp`), "old temp");
    fs.writeFileSync(path.join(images, "w320", `77.png.${randomUUID()}.tmp`), "old temp");

    // Until the tidy moves it, its row is served from the durable staged file: never a row without its bytes.
    expect((await api.request.get(`/images/${id}`).set(artist.auth)).status).toBe(200);

    const report = await tidyImages(api.db, api.dataDir);

    expect(report).toEqual({ rolledForward: 1, removed: 4, rowsWithoutFile: 0 });
    expect(fs.existsSync(original)).toBe(true);
    expect(fs.readdirSync(path.join(images, "incoming"))).toEqual([]);
    expect(fs.readdirSync(path.join(images, "originals")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(fs.readdirSync(path.join(images, "w320"))).toEqual([]);
    expect((await api.request.get(`/images/${id}`).set(artist.auth)).status).toBe(200);
    expect(await tidyImages(api.db, api.dataDir)).toEqual({ rolledForward: 0, removed: 0, rowsWithoutFile: 0 });
  });

  it("removes an unused image row whose file is gone, so it no longer counts against the quota; a used one stays", async () => {
    const bytes = await imageBytes("png", 40, 30);
    // A quota of exactly one image: the row without a file keeps the next upload out until the tidy removes it.
    const quota = (await cleanUpload(bytes)).bytes.length;
    const own = await startTestApi({ s3: undefined, uploadQuotaBytes: quota });
    try {
      const [uploader, avatarOwner] = [await own.register(), await own.register()];
      const ghost = await uploadImage(own, uploader, bytes);
      const avatar = await uploadImage(own, avatarOwner, bytes);
      expect((await own.request.put(`/user/${avatarOwner.id}`).set(avatarOwner.auth).send({ profileImageID: avatar })).status).toBe(200);
      // Their files never became durable (what a crash can leave): neither in originals/ nor in incoming/.
      for (const id of [ghost, avatar]) fs.rmSync(path.join(own.dataDir, "images", "originals", `${id}.png`));
      expect((await own.request.get(`/images/metadata/${ghost}`).set(uploader.auth)).status).toBe(200);
      expectError(await own.request.post("/images").set(uploader.auth).attach("file", bytes, "next.png"), 413);

      const report = await tidyImages(own.db, own.dataDir);

      expect(report).toEqual({ rolledForward: 0, removed: 0, rowsWithoutFile: 1 });
      own.dataChanged();
      expectError(await own.request.get(`/images/metadata/${ghost}`).set(uploader.auth), 404);
      expect((await own.request.post("/images").set(uploader.auth).attach("file", bytes, "next.png")).status).toBe(201);
      // A published avatar is someone's profile: its row stays (its bytes answer 404) rather than break what uses it.
      expect((await own.request.get(`/images/metadata/${avatar}`)).status).toBe(200);
      // Rows are checked once: the next start looks only at rows added since.
      expect(await tidyImages(own.db, own.dataDir)).toEqual({ rolledForward: 0, removed: 0, rowsWithoutFile: 0 });
    } finally {
      await own.close();
    }
  });
});

describe("image URLs in markdown", () => {
  it("finds /images/{id} with or without an origin and ?w=, and nothing else", () => {
    const md = [
      "![a](http://localhost:8080/images/12)",
      "![b](/images/13?w=320)",
      "<https://cdn.example/images/14>",
      "![c](/images/metadata/15)",
      "![d](/images/16/other)",
      "![e](/images/017)",
      "![f](/images/12345678901)",
      "/images/",
      "![g](/images/18.png)",
    ].join(" ");

    expect(embeddedImageIds(md).sort((a, b) => a - b)).toEqual([12, 13, 14, 18]);
  });
});
