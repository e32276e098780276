import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";

export interface ReleaseRow {
  imageId: number;
  /** Null: the image's row is already gone. */
  id: number | null;
  fileKey: string | null;
  contentType: string | null;
  /** 1 while something still uses the image. */
  used: number;
}

/** The ImageRelease rows a deletion wrote, and the unit that deletes the unused images' rows with them. */
export function createImageReleaseQueries({ kysely }: Database) {
  const batch = prepare<{ limit: number }, ReleaseRow>(
    kysely,
    (p) => sql`SELECT r."imageId", i."id", i."fileKey", i."contentType",
        CASE WHEN EXISTS (SELECT 1 FROM "ImageUse" u WHERE u."imageId" = r."imageId") THEN 1 ELSE 0 END AS "used"
      FROM "ImageRelease" r LEFT JOIN "Image" i ON i."id" = r."imageId" ORDER BY r."imageId" LIMIT ${p("limit")}`,
  );
  return {
    /** Up to `limit` releases, in image id order. */
    batch: (limit: number) => batch.all({ limit }),

    /** The unused images' rows (checked again: a use written since the batch was read keeps the row) and the releases. */
    async deleteReleased(trx: Executor, unusedIds: number[], releasedIds: number[]): Promise<void> {
      if (unusedIds.length > 0)
        await trx
          .deleteFrom("Image")
          .where("id", "in", unusedIds)
          .where((eb) => eb.not(eb.exists(eb.selectFrom("ImageUse").select("imageId").whereRef("ImageUse.imageId", "=", "Image.id"))))
          .execute();
      await trx.deleteFrom("ImageRelease").where("imageId", "in", releasedIds).execute();
    },
  };
}
