import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { reportWrite } from "../db/write-report.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { Paging } from "../rules/paging.ts";
import type { Notification, Page } from "../rules/api-responses.ts";
import { createNotificationQueries, type NotificationRow } from "./notifications.queries.ts";
import { subjectOf } from "./subject.ts";

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  kind: row.kind,
  read: row.readAt !== null,
  createdAt: toIso(Number(row.createdAt)),
  actor:
    row.actorId !== null && row.actorName !== null ? { id: row.actorId, username: row.actorName, profileImageID: row.actorImageId } : null,
  subject: subjectOf(row),
});

export function createNotificationService(db: Database) {
  const notifications = createNotificationQueries(db);
  return {
    /** The caller's notifications, newest first; `unreadOnly` leaves out the read ones. */
    async list(userId: number, unreadOnly: boolean, paging: Paging): Promise<Page<Notification>> {
      const { total, rows } = await notifications.page(userId, unreadOnly, paging.perPage, offsetOf(paging));
      return pageOf(rows.map(toNotification), total, paging);
    },

    unreadCount: async (userId: number) => ({ count: await notifications.unreadCount(userId) }),

    /** Marks the caller's own notifications read (others' ids are ignored); answers the unread count after. */
    markRead: async (userId: number, input: { ids?: number[]; all?: boolean }) => ({
      count: await db.kysely.transaction().execute(async (trx) => {
        const before = await notifications.lockUser(trx, userId);
        const changed = await notifications.markRead(trx, userId, input.all === true ? "all" : [...new Set(input.ids ?? [])], nowMs());
        // Read or unknown ids change nothing: the data version may stay (server/db/write-report.ts).
        reportWrite(changed > 0);
        return changed === 0 ? before : notifications.uncount(trx, userId, changed);
      }),
    }),
  };
}
