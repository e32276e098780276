import { sql, type Insertable } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { NotificationDigestTable } from "../db/schema.ts";
import type { NotificationRow } from "../notifications/notifications.queries.ts";
import { DEFAULT_EMAIL_SETTINGS, MAIL_KINDS } from "../rules/email-preferences.ts";
import { enqueueJob } from "./jobs.queries.ts";

/** One listed notification of a digest, with its recipient and the numbers of its (account, kind) group. */
export interface DigestItemRow extends NotificationRow {
  userId: number;
  username: string;
  email: string;
  /** The account's setting for the kind: the digest it is in. */
  setting: "daily" | "weekly";
  /** Unread notifications of the group since its last digest: more than the listed ones when the list is capped. */
  total: number;
  /** The group's newest notification id: where its next digest starts. */
  lastId: number;
}

/** The parameters of a batch's one query (docs/api.md "Digests"). */
type BatchParams = {
  after: number;
  last: number;
  now: number;
  /** 1 when the run makes the weekly digests too. */
  weekly: number;
  /** A first digest (no row in NotificationDigest) lists what came in its period: since these. */
  dayAgo: number;
  weekAgo: number;
  cap: number;
};

// The kinds as rows, each with its default setting (server/rules/email-preferences.ts), for the batch's CROSS JOIN.
const KINDS = sql.join(
  MAIL_KINDS.map((kind) => sql`SELECT ${sql.lit(kind)} AS "kind", ${sql.lit(DEFAULT_EMAIL_SETTINGS[kind])} AS "fallback"`),
  sql` UNION ALL `,
);

/**
 * The batch's one set-based query: for the accounts with ids in (after, last] that may get mail (verified, not
 * suspended) and each kind they get in a digest of this run, the unread notifications newer than that kind's last
 * digest (a first digest: within its period), none whose actor the account blocks; the newest `cap` of each (account,
 * kind), with the group's count and newest id, and what the notifications list shows of them (notifications.queries.ts).
 */
const batchQuery = (p: (name: keyof BatchParams) => number) => sql<DigestItemRow>`
  WITH "due" AS (
    SELECT u."id" AS "userId", u."username", u."email", k."kind", COALESCE(ep."setting", k."fallback") AS "setting"
    FROM "User" u
    CROSS JOIN (${KINDS}) k
    LEFT JOIN "EmailPreference" ep ON ep."userId" = u."id" AND ep."kind" = k."kind"
    WHERE u."id" > ${p("after")} AND u."id" <= ${p("last")} AND u."emailVerified" = 1
      AND (u."suspendedUntil" IS NULL OR u."suspendedUntil" <= ${p("now")})
  ),
  "picked" AS (
    SELECT n."id", d."userId", d."username", d."email", d."setting",
           ROW_NUMBER() OVER (PARTITION BY n."userId", n."kind" ORDER BY n."createdAt" DESC, n."id" DESC) AS "rank",
           COUNT(*) OVER (PARTITION BY n."userId", n."kind") AS "total",
           MAX(n."id") OVER (PARTITION BY n."userId", n."kind") AS "lastId"
    FROM "due" d
    JOIN "Notification" n ON n."userId" = d."userId" AND n."readAt" IS NULL AND n."kind" = d."kind"
    LEFT JOIN "NotificationDigest" nd ON nd."userId" = d."userId" AND nd."kind" = d."kind"
    WHERE (d."setting" = 'daily' OR (d."setting" = 'weekly' AND ${p("weekly")} = 1))
      AND n."id" > COALESCE(nd."lastNotificationId", 0)
      AND (nd."userId" IS NOT NULL OR n."createdAt" > CASE WHEN d."setting" = 'weekly' THEN CAST(${p("weekAgo")} AS BIGINT) ELSE CAST(${p("dayAgo")} AS BIGINT) END)
      AND (n."actorId" IS NULL OR NOT EXISTS (SELECT 1 FROM "Block" b WHERE b."userId" = n."userId" AND b."blockedId" = n."actorId"))
  )
  SELECT x."userId", x."username", x."email", x."setting", x."total", x."lastId",
         n."id", n."kind", n."readAt", n."createdAt", n."actorId", a."username" AS "actorName", a."profileImageId" AS "actorImageId",
         n."commentId", n."postId", CASE WHEN (p."removedReason" IS NULL AND ph."removedReason" IS NULL) OR p."authorId" = n."userId" THEN p."title" ELSE '' END AS "postTitle", ph."name" AS "postHubName",
         n."chapterId", c."number" AS "chapterNumber", CASE WHEN (c."removedReason" IS NULL AND cs."removedReason" IS NULL) OR c."authorId" = n."userId" THEN c."title" ELSE '' END AS "chapterTitle", cs."name" AS "chapterSeriesName",
         n."seriesId", s."name" AS "seriesName", n."hubId", h."name" AS "hubName"
  FROM "picked" x
  JOIN "Notification" n ON n."id" = x."id"
  LEFT JOIN "User" a ON a."id" = n."actorId"
  LEFT JOIN "Post" p ON p."id" = n."postId"
  LEFT JOIN "Hub" ph ON ph."id" = p."hubId"
  LEFT JOIN "Chapter" c ON c."id" = n."chapterId"
  LEFT JOIN "Series" cs ON cs."id" = c."seriesId"
  LEFT JOIN "Series" s ON s."id" = n."seriesId"
  LEFT JOIN "Hub" h ON h."id" = n."hubId"
  WHERE x."rank" <= ${p("cap")}
  ORDER BY x."userId", n."kind", x."rank"`;

