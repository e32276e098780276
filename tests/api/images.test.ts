import sharp from "sharp";
import supertest from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { countRows } from "../helpers/fixtures.ts";
import { RENDITION_WIDTHS } from "../../server/rules/images.ts";
import { imageBytes, keptImageBytes, noisePng, removeKeptOriginal, uploadImage, type Format } from "../helpers/images.ts";

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

  it("serves the bytes with the right Content-Type and a year-long immutable cache", async () => {
    const res = await getBytes(`/images/${jpegId}`);

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
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
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
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
