import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageQueries, type NewImage } from "../../server/images/images.queries.ts";
import { insertWithinQuota } from "../../server/images/images.service.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { noisePng } from "../helpers/images.ts";

// Two uploads of one user at the edge of the quota: each fits alone, not both. On PostgreSQL they run on two
// connections at once; the unit locks the uploader's row, so the second sums the first's bytes.
const QUOTA = 60_000;

describe("two uploads at once at the edge of the quota", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ uploadQuotaBytes: QUOTA, uploadRatePerHour: 0 });
  });
  afterAll(() => api.close());

  const storedBy = async (userId: number) =>
    (
      await api.db.kysely
        .selectFrom("Image")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("size"), eb.val(0)).as("n"))
        .where("authorId", "=", userId)
        .executeTakeFirstOrThrow()
    ).n;

  it("through the API: one 201, one 413, and the stored bytes stay within the quota", async () => {
    const user = await api.register("race_edge");
    // ~30 KB stored each: one fits in 60,000 bytes, two do not (upload-limits.test.ts).
    const [a, b] = await Promise.all([noisePng(100, 100), noisePng(100, 100)]);

    const results = await Promise.all([a, b].map((img, i) => api.request.post("/images").set(user.auth).attach("file", img, `${i}.png`)));

    expect(results.map((r) => r.status).sort()).toEqual([201, 413]);
    expect(await storedBy(user.id)).toBeLessThanOrEqual(QUOTA);
  });

  it("in the insert itself, round after round: exactly one of two inserts passes", async () => {
    const images = createImageQueries(api.db);
    const row = (authorId: number): NewImage => ({
      fileName: "edge.png",
      contentType: "image/png",
      size: 40_000,
      width: 10,
      height: 10,
      authorId,
      createdAt: Date.now(),
      fileKey: randomUUID(),
    });
    for (let round = 0; round < 10; round++) {
      const user = await api.register();

      const ids = await Promise.all([
        insertWithinQuota(api.db, images, row(user.id), QUOTA),
        insertWithinQuota(api.db, images, row(user.id), QUOTA),
      ]);

      expect(ids.filter((id) => id !== null)).toHaveLength(1);
      expect(await storedBy(user.id)).toBe(40_000);
    }
  });
});
