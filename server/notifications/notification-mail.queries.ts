import { sql } from "kysely";
import type { Executor } from "../db/prepared.ts";
import { DEFAULT_EMAIL_SETTINGS } from "../rules/email-preferences.ts";
import type { SubjectColumns } from "./subject.ts";

/** A notification that is mailed at once: its recipient's address and name, its actor's name, its subject's names. */
export interface InstantMailRow extends SubjectColumns {
  userId: number;
  username: string;
  email: string;
  actorName: string | null;
}

// A kind's setting for an account that never chose one, in SQL (server/rules/email-preferences.ts).
const defaultSetting = sql`CASE n."kind" ${sql.join(
  Object.entries(DEFAULT_EMAIL_SETTINGS).map(([kind, setting]) => sql`WHEN ${sql.lit(kind)} THEN ${sql.lit(setting)}`),
  sql` `,
)} END`;

/**
 * Of these notifications (just made, on the caller's transaction), those whose recipient gets that kind by mail at once
 * (docs/api.md "Notification mail"): the setting (chosen, else the default) is "instant", the address is verified and
 * the account is not suspended (a deleted account has no row). One query for any number of notifications.
 */
export async function instantMailRows(on: Executor, notificationIds: number[], now: number): Promise<InstantMailRow[]> {
  if (notificationIds.length === 0) return [];
  const ids = sql.join(notificationIds.map((id) => sql`${id}`));
  const { rows } = await sql<InstantMailRow>`
    SELECT n."userId", u."username", u."email", n."kind", a."username" AS "actorName",
           n."commentId", n."postId", CASE WHEN (p."removedReason" IS NULL AND ph."removedReason" IS NULL) OR p."authorId" = n."userId" THEN p."title" ELSE '' END AS "postTitle", ph."name" AS "postHubName",
           n."chapterId", c."number" AS "chapterNumber", CASE WHEN (c."removedReason" IS NULL AND cs."removedReason" IS NULL) OR c."authorId" = n."userId" THEN c."title" ELSE '' END AS "chapterTitle", cs."name" AS "chapterSeriesName",
           n."seriesId", s."name" AS "seriesName", n."hubId", h."name" AS "hubName"
    FROM "Notification" n
    JOIN "User" u ON u."id" = n."userId"
    LEFT JOIN "EmailPreference" ep ON ep."userId" = n."userId" AND ep."kind" = n."kind"
    LEFT JOIN "User" a ON a."id" = n."actorId"
    LEFT JOIN "Post" p ON p."id" = n."postId"
    LEFT JOIN "Hub" ph ON ph."id" = p."hubId"
    LEFT JOIN "Chapter" c ON c."id" = n."chapterId"
    LEFT JOIN "Series" cs ON cs."id" = c."seriesId"
    LEFT JOIN "Series" s ON s."id" = n."seriesId"
    LEFT JOIN "Hub" h ON h."id" = n."hubId"
    WHERE n."id" IN (${ids})
      AND u."emailVerified" = 1
      AND (u."suspendedUntil" IS NULL OR u."suspendedUntil" <= ${now})
      AND COALESCE(ep."setting", ${defaultSetting}) = 'instant'
    ORDER BY n."id"`.execute(on);
  return rows;
}
