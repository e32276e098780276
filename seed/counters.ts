import type BetterSqlite3 from "better-sqlite3";
import { prepare } from "../server/db/sql.ts";

/** How many rows hold a counter that differs from the rows behind it (docs/api.md §6): all zero when consistent. */
export interface CounterMismatches {
  hubMembers: number;
  hubPosts: number;
  postLikes: number;
  seriesFollowers: number;
  seriesChapters: number;
  chapterLikes: number;
}

// Each check compares a stored counter with a grouped count of its link rows (one pass over
// each link table, so it stays quick on the large set).
const CHECKS: Record<keyof CounterMismatches, string> = {
  hubMembers: `SELECT COUNT(*) AS n FROM Hub t LEFT JOIN (SELECT hubId, COUNT(*) AS c FROM Membership GROUP BY hubId) x ON x.hubId = t.id WHERE t.memberCount <> IFNULL(x.c, 0)`,
  hubPosts: `SELECT COUNT(*) AS n FROM Hub t LEFT JOIN (SELECT hubId, COUNT(*) AS c FROM Post GROUP BY hubId) x ON x.hubId = t.id WHERE t.postCount <> IFNULL(x.c, 0)`,
  postLikes: `SELECT COUNT(*) AS n FROM Post t LEFT JOIN (SELECT postId, COUNT(*) AS c FROM PostLike GROUP BY postId) x ON x.postId = t.id WHERE t.likes <> IFNULL(x.c, 0)`,
  seriesFollowers: `SELECT COUNT(*) AS n FROM Series t LEFT JOIN (SELECT seriesId, COUNT(*) AS c FROM Follow GROUP BY seriesId) x ON x.seriesId = t.id WHERE t.followersCount <> IFNULL(x.c, 0)`,
  seriesChapters: `SELECT COUNT(*) AS n FROM Series t LEFT JOIN (SELECT seriesId, COUNT(*) AS c FROM Chapter GROUP BY seriesId) x ON x.seriesId = t.id WHERE t.chapterCount <> IFNULL(x.c, 0)`,
  chapterLikes: `SELECT COUNT(*) AS n FROM Chapter t LEFT JOIN (SELECT chapterId, COUNT(*) AS c FROM ChapterLike GROUP BY chapterId) x ON x.chapterId = t.id WHERE t.likes <> IFNULL(x.c, 0)`,
};

export function counterMismatches(sqlite: BetterSqlite3.Database): CounterMismatches {
  const result = {} as CounterMismatches;
  for (const [name, sql] of Object.entries(CHECKS) as [keyof CounterMismatches, string][]) {
    result[name] = prepare<[], { n: number }>(sqlite, sql).get()!.n;
  }
  return result;
}
