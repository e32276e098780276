import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../server/db/prepared.ts";

/** How many rows hold a counter that differs from the rows behind it (docs/api.md §6): all zero when consistent. */
export interface CounterMismatches {
  hubMembers: number;
  hubPosts: number;
  postLikes: number;
  seriesFollowers: number;
  seriesChapters: number;
  chapterLikes: number;
  commentLikes: number;
  /** Replies that exist, per top-level comment. */
  commentReplies: number;
  /** Comments and replies that are not deleted, per post and per chapter. */
  postComments: number;
  chapterComments: number;
  /** Top-level comments, tombstones included, per post and per chapter. */
  postThreads: number;
  chapterThreads: number;
  /** Tables whose kept row count (RowCount) differs from their rows. */
  rowCounts: number;
  /** Users whose unreadNotifications differs from their unread notifications. */
  unreadNotifications: number;
  /** Users whose blockCount differs from their Block rows. */
  userBlocks: number;
  /** Series whose lastChapterAt differs from their newest live chapter's date (kept by triggers, docs/api.md "Series metadata and browsing"). */
  seriesLastChapter: number;
}

// Each check compares a stored counter with a grouped count of its link rows (one pass over
// each link table, so it stays quick on the large set).
const check = (target: string, counter: string, link: string, column: string): RawBuilder<{ n: number }> =>
  sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(target)} t
    LEFT JOIN (SELECT ${sql.ref(column)} AS id, COUNT(*) AS c FROM ${sql.table(link)} GROUP BY ${sql.ref(column)}) x ON x.id = t.id
    WHERE t.${sql.ref(counter)} <> COALESCE(x.c, 0)`;

// The same over the link rows that match `where` (comments that are not deleted).
const checkWhere = (target: string, counter: string, link: string, column: string, where: RawBuilder<unknown>): RawBuilder<{ n: number }> =>
  sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(target)} t
    LEFT JOIN (SELECT ${sql.ref(column)} AS id, COUNT(*) AS c FROM ${sql.table(link)} WHERE ${where} GROUP BY ${sql.ref(column)}) x ON x.id = t.id
    WHERE t.${sql.ref(counter)} <> COALESCE(x.c, 0)`;

const CHECKS: Record<keyof CounterMismatches, RawBuilder<{ n: number }>> = {
  hubMembers: check("Hub", "memberCount", "Membership", "hubId"),
  hubPosts: check("Hub", "postCount", "Post", "hubId"),
  postLikes: check("Post", "likes", "PostLike", "postId"),
  seriesFollowers: check("Series", "followersCount", "Follow", "seriesId"),
  seriesChapters: check("Series", "chapterCount", "Chapter", "seriesId"),
  chapterLikes: check("Chapter", "likes", "ChapterLike", "chapterId"),
  commentLikes: check("Comment", "likes", "CommentLike", "commentId"),
  commentReplies: check("Comment", "replyCount", "Comment", "parentId"),
  postComments: checkWhere("Post", "commentCount", "Comment", "postId", sql`"deletedAt" IS NULL`),
  chapterComments: checkWhere("Chapter", "commentCount", "Comment", "chapterId", sql`"deletedAt" IS NULL`),
  postThreads: checkWhere("Post", "threadCount", "Comment", "postId", sql`"parentId" IS NULL`),
  chapterThreads: checkWhere("Chapter", "threadCount", "Comment", "chapterId", sql`"parentId" IS NULL`),
  rowCounts: sql<{ n: number }>`SELECT COUNT(*) AS n FROM "RowCount" r
    WHERE r."rows" <> CASE r."tableName" WHEN 'Hub' THEN (SELECT COUNT(*) FROM "Hub") WHEN 'Series' THEN (SELECT COUNT(*) FROM "Series") END`,
  unreadNotifications: sql<{ n: number }>`SELECT COUNT(*) AS n FROM "User" t
    LEFT JOIN (SELECT "userId" AS id, COUNT(*) AS c FROM "Notification" WHERE "readAt" IS NULL GROUP BY "userId") x ON x.id = t.id
    WHERE t."unreadNotifications" <> COALESCE(x.c, 0)`,
  userBlocks: check("User", "blockCount", "Block", "userId"),
  seriesLastChapter: sql<{ n: number }>`SELECT COUNT(*) AS n FROM "Series" t
    LEFT JOIN (SELECT "seriesId" AS id, MAX("date") AS d FROM "Chapter" WHERE "removedReason" IS NULL GROUP BY "seriesId") x ON x.id = t.id
    WHERE t."lastChapterAt" IS DISTINCT FROM x.d`,
};

export async function counterMismatches(on: Executor): Promise<CounterMismatches> {
  const result = {} as CounterMismatches;
  for (const [name, query] of Object.entries(CHECKS) as [keyof CounterMismatches, RawBuilder<{ n: number }>][]) {
    result[name] = (await query.execute(on)).rows[0]!.n;
  }
  return result;
}
