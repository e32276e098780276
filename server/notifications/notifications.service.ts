import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { reportWrite } from "../db/write-report.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { Paging } from "../rules/paging.ts";
import type { Notification, Page } from "../rules/api-responses.ts";
import { createNotificationQueries, type NotificationRow } from "./notifications.queries.ts";

const enc = encodeURIComponent;
/** A chapter named with its series, as a notification shows it on its own: "Moon Tide – Chapter 3: The Fall". */
const chapterTitle = (row: NotificationRow) =>
  `${row.chapterSeriesName ?? ""} – Chapter ${row.chapterNumber ?? "?"}: ${row.chapterTitle ?? ""}`;
const postPath = (row: NotificationRow) => `/hubs/${enc(row.postHubName ?? "")}/${row.postId}`;
const chapterPath = (row: NotificationRow) => `/series/${enc(row.chapterSeriesName ?? "")}/${row.chapterNumber}`;

/** What a notification is about, and the web path that opens it (docs/api.md §11). */
function subjectOf(row: NotificationRow): Notification["subject"] {
  switch (row.kind) {
    case "chapter":
      return { type: "chapter", id: row.chapterId!, title: chapterTitle(row), url: chapterPath(row) };
    case "follow":
      return { type: "series", id: row.seriesId!, title: row.seriesName ?? "", url: `/series/${enc(row.seriesName ?? "")}` };
    case "join":
      return { type: "hub", id: row.hubId!, title: row.hubName ?? "", url: `/hubs/${enc(row.hubName ?? "")}` };
    default: {
      // reply, comment, mention: about a comment, on a post or a chapter; a mention in a post itself has no comment.
      const onPost = row.postId !== null;
      const title = onPost ? (row.postTitle ?? "") : chapterTitle(row);
      const where = onPost ? postPath(row) : chapterPath(row);
      if (row.commentId === null) return { type: "post", id: row.postId!, title, url: where };
      return { type: "comment", id: row.commentId, title, url: `${where}#comment-${row.commentId}` };
    }
  }
}

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
