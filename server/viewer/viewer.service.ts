import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { createNotificationQueries } from "../notifications/notifications.queries.ts";
import { createProgressQueries } from "../progress/progress.queries.ts";
import type { ViewerState } from "../rules/viewer.ts";
import { createUserService } from "../users/users.service.ts";

/**
 * The viewer's state in one answer (docs/api.md "The viewer's state"): what the web app's pages otherwise read in
 * separate calls (the caller's own user for the role and showMature, the unread count, the reading position).
 */
export function createViewerService(db: Database, adminUsernames: readonly string[] = []) {
  const progress = createProgressQueries(db);
  const users = createUserService(db, adminUsernames);
  const notifications = createNotificationQueries(db);
  return {
    async state(userId: number): Promise<ViewerState> {
      const [user, unreadCount, latest] = await Promise.all([
        users.getById(userId, userId),
        notifications.unreadCount(userId),
        progress.latest(userId),
      ]);
      return {
        user,
        unreadCount: Number(unreadCount),
        reading: latest
          ? {
              seriesId: Number(latest.seriesId),
              chapterNumber: Number(latest.chapterNumber),
              page: Number(latest.page),
              updatedAt: toIso(Number(latest.updatedAt)),
            }
          : null,
      };
    },
  };
}
