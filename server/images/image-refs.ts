import type BetterSqlite3 from "better-sqlite3";
import { badRequest, type FieldError } from "../http/errors.ts";
import { placeholders, prepare } from "../db/sql.ts";

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
