import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import type { ModLogSubjectType } from "../db/schema.ts";
import { forbidden } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { ModLogItem, SiteModLogItem } from "../rules/modlog.ts";
import type { Paging } from "../rules/paging.ts";
import { mayReadSiteModLog, type Actor } from "../rules/permissions.ts";
import type { Page } from "../rules/api-responses.ts";
import type { HubLookup } from "./bans.service.ts";
import { createModLogQueries, type ModLogRow } from "./modlog.queries.ts";

const COMMENT_TITLE_CHARS = 80;

/** Subjects whose title would be their content: a log names them by type and id only (docs/api.md "Mod log"). */
const CONTENT_TYPES: ReadonlySet<string> = new Set(["post", "comment", "chapter"]);

/**
 * An entry as the public hub log shows it: a user's, hub's or series' name as copied; null for a post, comment or
 * chapter, also for an older entry that still holds a copy of its text.
 */
const toItem = (row: ModLogRow): ModLogItem => ({
  id: row.id,
  action: row.action,
  moderator: row.moderatorId === null ? null : { id: row.moderatorId, username: row.moderatorName! },
  subject: {
    type: row.subjectType as ModLogSubjectType,
    id: row.subjectId,
    title: CONTENT_TYPES.has(row.subjectType) ? null : row.subjectTitle,
  },
  reason: row.reason,
  createdAt: toIso(row.createdAt),
});

/** The site log (admins, who may see removed content): a post's, comment's or chapter's title as it is now. */
const toSiteItem = (row: ModLogRow): SiteModLogItem => {
  const item = toItem(row);
  const current = row.currentTitle ?? null;
  const title = row.subjectType === "comment" && current !== null ? Array.from(current).slice(0, COMMENT_TITLE_CHARS).join("") : current;
  return {
    ...item,
    subject: CONTENT_TYPES.has(row.subjectType) ? { ...item.subject, title } : item.subject,
    hub: row.hubId === null ? null : { id: row.hubId, name: row.hubName },
  };
};

/** The mod logs (docs/api.md "Bans, suspensions and the mod log"): a hub's, public; the site's (every entry), admins only. Newest first. */
export function createModLogService(db: Database, hubs: HubLookup) {
  const q = createModLogQueries(db);
  return {
    /** GET /hubs/{name}/modlog. */
    async ofHub(hubName: string, paging: Paging): Promise<Page<ModLogItem>> {
      const hubId = await hubs.resolveId(hubName);
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
