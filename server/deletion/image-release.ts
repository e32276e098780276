import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";
import { formatOf, type ImageStorage } from "../images/image-files.ts";

/**
 * The "image-release" job's work (docs/decisions/018-governance.md): images whose uses a deletion removed are deleted
 * when nothing uses them any more, files first, then rows, after the deletion committed. A crash between the two
 * leaves the release rows and the next run deletes the (already gone) files again and then the rows; an image
 * something still uses (another post embeds it) only loses its release row.
 */
export function createImageRelease(db: Database, storage: ImageStorage) {
  const { kysely } = db;
  const q = {
    batch: prepare<
      { limit: number },
      { imageId: number; id: number | null; fileKey: string | null; contentType: string | null; used: number }
    >(
      kysely,
      (p) => sql`SELECT r."imageId", i."id", i."fileKey", i."contentType",
          CASE WHEN EXISTS (SELECT 1 FROM "ImageUse" u WHERE u."imageId" = r."imageId") THEN 1 ELSE 0 END AS "used"
        FROM "ImageRelease" r LEFT JOIN "Image" i ON i."id" = r."imageId" ORDER BY r."imageId" LIMIT ${p("limit")}`,
    ),
  };
  return {
    /** One batch of up to `limit` releases; answers whether none are left after it. */
    async runBatch(limit: number): Promise<boolean> {
      const rows = await q.batch.all({ limit });
      const unused = rows.filter((row) => row.id !== null && !row.used);
      for (const row of unused) await storage.remove({ id: row.id!, fileKey: row.fileKey, format: formatOf(row.contentType!) });
      if (rows.length === 0) return true;
      await kysely.transaction().execute(async (trx) => {
        const ids = unused.map((row) => row.id!);
        // Checked again: a use written since the batch was read keeps the row (its bytes are gone: see the decision).
        if (ids.length > 0)
          await trx
            .deleteFrom("Image")
            .where("id", "in", ids)
            .where((eb) => eb.not(eb.exists(eb.selectFrom("ImageUse").select("imageId").whereRef("ImageUse.imageId", "=", "Image.id"))))
            .execute();
        await trx
          .deleteFrom("ImageRelease")
          .where(
            "imageId",
            "in",
            rows.map((row) => row.imageId),
          )
          .execute();
      });
      return rows.length < limit;
    },
  };
}
