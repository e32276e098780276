import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../db/prepared.ts";
import { forbidden } from "../http/errors.ts";

type Guarded = "post" | "chapter" | "comment" | "hub" | "series";
type Reasons = Partial<Record<Guarded, string | null>>;

// The thing's own removal and that of every thing it is in, one row by primary keys: a post and its hub, a chapter
// and its series, a comment and its post and hub or its chapter and series.
const CHAIN: Record<Guarded, (id: number) => RawBuilder<Reasons>> = {
  hub: (id) => sql`SELECT "removedReason" AS "hub" FROM "Hub" WHERE "id" = ${id}`,
  series: (id) => sql`SELECT "removedReason" AS "series" FROM "Series" WHERE "id" = ${id}`,
  post: (id) => sql`SELECT p."removedReason" AS "post", h."removedReason" AS "hub"
    FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId" WHERE p."id" = ${id}`,
  chapter: (id) => sql`SELECT c."removedReason" AS "chapter", s."removedReason" AS "series"
    FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId" WHERE c."id" = ${id}`,
  comment: (id) => sql`SELECT c."removedReason" AS "comment", p."removedReason" AS "post", h."removedReason" AS "hub",
      ch."removedReason" AS "chapter", s."removedReason" AS "series"
    FROM "Comment" c LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Hub" h ON h."id" = p."hubId"
      LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId" LEFT JOIN "Series" s ON s."id" = ch."seriesId"
    WHERE c."id" = ${id}`,
};
// The nearest removed thing names the refusal.
const NEAREST_FIRST: Guarded[] = ["comment", "post", "chapter", "hub", "series"];

/**
 * Nothing new goes into a removed thing, nor into anything inside a removed hub or series (docs/api.md "Removal"): a
 * removed post or chapter takes no likes or comments, a removed comment no likes, a removed hub no members, posts, or
 * likes and comments on its posts, a removed series no followers, chapters, or likes and comments on its chapters.
 * 403 naming the removed thing, the unit rolled back. Runs in the unit's transaction, after it locked the row.
 */
export async function refuseRemoved(on: Executor, type: Guarded, id: number): Promise<void> {
  const row = (await CHAIN[type](id).execute(on)).rows[0];
  if (!row) return;
  const removed = NEAREST_FIRST.find((kind) => row[kind] != null);
  if (removed) throw forbidden(`This ${removed} was removed by moderators`);
}
