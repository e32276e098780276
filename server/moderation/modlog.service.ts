import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import type { ModLogSubjectType } from "../db/schema.ts";
import { forbidden } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { ModLogItem, SiteModLogItem } from "../rules/modlog.ts";
import type { Paging } from "../rules/paging.ts";
import { mayReadSiteModLog, type Actor } from "../rules/permissions.ts";
import type { Page } from "../rules/responses.ts";
import { createModLogQueries, type ModLogRow } from "./modlog.queries.ts";

const toItem = (row: ModLogRow): ModLogItem => ({
  id: row.id,
  action: row.action,
  moderator: row.moderatorId === null ? null : { id: row.moderatorId, username: row.moderatorName! },
  subject: { type: row.subjectType as ModLogSubjectType, id: row.subjectId, title: row.subjectTitle },
  reason: row.reason,
  createdAt: toIso(row.createdAt),
});

const toSiteItem = (row: ModLogRow): SiteModLogItem => ({
  ...toItem(row),
  hub: row.hubId === null ? null : { id: row.hubId, name: row.hubName },
});

/** The mod logs (CONTRACT.md 13): a hub's, public; the site's (every entry), admins only. Newest first. */
export function createModLogService(db: Database) {
  const q = createModLogQueries(db);
  return {
    /** GET /hubs/{name}/modlog: `hubId` resolved by the router. */
    async ofHub(hubId: number, paging: Paging): Promise<Page<ModLogItem>> {
      const [rows, total] = await Promise.all([q.hubPage(hubId, paging.perPage, offsetOf(paging)), q.hubTotal(hubId)]);
      return pageOf(rows.map(toItem), total, paging);
    },

    async ofSite(paging: Paging, actor: Actor): Promise<Page<SiteModLogItem>> {
      if (!mayReadSiteModLog(actor)) throw forbidden("Only admins can read the site's mod log");
      const [rows, total] = await Promise.all([q.sitePage(paging.perPage, offsetOf(paging)), q.siteTotal()]);
      return pageOf(rows.map(toSiteItem), total, paging);
    },
  };
}
