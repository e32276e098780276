import sharp from "sharp";
import supertest from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { countRows, createHub, createPost } from "../helpers/fixtures.ts";
import { RENDITION_WIDTHS } from "../../server/rules/images.ts";
import { imageBytes, keptImageBytes, noisePng, removeKeptOriginal, uploadImage, type Format } from "../helpers/images.ts";
import { storedImageReader } from "../helpers/stored-images.ts";

let api: TestApi;
let artist: TestUser;
setUpSharedTestApi(["image_artist"], (started, users) => {
  api = started;
  [artist] = users;
});

const imageRows = () => countRows(api, "Image");

/** A GET of image bytes by their uploader, buffered whatever the content type. */
const getBytes = (url: string) =>
  api.request
    .get(url)
    .set(artist.auth)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });

describe("POST /images", () => {
  it.each<[Format, string]>([
    ["jpeg", "image/jpeg"],
    ["png", "image/png"],
    ["webp", "image/webp"],
    ["gif", "image/gif"],
  ])("accepts a %s and answers 201 with its metadata", async (format, contentType) => {
    const bytes = await imageBytes(format, 64, 48);

    const res = await api.request.post("/images").set(artist.auth).attach("file", bytes, `drawing.${format}`);

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      fileName: `drawing.${format}`,
      contentType,
      size: expect.any(Number),
      width: 64,
      height: 48,
      authorId: artist.id,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(res.body.size).toBeGreaterThan(0);
  });

  it("judges the type by the bytes: a PNG named .jpg and sent as image/jpeg is image/png", async () => {
    const png = await imageBytes("png");

    const res = await api.request
      .post("/images")
      .set(artist.auth)
      .attach("file", png, { filename: "photo.jpg", contentType: "image/jpeg" });

    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe("image/png");
    const served = await getBytes(`/images/${res.body.id}`);
    expect(served.headers["content-type"]).toBe("image/png");
  });

  it("keeps only the base name of a path-like file name", async () => {
    const res = await api.request
      .post("/images")
      .set(artist.auth)
      .attach("file", await imageBytes(), "../../etc/ñandú 🐦.png");

    expect(res.status).toBe(201);
    expect(res.body.fileName).toBe("ñandú 🐦.png");
  });

  const unsupported: [string, () => Promise<Buffer> | Buffer, string][] = [
    ["a text file named .png", () => Buffer.from("this is not an image, just text"), "notes.png"],
    [
      "an SVG",
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'),
      "logo.svg",
    ],
    ["an SVG named .png", () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), "logo.png"],
    [
      "a truncated JPEG",
      async () => {
        const jpeg = await imageBytes("jpeg", 400, 300);
        return jpeg.subarray(0, Math.floor(jpeg.length / 2));
      },
      "cut.jpg",
    ],
    ["the first bytes of a JPEG only", async () => (await imageBytes("jpeg", 400, 300)).subarray(0, 100), "header.jpg"],
    [
      "a TIFF",
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
          .tiff()
          .toBuffer(),
      "scan.tiff",
    ],
    ["an empty file", () => Buffer.alloc(0), "empty.png"],
  ];
  it.each(unsupported)("answers 415 for %s and stores nothing", async (_what, bytes, name) => {
    const before = await imageRows();

    const res = await api.request
      .post("/images")
      .set(artist.auth)
      .attach("file", await bytes(), name);

    expectError(res, 415);
    expect(await imageRows()).toBe(before);
  });

  it("answers 413 for a file over the upload limit", async () => {
    const small = await startTestApi({ uploadMaxBytes: 50_000 });
    try {
      const user = await small.register("big_uploader");
      const big = await noisePng(200, 200);
      expect(big.length).toBeGreaterThan(50_000);

      const res = await small.request.post("/images").set(user.auth).attach("file", big, "big.png");

      expectError(res, 413);
      expect(await countRows(small, "Image")).toBe(0);
    } finally {
      await small.close();
    }
  });

  it("answers 400 without a file", async () => {
    const res = await api.request.post("/images").set(artist.auth).field("title", "no file here");

    expectFieldError(res, "file");
  });

  it("answers 400 for a file in another field", async () => {
    const res = await api.request
      .post("/images")
      .set(artist.auth)
      .attach("image", await imageBytes(), "a.png");

    expectError(res, 400);
  });

  it("answers 400 for two files", async () => {
    const png = await imageBytes();

    const res = await api.request.post("/images").set(artist.auth).attach("file", png, "a.png").attach("file", png, "b.png");

    expectError(res, 400);
  });

  const part = (disposition: string, content: string) => `--XX\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${content}\r\n`;
  it.each<[string, string, string]>([
    ["without a boundary", "multipart/form-data", "abc"],
    ["that is empty", "multipart/form-data; boundary=XX", ""],
    ["that is not multipart at all", "multipart/form-data; boundary=XX", "garbage"],
    ["that never ends", "multipart/form-data; boundary=XX", part('name="file"; filename="a.png"', "abc").slice(0, -2)],
    ["with a part header that is not a header", "multipart/form-data; boundary=XX", "--XX\r\nnot a header\r\n\r\nabc\r\n--XX--\r\n"],
    ["with a part that has no name", "multipart/form-data; boundary=XX", `${part('filename="a.png"', "abc")}--XX--\r\n`],
    [
      "with too many fields",
      "multipart/form-data; boundary=XX",
      `${Array.from({ length: 20 }, (_x, i) => part(`name="f${i}"`, "v")).join("")}--XX--\r\n`,
    ],
    ["with a 2 MB text field", "multipart/form-data; boundary=XX", `${part('name="note"', "v".repeat(2_000_000))}--XX--\r\n`],
  ])("answers 400 for a multipart body %s, storing nothing", async (_what, contentType, body) => {
    const before = await imageRows();

    const res = await api.request.post("/images").set(artist.auth).set("Content-Type", contentType).send(body);

    expectError(res, 400);
    expect(await imageRows()).toBe(before);
  });

  it("answers 415 for a JSON body", async () => {
    const res = await api.request.post("/images").set(artist.auth).send({ file: "aGVsbG8=" });

    expectError(res, 415);
  });

  it("answers 401 without a token, storing nothing", async () => {
    const before = await imageRows();

    const res = await api.request.post("/images").attach("file", await imageBytes(), "a.png");

    expectError(res, 401);
    expect(await imageRows()).toBe(before);
  });

  it("never answers 5xx to random multipart uploads", async () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const png = await imageBytes("png");
    const bytes = () =>
      pick([
        () => Buffer.from(Array.from({ length: Math.floor(random() * 2000) }, () => Math.floor(random() * 256))),
        () => Buffer.concat([png.subarray(0, 8), Buffer.from(Array.from({ length: 200 }, () => Math.floor(random() * 256)))]),
        () => png.subarray(0, Math.floor(random() * png.length)),
        () => png,
      ])();
    const names = ["a.png", "", ".png", "../../x.png", "名前.gif", "x".repeat(300), "a\\b.jpg", "%00.png", 'a"b.png'];
    const fields = ["file", "file", "file", "File", "image", "file[]", "files"];

    for (let round = 0; round < 100; round++) {
      const req = api.request.post("/images").set(artist.auth);
      if (random() < 0.3) req.field(pick(["title", "file", "x"]), pick(["v", "", "x".repeat(5000)]));
      const res = await req.attach(pick(fields), bytes(), {
        filename: pick(names),
        contentType: pick(["image/png", "image/jpeg", "text/plain", "application/octet-stream"]),
      });

      expect(res.status, `round ${round}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expectError(res, res.status);
    }
  });

  it("strips EXIF, GPS included, from the stored bytes", async () => {
    const withGps = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#888" } })
      .jpeg()
      .withExif({
        IFD0: { Copyright: "Artist" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
      })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();

    const id = await uploadImage(api, artist, withGps, "geotagged.jpg");
    const served = await getBytes(`/images/${id}`);

    const meta = await sharp(served.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(served.body.includes(Buffer.from("GPS"))).toBe(false);
  });
});

describe("GET /images/{id}", () => {
  let jpegId: number;
  beforeAll(async () => {
    jpegId = await uploadImage(api, artist, await imageBytes("jpeg", 1000, 600), "wide.jpg");
    // Published (an avatar), so anyone may read and cache it (tests/api/image-privacy.test.ts has the rest).
    expect((await api.request.put(`/user/${artist.id}`).set(artist.auth).send({ profileImageID: jpegId })).status).toBe(200);
  });

  it("serves the bytes with the right Content-Type and a bounded public cache (never immutable: it can be withdrawn)", async () => {
    const res = await getBytes(`/images/${jpegId}`);

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["cache-control"]).toBe("public, max-age=300, must-revalidate");
    const meta = await sharp(res.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1000, 600]);
  });

  it.each<[Format, string]>([
    ["png", "image/png"],
    ["webp", "image/webp"],
    ["gif", "image/gif"],
  ])("serves a %s as %s", async (format, contentType) => {
    const id = await uploadImage(api, artist, await imageBytes(format), `x.${format}`);

    const res = await getBytes(`/images/${id}`);

    expect(res.headers["content-type"]).toBe(contentType);
    expect((await sharp(res.body).metadata()).format).toBe(format);
  });

  it("serves a narrower rendition for ?w=300 and keeps it where the originals are (data folder or bucket)", async () => {
    const res = await getBytes(`/images/${jpegId}?w=300`);

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["cache-control"]).toBe("public, max-age=300, must-revalidate");
    const meta = await sharp(res.body).metadata();
    expect(meta.width).toBeGreaterThanOrEqual(300);
    expect(meta.width).toBeLessThanOrEqual(320);
    const kept = await keptImageBytes(
      api,
      jpegId,
      RENDITION_WIDTHS.find((w) => w >= 300),
    );
    expect(kept?.equals(res.body)).toBe(true);
  });

  it("serves the same rendition bytes the second time", async () => {
    const first = await getBytes(`/images/${jpegId}?w=480`);

    const second = await getBytes(`/images/${jpegId}?w=480`);

    expect(second.body.equals(first.body)).toBe(true);
  });

  it("answers 304 to a conditional GET with the image's ETag", async () => {
    const first = await getBytes(`/images/${jpegId}?w=640`);
    expect(first.headers.etag).toMatch(/^"/);

    const again = await supertest(api.app).get(`/images/${jpegId}?w=640`).set("If-None-Match", first.headers.etag!);

    expect(again.status).toBe(304);
    expect(again.text ?? "").toBe("");
  });

  it("serves the original when the requested width is not narrower", async () => {
    const original = await getBytes(`/images/${jpegId}`);

    const res = await getBytes(`/images/${jpegId}?w=4096`);

    expect(res.body.equals(original.body)).toBe(true);
  });

  it.each(["0", "abc", "99999", "-5", "1.5", "", "4097"])("answers 400 for w=%s", async (w) => {
    const res = await api.request.get(`/images/${jpegId}?w=${w}`);

    expectFieldError(res, "w");
  });

  it.each<Format>(["png", "webp", "gif"])("serves a narrower %s rendition in the same format", async (format) => {
    const id = await uploadImage(api, artist, await imageBytes(format, 800, 400), `wide.${format}`);

    const res = await getBytes(`/images/${id}?w=160`);

    const meta = await sharp(res.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([format, 160, 80]);
  });

  it("keeps every frame of an animated GIF in a rendition", async () => {
    const frames = await Promise.all(
      ["#f00", "#0f0", "#00f"].map((c) =>
        sharp({ create: { width: 600, height: 300, channels: 3, background: c } })
          .png()
          .toBuffer(),
      ),
    );
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const id = await uploadImage(api, artist, animated, "anim.gif");

    const res = await getBytes(`/images/${id}?w=300`);

    const meta = await sharp(res.body, { animated: true }).metadata();
    expect([meta.pages, meta.width, meta.pageHeight]).toEqual([3, 320, 160]);
  });

  it("answers 404 without the file's path when the stored file is gone", async () => {
    const id = await uploadImage(api, artist, await imageBytes("png"), "doomed.png");
    await removeKeptOriginal(api, id);

    const res = await api.request.get(`/images/${id}`).set(artist.auth);

    expectError(res, 404, "Image not found");
  });

  it("answers 404 for an unknown id", async () => {
    const res = await api.request.get("/images/999999");

    expectError(res, 404, "Image not found");
  });

  it.each(["abc", "0", "-1", "1.5", "99999999999999999999"])("answers 400 for the id %s", async (id) => {
    const res = await api.request.get(`/images/${id}`);

    expectFieldError(res, "id");
  });
});

// What Chrome and Firefox send for an <img>.
const BROWSER_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

/** RIFF....WEBP: the first twelve bytes of a WebP file. */
const isWebp = (bytes: Buffer) => bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP";

const varied = (res: { headers: Record<string, string | undefined> }) => (res.headers.vary ?? "").split(",").map((name) => name.trim());

/** Frames of three colours as one animated image (GIF or WebP). */
async function animatedImage(format: "gif" | "webp"): Promise<Buffer> {
  const frames = await Promise.all(
    ["#f00", "#0f0", "#00f"].map((c) =>
      sharp({ create: { width: 600, height: 300, channels: 3, background: c } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .toFormat(format)
    .toBuffer();
}

describe("GET /images/{id}?w= as WebP for clients whose Accept lists image/webp", () => {
  let pngId: number;
  beforeAll(async () => {
    pngId = await uploadImage(api, artist, await imageBytes("png", 1000, 600), "page.png");
  });

  it("serves a PNG's rendition as WebP, with Vary: Accept, and keeps it beside the PNG renditions", async () => {
    const res = await getBytes(`/images/${pngId}?w=300`).set("Accept", BROWSER_ACCEPT);

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/webp");
    expect(varied(res)).toContain("Accept");
    expect(isWebp(res.body)).toBe(true);
    const meta = await sharp(res.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 192]);
    expect((await keptImageBytes(api, pngId, 320, "webp"))?.equals(res.body)).toBe(true);
    expect(await keptImageBytes(api, pngId, 320)).toBeNull();
  });

  it.each([
    ["no Accept", undefined],
    ["*/*", "*/*"],
    ["image/*", "image/*"],
    ["image/png", "image/png"],
    ["image/webp;q=0", "image/png, image/webp;q=0"],
  ])("serves the PNG's rendition as PNG, with Vary: Accept, to %s", async (_what, accept) => {
    const get = getBytes(`/images/${pngId}?w=480`);
    const res = await (accept === undefined ? get : get.set("Accept", accept));

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(varied(res)).toContain("Accept");
    const meta = await sharp(res.body).metadata();
    expect([meta.format, meta.width]).toEqual(["png", 480]);
  });

  it("serves a JPEG's rendition as WebP too (the type matched in any case, with a quality)", async () => {
    const id = await uploadImage(api, artist, await imageBytes("jpeg", 800, 400), "page.jpg");

    const res = await getBytes(`/images/${id}?w=160`).set("Accept", "image/jpeg, Image/WebP;q=0.5");

    expect(res.headers["content-type"]).toBe("image/webp");
    expect(isWebp(res.body)).toBe(true);
    expect((await sharp(res.body).metadata()).width).toBe(160);
  });

  it("gives the WebP and the PNG rendition different ETags", async () => {
    const png = await getBytes(`/images/${pngId}?w=640`);
    const webp = await getBytes(`/images/${pngId}?w=640`).set("Accept", BROWSER_ACCEPT);

    const revalidated = await getBytes(`/images/${pngId}?w=640`).set("Accept", BROWSER_ACCEPT).set("If-None-Match", png.headers.etag!);

    expect(webp.headers.etag).not.toBe(png.headers.etag);
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers["content-type"]).toBe("image/webp");
  });

  it("serves the original unchanged and without Vary: Accept, whatever the Accept", async () => {
    const res = await getBytes(`/images/${pngId}`).set("Accept", BROWSER_ACCEPT);

    expect(res.headers["content-type"]).toBe("image/png");
    expect(varied(res)).not.toContain("Accept");
    expect(res.body.equals((await keptImageBytes(api, pngId))!)).toBe(true);
  });

  it("serves a WebP of the whole image for a width not narrower than it, and the original to other clients", async () => {
    const id = await uploadImage(api, artist, await imageBytes("png", 400, 200), "small.png");

    const webp = await getBytes(`/images/${id}?w=1600`).set("Accept", BROWSER_ACCEPT);
    const png = await getBytes(`/images/${id}?w=1600`).set("Accept", "*/*");

    const meta = await sharp(webp.body).metadata();
    expect([webp.headers["content-type"], meta.format, meta.width, meta.height]).toEqual(["image/webp", "webp", 400, 200]);
    // Kept once, under the first rendition width not narrower than the original.
    expect((await keptImageBytes(api, id, 480, "webp"))?.equals(webp.body)).toBe(true);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.body.equals((await keptImageBytes(api, id))!)).toBe(true);
  });

  it.each<["gif" | "webp", string]>([
    ["gif", "image/gif"],
    ["webp", "image/webp"],
  ])("keeps an animated %s's rendition in its own format, every frame", async (format, contentType) => {
    const id = await uploadImage(api, artist, await animatedImage(format), `anim.${format}`);

    const res = await getBytes(`/images/${id}?w=300`).set("Accept", BROWSER_ACCEPT);

    expect(res.headers["content-type"]).toBe(contentType);
    expect(varied(res)).toContain("Accept");
    const meta = await sharp(res.body, { animated: true }).metadata();
    expect([meta.format, meta.pages, meta.width]).toEqual([format, 3, 320]);
  });

  it("serves a GIF's rendition as GIF", async () => {
    const id = await uploadImage(api, artist, await imageBytes("gif", 800, 400), "still.gif");

    const res = await getBytes(`/images/${id}?w=160`).set("Accept", BROWSER_ACCEPT);

    expect(res.headers["content-type"]).toBe("image/gif");
    expect((await sharp(res.body).metadata()).format).toBe("gif");
  });

  it("serves a second request from the kept WebP rendition (the original is not read again)", async () => {
    const id = await uploadImage(api, artist, await imageBytes("png", 800, 400), "kept.png");
    const first = await getBytes(`/images/${id}?w=160`).set("Accept", BROWSER_ACCEPT);
    await removeKeptOriginal(api, id);

    // w=150 snaps to the same 160 but is not the same entry of the in-memory cache.
    const second = await getBytes(`/images/${id}?w=150`).set("Accept", BROWSER_ACCEPT);

    expect(second.status).toBe(200);
    expect(second.headers["content-type"]).toBe("image/webp");
    expect(second.body.equals(first.body)).toBe(true);
  });

  it("deletes the WebP renditions with the image (data folder or bucket)", async () => {
    const id = await uploadImage(api, artist, await imageBytes("png", 800, 400), "doomed.png");
    const hub = await createHub(api, artist);
    const post = await createPost(api, artist, hub.id, { content: `![a](http://localhost/images/${id})` });
    expect((await getBytes(`/images/${id}?w=160`).set("Accept", BROWSER_ACCEPT)).headers["content-type"]).toBe("image/webp");
    expect((await getBytes(`/images/${id}?w=160`)).headers["content-type"]).toBe("image/png");
    const webp = await storedImageReader(api, id, 160, "webp");
    const png = await storedImageReader(api, id, 160);
    const original = await storedImageReader(api, id);
    expect(await webp()).not.toBeNull();
    expect(await png()).not.toBeNull();

    await api.request.delete(`/hub-posts/${post.id}`).set(artist.auth).expect(200);

    // The release job deletes the files, then the row.
    const row = () => api.db.kysely.selectFrom("Image").select("id").where("id", "=", id).executeTakeFirst();
    await expect.poll(async () => (await row()) ?? null, { timeout: 10_000 }).toBeNull();
    expect(await webp()).toBeNull();
    expect(await png()).toBeNull();
    expect(await original()).toBeNull();
  });

  it("sends the original in its own format when every resizer is busy", async () => {
    const busy = await startTestApi({ imageResizeLimits: { running: 1, queued: 0 } });
    try {
      const user = await busy.register("busy_artist");
      const big = await imageBytes("png", 1600, 1200);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push(await uploadImage(busy, user, big, `p${i}.png`));

      const results = await Promise.all(
        ids.map((id) =>
          busy.request
            .get(`/images/${id}?w=160`)
            .set(user.auth)
            .set("Accept", BROWSER_ACCEPT)
            .buffer(true)
            .parse((res, done) => {
              const chunks: Buffer[] = [];
              res.on("data", (c: Buffer) => chunks.push(c));
              res.on("end", () => done(null, Buffer.concat(chunks)));
            }),
        ),
      );

      const served = await Promise.all(
        results.map(async (r) => [r.headers["content-type"], (await sharp(r.body as Buffer).metadata()).format] as const),
      );
      expect(served.every(([type, format]) => type === `image/${format}`)).toBe(true);
      expect(served.map(([type]) => type)).toContain("image/webp");
      expect(served.map(([type]) => type)).toContain("image/png");
    } finally {
      await busy.close();
    }
  });
});

describe("GET /images/metadata/{id}", () => {
  it("answers the metadata given at upload", async () => {
    const upload = await api.request
      .post("/images")
      .set(artist.auth)
      .attach("file", await imageBytes("webp", 20, 10), "tiny.webp");

    const res = await api.request.get(`/images/metadata/${upload.body.id}`).set(artist.auth);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(upload.body);
  });

  it("answers 404 for an unknown id", async () => {
    const res = await api.request.get("/images/metadata/999999");

    expectError(res, 404, "Image not found");
  });

  it("answers 400 for a non-numeric id", async () => {
    const res = await api.request.get("/images/metadata/abc");

    expectFieldError(res, "id");
  });
});
