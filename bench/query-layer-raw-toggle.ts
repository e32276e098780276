// The synchronous better-sqlite3 toggle the spike measured (server/db/counted-toggle.ts before issue 12).
import type BetterSqlite3 from "better-sqlite3";
import { notFound } from "../server/http/errors.ts";
import { nowMs, prepare } from "../server/db/sql.ts";

export interface CountedToggleSpec {
  /** The link table: one row per user and target, keyed by both. */
  link: "Membership" | "Follow" | "PostLike" | "ChapterLike";
  targetColumn: "hubId" | "seriesId" | "postId" | "chapterId";
  /** The table holding the count, and its column. */
  target: "Hub" | "Series" | "Post" | "Chapter";
  counter: "memberCount" | "followersCount" | "likes";
  /** Whether the link row records when it was made. */
  timestamped: boolean;
  notFoundMessage: string;
}

/**
 * Join/leave, follow/unfollow, like/unlike. Idempotent: the link row is inserted or deleted and
 * the target's count moves by the number of rows changed, in one synchronous transaction, so
 * the count always equals its rows, however many toggles arrive at once (docs/api.md §6).
 */
export function createCountedToggle(sqlite: BetterSqlite3.Database, spec: CountedToggleSpec) {
  const { link, targetColumn, target, counter } = spec;
  const insert = spec.timestamped
    ? prepare(sqlite, `INSERT OR IGNORE INTO ${link} (userId, ${targetColumn}, createdAt) VALUES (?, ?, ?)`)
    : prepare(sqlite, `INSERT OR IGNORE INTO ${link} (userId, ${targetColumn}) VALUES (?, ?)`);
  const remove = prepare(sqlite, `DELETE FROM ${link} WHERE userId = ? AND ${targetColumn} = ?`);
  const bump = prepare(sqlite, `UPDATE ${target} SET ${counter} = ${counter} + ? WHERE id = ?`);
  const count = prepare<[number], { n: number }>(sqlite, `SELECT ${counter} AS n FROM ${target} WHERE id = ?`);

  const toggle = sqlite.transaction((userId: number, targetId: number, on: boolean) => {
    if (!count.get(targetId)) throw notFound(spec.notFoundMessage);
    const args = spec.timestamped ? [userId, targetId, nowMs()] : [userId, targetId];
    const { changes } = on ? insert.run(...args) : remove.run(userId, targetId);
    if (changes > 0) bump.run(on ? changes : -changes, targetId);
    return count.get(targetId)!.n;
  });

  /** Sets the link on or off and answers the count after the change. */
  return (userId: number, targetId: number, on: boolean): number => toggle(userId, targetId, on);
}
