import type BetterSqlite3 from "better-sqlite3";
import { badRequest, type FieldError } from "../http/errors.ts";
import { placeholders, prepare } from "../db/sql.ts";
import type { PrismaClient } from "../db/generated/client.ts";

export interface ImageRef {
  field: string;
  label: string;
  id: number | null | undefined;
}

/**
 * Artists keep ownership of their work: a logo, banner, avatar, cover or page must be an image
 * the same user uploaded. Throws a 400 naming each field that is not.
 */
export function assertOwnImages(sqlite: BetterSqlite3.Database, userId: number, refs: ImageRef[]): void {
  const ids = [...new Set(refs.map((r) => r.id).filter((id): id is number => typeof id === "number"))];
  if (ids.length === 0) return;
  const owned = new Set<number>();
  // Chunks keep the statement under SQLite's parameter limit.
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = prepare<number[], { id: number }>(
      sqlite,
      `SELECT id FROM Image WHERE authorId = ? AND id IN (${placeholders(chunk.length)})`,
    ).all(userId, ...chunk);
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
 * Ids of this API's images embedded in markdown: every `/images/{id}` path (the web app and the API
 * both write image URLs that way; `?w=` and an origin may come around it). A plain scan, no regex.
 */
export function embeddedImageIds(markdown: string): number[] {
  const ids = new Set<number>();
  const marker = "/images/";
  for (let at = markdown.indexOf(marker); at !== -1; at = markdown.indexOf(marker, at + 1)) {
    let end = at + marker.length;
    while (end < markdown.length && end - at - marker.length < 10 && markdown[end]! >= "0" && markdown[end]! <= "9") end++;
    const digits = markdown.slice(at + marker.length, end);
    const next = markdown[end];
    // `/images/12` followed by a path character would be another URL (`/images/12/x`).
    if (digits.length > 0 && digits[0] !== "0" && (next === undefined || !/[0-9A-Za-z/]/.test(next))) ids.add(Number(digits));
  }
  return [...ids];
}

/**
 * Makes the writer's own images among `ids` public: called inside the transaction of the write
 * that first references them. Someone else's image is never published by this (it stays private).
 * Once public an image stays public.
 */
export function publishOwnImages(sqlite: BetterSqlite3.Database, authorId: number, ids: (number | null | undefined)[]): void {
  const unique = [...new Set(ids.filter((id): id is number => typeof id === "number"))];
  const now = Date.now();
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    prepare<number[], unknown>(
      sqlite,
      `UPDATE Image SET publishedAt = ? WHERE authorId = ? AND publishedAt IS NULL AND id IN (${placeholders(chunk.length)})`,
    ).run(now, authorId, ...chunk);
  }
}

/** The ids a set of image fields names (logo, banner, avatar...), for publishOwnImages. */
export const refIds = (refs: ImageRef[]) => refs.map((r) => r.id);

/** publishOwnImages for a Prisma batch transaction: `prisma.$transaction([update, publishOwnImagesQuery(...)])`. */
export function publishOwnImagesQuery(prisma: PrismaClient, authorId: number, ids: (number | null | undefined)[]) {
  const unique = [...new Set(ids.filter((id): id is number => typeof id === "number"))];
  return prisma.image.updateMany({ where: { authorId, publishedAt: null, id: { in: unique } }, data: { publishedAt: new Date() } });
}
