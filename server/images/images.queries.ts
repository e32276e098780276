import { sql, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { ImageTable } from "../db/schema.ts";

/** A row of the Image table, as the service reads it. `fileKey` names the stored bytes in a bucket
 * (server/images/bucket-storage.ts); null for rows older than upload keys. */
export type ImageRow = Selectable<ImageTable>;

export type NewImage = Omit<ImageRow, "id" | "publishedAt" | "fileKey"> & {
  /** Names the uploaded file in incoming/ until it is moved into place (server/images/image-tidy.ts). */
  fileKey: string;
};

const ROW_COLUMNS = [
  "id",
  "fileName",
  "contentType",
  "size",
  "width",
  "height",
  "authorId",
  "createdAt",
  "publishedAt",
  "fileKey",
] as const;

export function createImageQueries({ kysely }: Database) {
  const byId = prepare<{ id: number }, ImageRow>(kysely, (p) => kysely.selectFrom("Image").select(ROW_COLUMNS).where("id", "=", p("id")));
  const byFileKey = prepare<{ fileKey: string }, { id: number; contentType: string }>(kysely, (p) =>
    kysely.selectFrom("Image").select(["id", "contentType"]).where("fileKey", "=", p("fileKey")),
  );
  const storedBytes = prepare<{ authorId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT COALESCE(SUM("size"), 0) AS "n" FROM "Image" WHERE "authorId" = ${p("authorId")}`,
  );
  // An UPDATE that changes nothing: it locks the uploader's row, so one user's uploads take turns (SQLite has no FOR UPDATE).
  const lockAuthor = prepare<{ authorId: number }, { id: number }>(
    kysely,
    (p) => sql`UPDATE "User" SET "tokenGeneration" = "tokenGeneration" WHERE "id" = ${p("authorId")} RETURNING "id"`,
  );
  const insert = prepare<NewImage, { id: number }>(kysely, (p) =>
    kysely
      .insertInto("Image")
      .values({
        fileName: p("fileName"),
        contentType: p("contentType"),
        size: p("size"),
        width: p("width"),
        height: p("height"),
        authorId: p("authorId"),
        createdAt: p("createdAt"),
        fileKey: p("fileKey"),
      })
      .returning("id"),
  );
  const remove = prepare<{ id: number }>(kysely, (p) => kysely.deleteFrom("Image").where("id", "=", p("id")));
  const rowsAfter = prepare<{ afterId: number; limit: number }, { id: number; contentType: string }>(
    kysely,
    (p) => sql`SELECT "id", "contentType" FROM "Image" WHERE "id" > ${p("afterId")} ORDER BY "id" LIMIT ${p("limit")}`,
  );
  // What a crash can leave is an upload nobody was told of: unpublished, and nothing uses it.
  const removeUnused = prepare<{ id: number }>(
    kysely,
    (p) => sql`DELETE FROM "Image" WHERE "id" = ${p("id")} AND "publishedAt" IS NULL
      AND NOT EXISTS (SELECT 1 FROM "ImageUse" u WHERE u."imageId" = "Image"."id")`,
  );

  return {
    byId: (id: number) => byId.first({ id }),
    byFileKey: (fileKey: string) => byFileKey.first({ fileKey }),
    storedBytes: async (authorId: number, trx?: Executor) => (await storedBytes.first({ authorId }, trx))!.n,
    /** Locks the uploader's row until `trx` ends, so one user's uploads take turns; answers whether the user exists. */
    lockAuthor: async (authorId: number, trx: Executor) => (await lockAuthor.first({ authorId }, trx)) !== undefined,
    insert: async (image: NewImage, trx: Executor) => (await insert.first(image, trx))!.id,

    remove: (id: number) => remove.run({ id }),

    /** Up to `limit` rows with an id above `afterId`, in id order: the start-up tidy checks new rows in batches. */
    rowsAfter: (afterId: number, limit: number) => rowsAfter.all({ afterId, limit }),

    /** Deletes the row if it is unpublished and nothing uses it; answers whether it did. */
    removeUnused: async (id: number) => (await removeUnused.run({ id })) > 0,
  };
}
