import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { NotificationKind } from "../db/schema.ts";
import { insertNotifications } from "./notify.ts";
import type { NotificationMail } from "./notification-mail.ts";

/** A notification with its actor and the names its subject's title and web path are made of. */
export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  readAt: number | null;
  createdAt: number;
  actorId: number | null;
  actorName: string | null;
  actorImageId: number | null;
  commentId: number | null;
  postId: number | null;
  postTitle: string | null;
  postHubName: string | null;
  chapterId: number | null;
  chapterNumber: number | null;
  chapterTitle: string | null;
  chapterSeriesName: string | null;
  seriesId: number | null;
  seriesName: string | null;
  hubId: number | null;
  hubName: string | null;
}

// The page's ids come from the recipient's index alone; only the page's rows are joined to their actor and subject.
// A join from the ids, not `n.id IN (ids)`: PostgreSQL plans the IN as a hash semi-join over every notification
// (900 ms at 1M rows), and a CROSS JOIN keeps SQLite's order too (the named-entity pages do the same).
const listQuery = (unreadOnly: boolean) => {
  const unread = unreadOnly ? sql`AND "readAt" IS NULL` : sql``;
  // "readAt" (NULL in every unread row) leads the unread order: PostgreSQL does not count `IS NULL` as pinning the
  // index column, so without it it sorted every unread notification for each page (decision 014).
  const unreadFirst = unreadOnly ? sql`"readAt", ` : sql``;
  // A removed post's or chapter's title (or one in a removed hub or series) is left out, but for its author (docs/api.md
  // "Removal").
  return (p: (name: "userId" | "limit" | "offset") => number) => sql<NotificationRow>`
    SELECT n."id", n."kind", n."readAt", n."createdAt", n."actorId", a."username" AS "actorName", a."profileImageId" AS "actorImageId",
           n."commentId", n."postId", CASE WHEN (p."removedReason" IS NULL AND ph."removedReason" IS NULL) OR p."authorId" = n."userId" THEN p."title" ELSE '' END AS "postTitle", ph."name" AS "postHubName",
           n."chapterId", c."number" AS "chapterNumber", CASE WHEN (c."removedReason" IS NULL AND cs."removedReason" IS NULL) OR c."authorId" = n."userId" THEN c."title" ELSE '' END AS "chapterTitle", cs."name" AS "chapterSeriesName",
           n."seriesId", s."name" AS "seriesName", n."hubId", h."name" AS "hubName"
    FROM (SELECT "id" FROM "Notification" WHERE "userId" = ${p("userId")} ${unread}
          ORDER BY ${unreadFirst}"createdAt" DESC, "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}) ids
    CROSS JOIN "Notification" n
    LEFT JOIN "User" a ON a."id" = n."actorId"
    LEFT JOIN "Post" p ON p."id" = n."postId"
    LEFT JOIN "Hub" ph ON ph."id" = p."hubId"
    LEFT JOIN "Chapter" c ON c."id" = n."chapterId"
    LEFT JOIN "Series" cs ON cs."id" = c."seriesId"
    LEFT JOIN "Series" s ON s."id" = n."seriesId"
    LEFT JOIN "Hub" h ON h."id" = n."hubId"
    WHERE n."id" = ids."id"
    ORDER BY n."createdAt" DESC, n."id" DESC`;
};

