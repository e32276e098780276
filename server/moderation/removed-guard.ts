import { sql } from "kysely";
import type { Executor } from "../db/prepared.ts";
import { forbidden } from "../http/errors.ts";

const TABLE = { post: "Post", chapter: "Chapter", comment: "Comment" } as const;

/**
 * A removed post, chapter or comment takes no new likes, and a removed post or chapter no new comments (docs/api.md
 * "Removal"): 403, the unit rolled back. Runs in the unit's transaction, after it locked the row.
 */
export async function refuseRemoved(on: Executor, type: keyof typeof TABLE, id: number): Promise<void> {
  const { rows } = await sql<{
    removedReason: string | null;
  }>`SELECT "removedReason" FROM ${sql.table(TABLE[type])} WHERE "id" = ${id}`.execute(on);
  if (rows[0]?.removedReason != null) throw forbidden(`This ${type} was removed by moderators`);
}
