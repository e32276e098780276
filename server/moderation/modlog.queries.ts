import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { ModLogAction, ModLogSubjectType } from "../db/schema.ts";

/** One mod log row to write: in the transaction of the action it records (docs/decisions/018-governance.md). */
export interface NewModLogEntry {
  /** Null for site-wide actions (suspensions). */
  hubId: number | null;
  action: ModLogAction;
  moderatorId: number;
  subjectType: ModLogSubjectType;
  subjectId: number;
  /**
   * A user's, hub's or series' name, copied so the entry still reads after the subject is gone; "" for a post,
   * comment or chapter, whose text is never copied (docs/api.md "Bans, suspensions and the mod log").
   */
  subjectTitle: string;
  reason: string;
  createdAt: number;
}

export async function insertModLogEntry(on: Executor, entry: NewModLogEntry): Promise<void> {
  await on.insertInto("ModLogEntry").values(entry).execute();
}

export interface ModLogRow {
  id: number;
  hubId: number | null;
  /** The hub's name now; null for site entries and for hubs deleted since. */
  hubName: string | null;
  action: string;
  moderatorId: number | null;
  moderatorName: string | null;
  subjectType: string;
  subjectId: number;
  subjectTitle: string;
  reason: string;
  createdAt: number;
  /** The site log only: a post's title, a comment's text, a chapter's "{series} — Chapter {n}: {title}" as they are now; null once gone. */
  currentTitle?: string | null;
}

type PageParams = { limit: number; offset: number };

const COLUMNS = sql`e."id", e."hubId", h."name" AS "hubName", e."action", e."moderatorId", u."username" AS "moderatorName",
    e."subjectType", e."subjectId", e."subjectTitle", e."reason", e."createdAt"`;
const FROM = sql`FROM "ModLogEntry" e LEFT JOIN "User" u ON u."id" = e."moderatorId" LEFT JOIN "Hub" h ON h."id" = e."hubId"`;
const ENTRY = sql`SELECT ${COLUMNS} ${FROM}`;
// Admins may see removed content: the site log reads a post's, comment's or chapter's title as it is now (one
// primary-key read per entry of the page), instead of a copy.
const SITE_ENTRY = sql`SELECT ${COLUMNS}, CASE e."subjectType"
      WHEN 'post' THEN (SELECT "title" FROM "Post" WHERE "id" = e."subjectId")
      WHEN 'comment' THEN (SELECT "content" FROM "Comment" WHERE "id" = e."subjectId" AND "deletedAt" IS NULL)
      WHEN 'chapter' THEN (SELECT s."name" || ' — Chapter ' || CAST(c."number" AS TEXT) || ': ' || c."title"
                           FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId" WHERE c."id" = e."subjectId")
    END AS "currentTitle" ${FROM}`;

/**
 * The mod logs, newest first: a hub's over `(hubId, createdAt, id)`, the site's (every entry) over `(createdAt, id)`.
 * The page's ids are picked on the index alone, then joined to the moderator's and hub's names (one row each).
 */
export function createModLogQueries({ kysely }: Database) {
  const hubPage = prepare<PageParams & { hubId: number }, ModLogRow>(
    kysely,
    (p) => sql`${ENTRY} WHERE e."id" IN (SELECT "id" FROM "ModLogEntry" WHERE "hubId" = ${p("hubId")}
                 ORDER BY "createdAt" DESC, "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")})
               ORDER BY e."createdAt" DESC, e."id" DESC`,
  );
  const hubTotal = prepare<{ hubId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT COUNT(*) AS "n" FROM "ModLogEntry" WHERE "hubId" = ${p("hubId")}`,
  );
  const sitePage = prepare<PageParams, ModLogRow>(
    kysely,
    (p) => sql`${SITE_ENTRY} WHERE e."id" IN (SELECT "id" FROM "ModLogEntry"
                 ORDER BY "createdAt" DESC, "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")})
               ORDER BY e."createdAt" DESC, e."id" DESC`,
  );
  const siteTotal = prepare<Record<string, never>, { n: number }>(kysely, () => sql`SELECT COUNT(*) AS "n" FROM "ModLogEntry"`);

  return {
    hubPage: (hubId: number, limit: number, offset: number) => hubPage.all({ hubId, limit, offset }),
    hubTotal: async (hubId: number) => (await hubTotal.first({ hubId }))!.n,
    sitePage: (limit: number, offset: number) => sitePage.all({ limit, offset }),
    siteTotal: async () => (await siteTotal.first({}))!.n,
  };
}