/** The digest runs' statements (server/jobs/digests.ts). */
export function createDigestQueries({ kysely }: Database) {
  const q = {
    // ON CONFLICT DO NOTHING on both engines: of several instances, one makes the day's run (and its job).
    startRun: prepare<{ day: number; startedAt: number }, { day: number }>(
      kysely,
      (p) => sql`INSERT INTO "DigestRun" ("day", "startedAt", "mails") VALUES (${p("day")}, ${p("startedAt")}, 0)
                 ON CONFLICT ("day") DO NOTHING RETURNING "day"`,
    ),
    // The batch's accounts: its last id and how many there are (the whole batch walks on, mail or not).
    batchEnd: prepare<{ after: number; limit: number }, { last: number | null; n: number }>(
      kysely,
      (p) => sql`SELECT MAX("id") AS "last", COUNT(*) AS "n"
                 FROM (SELECT "id" FROM "User" WHERE "id" > ${p("after")} ORDER BY "id" LIMIT ${p("limit")}) b`,
    ),
    items: prepare<BatchParams, DigestItemRow>(kysely, batchQuery),
    countMails: prepare<{ day: number; n: number }>(
      kysely,
      (p) => sql`UPDATE "DigestRun" SET "mails" = "mails" + ${p("n")} WHERE "day" = ${p("day")}`,
    ),
    finishRun: prepare<{ day: number; at: number }>(
      kysely,
      (p) => sql`UPDATE "DigestRun" SET "finishedAt" = ${p("at")} WHERE "day" = ${p("day")}`,
    ),
  };

  return {
    /** Makes the day's run and its "digests" job (on the caller's transaction), unless it exists: whether this call made it. */
    async startRun(trx: Executor, day: number, now: number): Promise<boolean> {
      const made = await q.startRun.first({ day, startedAt: now }, trx);
      if (made) await enqueueJob(trx, "digests", day, Date.now());
      return made !== undefined;
    },
    batchEnd: async (trx: Executor, after: number, limit: number) => {
      const row = await q.batchEnd.first({ after, limit }, trx);
      return { last: row?.last === null || row?.last === undefined ? after : Number(row.last), count: Number(row?.n ?? 0) };
    },
    items: (trx: Executor, params: BatchParams) => q.items.all(params, trx),
    /** Where each (account, kind) mailed now starts next time. */
    async recordSent(trx: Executor, rows: Insertable<NotificationDigestTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await trx
        .insertInto("NotificationDigest")
        .values(rows)
        .onConflict((oc) =>
          oc.columns(["userId", "kind"]).doUpdateSet((eb) => ({
            lastNotificationId: eb.ref("excluded.lastNotificationId"),
            sentAt: eb.ref("excluded.sentAt"),
          })),
        )
        .execute();
    },
    countMails: (trx: Executor, day: number, n: number) => q.countMails.run({ day, n }, trx),
    finishRun: (trx: Executor, day: number, at: number) => q.finishRun.run({ day, at }, trx),
  };
}

export type DigestQueries = ReturnType<typeof createDigestQueries>;