/** A user's notifications, their unread count, marking them read, and the follow and join notifications. */
export function createNotificationQueries({ kysely }: Database) {
  type Page = { userId: number; limit: number; offset: number };
  const q = {
    list: prepare<Page, NotificationRow>(kysely, listQuery(false)),
    listUnread: prepare<Page, NotificationRow>(kysely, listQuery(true)),
    total: prepare<{ userId: number }, { n: number }>(
      kysely,
      (p) => sql`SELECT COUNT(*) AS "n" FROM "Notification" WHERE "userId" = ${p("userId")}`,
    ),
    unread: prepare<{ userId: number }, { n: number }>(
      kysely,
      (p) => sql`SELECT "unreadNotifications" AS "n" FROM "User" WHERE "id" = ${p("userId")}`,
    ),
    lockUser: prepare<{ userId: number }, { n: number }>(
      kysely,
      (p) =>
        sql`UPDATE "User" SET "unreadNotifications" = "unreadNotifications" WHERE "id" = ${p("userId")} RETURNING "unreadNotifications" AS "n"`,
    ),
    readAll: prepare<{ userId: number; readAt: number }>(
      kysely,
      (p) => sql`UPDATE "Notification" SET "readAt" = ${p("readAt")} WHERE "userId" = ${p("userId")} AND "readAt" IS NULL`,
    ),
    uncount: prepare<{ userId: number; by: number }, { n: number }>(
      kysely,
      (p) => sql`UPDATE "User" SET "unreadNotifications" = "unreadNotifications" - ${p("by")} WHERE "id" = ${p("userId")}
                 RETURNING "unreadNotifications" AS "n"`,
    ),
    seriesAuthor: prepare<{ id: number }, { authorId: number }>(
      kysely,
      (p) => sql`SELECT "authorId" FROM "Series" WHERE "id" = ${p("id")}`,
    ),
    hubCreator: prepare<{ id: number }, { authorId: number }>(kysely, (p) => sql`SELECT "authorId" FROM "Hub" WHERE "id" = ${p("id")}`),
    // Whether this follower (or member) told the owner before: over the (seriesId, actorId) and (hubId, actorId) indexes.
    toldOfFollow: prepare<{ id: number; actorId: number; userId: number }, { one: number }>(
      kysely,
      (p) => sql`SELECT 1 AS "one" FROM "Notification" WHERE "seriesId" = ${p("id")} AND "actorId" = ${p("actorId")}
                 AND "kind" = 'follow' AND "userId" = ${p("userId")} LIMIT 1`,
    ),
    toldOfJoin: prepare<{ id: number; actorId: number; userId: number }, { one: number }>(
      kysely,
      (p) => sql`SELECT 1 AS "one" FROM "Notification" WHERE "hubId" = ${p("id")} AND "actorId" = ${p("actorId")}
                 AND "kind" = 'join' AND "userId" = ${p("userId")} LIMIT 1`,
    ),
  };

  return {
    /** A page of the user's notifications, newest first, and how many there are (unread ones: the kept count). */
    async page(userId: number, unreadOnly: boolean, limit: number, offset: number): Promise<{ total: number; rows: NotificationRow[] }> {
      const rows = await (unreadOnly ? q.listUnread : q.list).all({ userId, limit, offset });
      const total = (await (unreadOnly ? q.unread : q.total).first({ userId }))?.n ?? 0;
      return { total: Number(total), rows };
    },

    unreadCount: async (userId: number) => (await q.unread.first({ userId }))?.n ?? 0,

    /** First in the reading unit: locks the user's row, so notifications made meanwhile wait and are counted right. The unread count. */
    lockUser: async (trx: Executor, userId: number) => (await q.lockUser.first({ userId }, trx))!.n,

    /** Marks the user's own unread notifications among `ids` (all of them: "all") read: how many changed. */
    markRead: async (trx: Executor, userId: number, ids: number[] | "all", readAt: number): Promise<number> =>
      ids === "all"
        ? q.readAll.run({ userId, readAt }, trx)
        : ids.length === 0
          ? 0
          : Number(
              (
                await trx
                  .updateTable("Notification")
                  .set({ readAt })
                  .where("userId", "=", userId)
                  .where("readAt", "is", null)
                  .where("id", "in", ids)
                  .executeTakeFirst()
              ).numUpdatedRows,
            ),

    /** Moves the user's unread count down by `by`: the count after. */
    uncount: async (trx: Executor, userId: number, by: number) => (await q.uncount.first({ userId, by }, trx))!.n,

    /**
     * The counted toggle's hook for follows (kind "follow", to the series' author) or joins ("join", to the hub's
     * creator): told only when the link was made, in its transaction; insertNotifications skips one's own. A follower
     * or member tells the owner once ever (as long as that notification is kept): unfollowing and following again,
     * or leaving and joining again, tells nobody (docs/api.md "Notifications").
     */
    notifyOnLink(kind: "follow" | "join", mail: NotificationMail) {
      const owner = kind === "follow" ? q.seriesAuthor : q.hubCreator;
      const toldBefore = kind === "follow" ? q.toldOfFollow : q.toldOfJoin;
      return async (targetId: number, trx: Executor, change: { userId: number; on: boolean }) => {
        if (!change.on) return;
        const target = await owner.first({ id: targetId }, trx);
        if (!target) return;
        if (await toldBefore.first({ id: targetId, actorId: change.userId, userId: target.authorId }, trx)) return;
        await insertNotifications(
          trx,
          [
            {
              userId: target.authorId,
              kind,
              actorId: change.userId,
              ...(kind === "follow" ? { seriesId: targetId } : { hubId: targetId }),
              createdAt: nowMs(),
            },
          ],
          mail,
        );
      };
    },
  };
}
