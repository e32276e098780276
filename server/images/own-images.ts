import type { Executor } from "../db/prepared.ts";
import type { ImageUserType } from "../db/schema.ts";
import { badRequest, type FieldError } from "../http/errors.ts";
import type { ImageRef } from "./image-refs.ts";

// IN lists in chunks: under SQLite's parameter limit, and short statements on PostgreSQL.
const CHUNK = 500;

const uniqueIds = (ids: (number | null | undefined)[]) => [...new Set(ids.filter((id): id is number => typeof id === "number"))];

/**
 * Artists keep ownership of their work: a logo, banner, avatar, cover or page must be an image the same
 * user uploaded. Throws a 400 naming each field that is not.
 */
export async function assertOwnImages(on: Executor, userId: number, refs: ImageRef[]): Promise<void> {
  const ids = uniqueIds(refs.map((r) => r.id));
  if (ids.length === 0) return;
  const owned = new Set<number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await on
      .selectFrom("Image")
      .select("id")
      .where("authorId", "=", userId)
      .where("id", "in", ids.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) owned.add(row.id);
  }
  const errors: FieldError[] = [];
  for (const ref of refs) {
    if (typeof ref.id === "number" && !owned.has(ref.id) && !errors.some((e) => e.field === ref.field)) {
      errors.push({ field: ref.field, message: `${ref.label} must be an image you uploaded` });
    }
  }
  if (errors.length > 0) throw badRequest(errors[0]!.message, errors);
}

/**
 * Marks the images a row being written uses (`userType`, `userId`): run in the write's transaction. The writer's own
 * images among them are published (someone else's image is never published by this; once published an image stays
 * published, and is public while a use of it is not removed: docs/decisions/025), and every use is recorded, whoever uploaded the image. Uses are only added (an edit that drops an image
 * keeps the use until the row goes), so a deletion knows by one indexed lookup whether anything else still uses an
 * image (docs/decisions/018-governance.md).
 */
export async function useImages(
  on: Executor,
  writerId: number,
  userType: ImageUserType,
  userId: number,
  ids: (number | null | undefined)[],
): Promise<void> {
  const unique = uniqueIds(ids);
  const now = Date.now();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const chunk = unique.slice(i, i + CHUNK);
    await on
      .updateTable("Image")
      .set({ publishedAt: now })
      .where("authorId", "=", writerId)
      .where("publishedAt", "is", null)
      .where("id", "in", chunk)
      .execute();
    await on
      .insertInto("ImageUse")
      .values(chunk.map((imageId) => ({ userType, userId, imageId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
