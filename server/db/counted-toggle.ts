import { sql, type Kysely } from "kysely";
import type { Database } from "./database.ts";
import { prepare, prepareAmong, type Executor } from "./prepared.ts";
import type { DB } from "./schema.ts";
import { nowMs } from "./dates.ts";
import { reportWrite } from "./write-report.ts";

export interface CountedToggleSpec {
  /** The link table: one row per user and target, keyed by both. */
  link: "Membership" | "Follow" | "PostLike" | "ChapterLike" | "CommentLike";
  targetColumn: "hubId" | "seriesId" | "postId" | "chapterId" | "commentId";
  /** The table holding the count, and its column. */
  target: "Hub" | "Series" | "Post" | "Chapter" | "Comment";
  counter: "memberCount" | "followersCount" | "likes";
  /** Whether the link row records when it was made. */
  timestamped: boolean;
  /** A target with this column set counts as missing (a comment's tombstone takes no likes). */
  goneWhenSet?: "deletedAt";
}

type Link = Pick<CountedToggleSpec, "link" | "targetColumn">;
type Among = ReturnType<typeof prepareAmong<{ viewerId: number }, { id: number }>>;
/** linkedIds' statements, per database and link table: built once, not at every list page (prepareAmong). */
const linkedStatements = new WeakMap<Kysely<DB>, Map<string, Among>>();

function linkedStatement(on: Kysely<DB>, { link, targetColumn }: Link): Among {
  let byLink = linkedStatements.get(on);
  if (!byLink) linkedStatements.set(on, (byLink = new Map<string, Among>()));
  let statement = byLink.get(link);
  if (!statement)
    byLink.set(
      link,
      (statement = prepareAmong<{ viewerId: number }, { id: number }>(
        on,
        (p, among) =>
          sql`SELECT ${sql.ref(targetColumn)} AS id FROM ${sql.table(link)} WHERE "userId" = ${p("viewerId")} AND ${sql.ref(targetColumn)} IN ${among}`,
      )),
    );
  return statement;
}

/** Which of `ids` the viewer has a link to (liked posts, liked chapters), in one query. */
export async function linkedIds(on: Kysely<DB>, link: Link, viewerId: number | undefined, ids: number[]): Promise<Set<number>> {
  if (viewerId === undefined || ids.length === 0) return new Set();
  const rows = await linkedStatement(on, link).all({ viewerId }, ids);
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Join/leave, follow/unfollow, like/unlike. Idempotent: the link row is inserted (ON CONFLICT DO NOTHING)
 * or deleted, and the target's count moves by the number of rows changed, in the service's transaction (`trx`: the
 * toggle is one unit, so the service opens one for it alone). The first
 * statement locks the target's row (an UPDATE that changes nothing, which also finds a missing target), so on
 * PostgreSQL the toggles of one target take turns across connections and instances, and the count always
 * equals its rows (docs/api.md §6, docs/decisions/014-data-layer.md). On SQLite the one connection runs one
 * transaction at a time.
 */
export function createCountedToggle(
  { kysely }: Database,
  spec: CountedToggleSpec,
  /**
   * Runs in the toggle's transaction when the link changed (post likes bump their hub's order version; a follow or
   * join tells the series' author or hub's creator).
   */
  afterChange?: (targetId: number, trx: Executor, change: { userId: number; on: boolean }) => Promise<unknown>,
  /** Runs in the toggle's transaction, the target locked, before a link is made; throws to refuse it (a hub ban). */
  beforeLink?: (trx: Executor, targetId: number, userId: number) => Promise<unknown>,
) {
  const { link, targetColumn, target, counter } = spec;
  const live = spec.goneWhenSet ? sql` AND ${sql.ref(spec.goneWhenSet)} IS NULL` : sql``;
  type Ids = { userId: number; targetId: number };
  const lockTarget = prepare<{ targetId: number }, { n: number }>(
    kysely,
    (p) =>
      sql`UPDATE ${sql.table(target)} SET ${sql.ref(counter)} = ${sql.ref(counter)} WHERE id = ${p("targetId")}${live} RETURNING ${sql.ref(counter)} AS n`,
  );
  const insert = spec.timestamped
    ? prepare<Ids & { createdAt: number }>(
        kysely,
        (p) => sql`INSERT INTO ${sql.table(link)} ("userId", ${sql.ref(targetColumn)}, "createdAt")
          VALUES (${p("userId")}, ${p("targetId")}, ${p("createdAt")}) ON CONFLICT DO NOTHING`,
      )
    : prepare<Ids>(
        kysely,
        (p) =>
          sql`INSERT INTO ${sql.table(link)} ("userId", ${sql.ref(targetColumn)}) VALUES (${p("userId")}, ${p("targetId")}) ON CONFLICT DO NOTHING`,
      );
  const remove = prepare<Ids>(
    kysely,
    (p) => sql`DELETE FROM ${sql.table(link)} WHERE "userId" = ${p("userId")} AND ${sql.ref(targetColumn)} = ${p("targetId")}`,
  );
  const bump = prepare<{ targetId: number; by: number }, { n: number }>(
    kysely,
    (p) => sql`UPDATE ${sql.table(target)} SET ${sql.ref(counter)} = ${sql.ref(counter)} + ${p("by")} WHERE id = ${p("targetId")}
      RETURNING ${sql.ref(counter)} AS n`,
  );

  /** Sets the link on or off and answers the count after the change; null when there is no such target (the service's 404). */
  return async (trx: Executor, userId: number, targetId: number, on: boolean): Promise<number | null> => {
    const before = await lockTarget.first({ targetId }, trx);
    if (!before) return null;
    if (on) await beforeLink?.(trx, targetId, userId);
    const ids = { userId, targetId, createdAt: nowMs() };
    const changed = on ? await insert.run(ids, trx) : await remove.run(ids, trx);
    // A repeat (liking what one likes) changes nothing: the data version may stay (server/db/write-report.ts).
    reportWrite(changed > 0);
    if (changed === 0) return before.n;
    const after = (await bump.first({ targetId, by: on ? changed : -changed }, trx))!.n;
    await afterChange?.(targetId, trx, { userId, on });
    return after;
  };
}
