import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { WorkLimiter } from "../../server/images/work-limiter.ts";
import { formatBytes } from "../../server/images/upload-limits.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { expectError } from "../helpers/expect-error.ts";
import { imageBytes, noisePng, uploadImage } from "../helpers/images.ts";

const rows = async (api: TestApi, userId: number) =>
  (
    await api.db.kysely
      .selectFrom("Image")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("authorId", "=", userId)
      .executeTakeFirstOrThrow()
  ).n;

describe("upload quota (UPLOAD_QUOTA_BYTES)", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ uploadQuotaBytes: 60_000, uploadRatePerHour: 0 });
  });
  afterAll(() => api.close());

  it("answers 413 with a clear message once the user's stored bytes would pass the quota, storing nothing", async () => {
    const user = await api.register("quota_artist");
    const image = await noisePng(100, 100); // ~30 KB stored
    await uploadImage(api, user, image);
    const before = await rows(api, user.id);

    const res = await api.request
      .post("/images")
      .set(user.auth)
      .attach("file", await noisePng(100, 100), "more.png");

    expectError(res, 413, "Your upload quota of 58.6 KB is used up. This image does not fit in the space you have left.");
    expect(await rows(api, user.id)).toBe(before);
  });

  it("counts each user's bytes separately", async () => {
    const [a, b] = [await api.register("quota_a"), await api.register("quota_b")];
    await uploadImage(api, a, await noisePng(100, 100));
    await uploadImage(api, a, await imageBytes("png"));

    const res = await api.request
      .post("/images")
      .set(b.auth)
      .attach("file", await noisePng(100, 100), "b.png");

    expect(res.status).toBe(201);
  });

  it("holds under concurrent uploads: the stored total never passes the quota", async () => {
    const user = await api.register("quota_burst");
    const images = await Promise.all(Array.from({ length: 6 }, () => noisePng(70, 70)));

    const results = await Promise.all(images.map((img, i) => api.request.post("/images").set(user.auth).attach("file", img, `${i}.png`)));

    expect(results.filter((r) => r.status === 201).length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 201 || r.status === 413)).toBe(true);
    const { stored } = await api.db.kysely
      .selectFrom("Image")
      .select((eb) => eb.fn.sum<number>("size").as("stored"))
      .where("authorId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toBeLessThanOrEqual(60_000);
  });

  it("says quotas in words people read", () => {
    expect(formatBytes(2 * 1024 ** 3)).toBe("2 GB");
    expect(formatBytes(500 * 1024 ** 2)).toBe("500 MB");
    expect(formatBytes(1536)).toBe("1.5 KB");
  });
});

describe("upload rate (UPLOAD_RATE_PER_HOUR)", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ uploadRatePerHour: 3, uploadMaxBytes: 50_000 });
  });
  afterAll(() => api.close());

  it("answers 429 with Retry-After and a clear message after the hourly number of uploads", async () => {
    const user = await api.register("rate_artist");
    for (let i = 0; i < 3; i++) await uploadImage(api, user);

    const res = await api.request
      .post("/images")
      .set(user.auth)
      .attach("file", await imageBytes(), "fourth.png");

    expectError(res, 429);
    expect(res.body.message).toMatch(/^You can upload at most 3 images an hour\. Please try again in [0-9]+ minutes?\.$/);
    const retryAfter = Number(res.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await rows(api, user.id)).toBe(3);
  });

  it("refuses before reading the body: an over-size upload past the rate is a 429, not a 413", async () => {
    const user = await api.register("rate_big");
    for (let i = 0; i < 3; i++) await uploadImage(api, user);

    const res = await api.request
      .post("/images")
      .set(user.auth)
      .attach("file", await noisePng(300, 300), "huge.png");

    expect(res.status).toBe(429);
  });

  it("counts per user: another user may still upload", async () => {
    const [a, b] = [await api.register("rate_a"), await api.register("rate_b")];
    for (let i = 0; i < 3; i++) await uploadImage(api, a);

    await uploadImage(api, b);
  });
});

describe("rendition work is bounded", () => {
  it("never runs more jobs than allowed and refuses beyond the queue", async () => {
    const limiter = new WorkLimiter(2, 3);
    let running = 0;
    let peak = 0;
    const release: (() => void)[] = [];
    const job = () =>
      new Promise<void>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        release.push(() => {
          running--;
          resolve();
        });
      });

    const started = Array.from({ length: 8 }, () => limiter.tryRun(job));

    expect(started.filter((p) => p === null).length).toBe(3);
    expect(running).toBe(2);
    while (release.length > 0 || running > 0) {
      release.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(started.filter((accepted) => accepted !== null));
    expect(peak).toBe(2);
    expect(limiter.tryRun(() => Promise.resolve(1))).not.toBeNull();
  });

  it("serves the original (a correct 200) to ?w= requests when every resizer is busy", async () => {
    const api = await startTestApi({ imageResizeLimits: { running: 1, queued: 0 } });
    try {
      const user = await api.register("flood_artist");
      const big = await imageBytes("jpeg", 1600, 1200);
      const ids: number[] = [];
      for (let i = 0; i < 8; i++) ids.push(await uploadImage(api, user, big, `p${i}.jpg`));
      await api.request.put(`/user/${user.id}`).set(user.auth).send({ profileImageID: ids[0] });

      const results = await Promise.all(
        ids.map((id) =>
          api.request
            .get(`/images/${id}?w=160`)
            .set(user.auth)
            .buffer(true)
            .parse((res, done) => {
              const chunks: Buffer[] = [];
              res.on("data", (c: Buffer) => chunks.push(c));
              res.on("end", () => done(null, Buffer.concat(chunks)));
            }),
        ),
      );

      expect(results.every((r) => r.status === 200)).toBe(true);
      const widths = await Promise.all(results.map(async (r) => (await sharp(r.body as Buffer).metadata()).width));
      expect(widths.filter((w) => w === 160).length).toBeGreaterThanOrEqual(1);
      expect(widths.filter((w) => w === 1600).length).toBeGreaterThanOrEqual(1);
      expect(widths.every((w) => w === 160 || w === 1600)).toBe(true);
      // A refused rendition is not remembered as one: asked again when idle, it is resized.
      const again = await api.request
        .get(`/images/${ids[ids.length - 1]}?w=160`)
        .set(user.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => done(null, Buffer.concat(chunks)));
        });
      expect((await sharp(again.body as Buffer).metadata()).width).toBe(160);
    } finally {
      await api.close();
    }
  });
});
