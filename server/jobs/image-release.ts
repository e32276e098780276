import type { Database } from "../db/database.ts";
import { formatOf } from "../images/image-formats.ts";
import type { ImageStorage } from "../images/image-storage.ts";
import { createImageReleaseQueries } from "./image-release.queries.ts";

/**
 * The "image-release" job's work (docs/decisions/018-governance.md): images whose uses a deletion removed are deleted
 * when nothing uses them any more, files first, then rows, after the deletion committed. A crash between the two
 * leaves the release rows and the next run deletes the (already gone) files again and then the rows; an image
 * something still uses (another post embeds it) only loses its release row.
 */
export function createImageRelease(db: Database, storage: ImageStorage) {
  const q = createImageReleaseQueries(db);
  return {
    /** One batch of up to `limit` releases; answers whether none are left after it. */
    async runBatch(limit: number): Promise<boolean> {
      const rows = await q.batch(limit);
      const unused = rows.filter((row) => row.id !== null && !row.used);
      for (const row of unused) await storage.remove({ id: row.id!, fileKey: row.fileKey, format: formatOf(row.contentType!) });
      if (rows.length === 0) return true;
      // A use written since the batch was read keeps the image's row (its bytes are gone: see the decision).
      await db.kysely.transaction().execute((trx) =>
        q.deleteReleased(
          trx,
          unused.map((row) => row.id!),
          rows.map((row) => row.imageId),
        ),
      );
      return rows.length < limit;
    },
  };
}
