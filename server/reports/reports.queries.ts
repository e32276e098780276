import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { ReportReason, ReportSubjectType } from "../db/schema.ts";

/** A subject as reporting needs it: whose it is, and the queue its reports go to. */
export interface ReportedSubject {
  /** The author (a chapter's: its series'); a user is their own. Null for a comment whose author is gone. */
  ownerId: number | null;
  hubId: number | null;
  seriesId: number | null;
}

/** A report with its people and the names its subject's title and web path are made of. */
export interface ReportRow {
  id: number;
  subjectType: ReportSubjectType;
  subjectId: number;
  reason: ReportReason;
  note: string;
  status: "open" | "resolved";
  hubId: number | null;
  createdAt: number;
  resolvedAt: number | null;
  resolution: "dismiss" | "remove" | null;
  resolutionReason: string | null;
  reporterId: number | null;
  reporterName: string | null;
  resolvedById: number | null;
  resolvedByName: string | null;
  openReports: number;
  /** The post of a post or of a comment on one. */
  postId: number | null;
  postTitle: string | null;
  postHubName: string | null;
  commentContent: string | null;
  /** The chapter of a chapter or of a comment on one. */
  chapterNumber: number | null;
  chapterTitle: string | null;
  chapterSeriesName: string | null;
  seriesName: string | null;
  hubName: string | null;
  username: string | null;
  removedAt: number | null;
  /** 1 when a post, comment or chapter, or what holds it (its post, hub, chapter or series), is removed. */
  textHidden: number;
}

/** A report as resolving sees it, with the facts its permission needs. */
export interface ReportToResolve {
  id: number;
  subjectType: ReportSubjectType;
  subjectId: number;
  status: "open" | "resolved";
  hubId: number | null;
  hubAuthorId: number | null;
  actorIsModerator: number;
  seriesAuthorId: number | null;
  /** Whose the reported thing is (a chapter's: its series' author; a user is their own); null once it is gone. */
  ownerId: number | null;
}

const SUBJECT: Record<ReportSubjectType, (id: number) => RawBuilder<ReportedSubject>> = {
  post: (id) => sql`SELECT "authorId" AS "ownerId", "hubId", NULL AS "seriesId" FROM "Post" WHERE "id" = ${id}`,
  // A tombstone (deleted with replies) has nothing left to report.
  comment: (id) => sql`SELECT c."authorId" AS "ownerId", p."hubId", ch."seriesId"
    FROM "Comment" c LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId"
    WHERE c."id" = ${id} AND c."deletedAt" IS NULL`,
  // Chapters, series, hubs and users are for admins only: no queue besides theirs.
  chapter: (id) => sql`SELECT "authorId" AS "ownerId", NULL AS "hubId", NULL AS "seriesId" FROM "Chapter" WHERE "id" = ${id}`,
  series: (id) => sql`SELECT "authorId" AS "ownerId", NULL AS "hubId", NULL AS "seriesId" FROM "Series" WHERE "id" = ${id}`,
  hub: (id) => sql`SELECT "authorId" AS "ownerId", NULL AS "hubId", NULL AS "seriesId" FROM "Hub" WHERE "id" = ${id}`,
  user: (id) => sql`SELECT "id" AS "ownerId", NULL AS "hubId", NULL AS "seriesId" FROM "User" WHERE "id" = ${id}`,
};

// The reports a caller who is not an admin sees: those of the hubs they created or were added to, and the comments on
// their series' chapters. Each part is a range of its index (hubId or seriesId, status, createdAt desc, id desc); the
// database merges the caller's few ranges.
// Reports about the caller's own post or comment are not theirs to judge: left out (one primary-key probe per report
// of the caller's ranges; those queues hold posts and comments only).
const SCOPED = (p: (name: "userId" | "status") => unknown) => sql`"status" = ${p("status")} AND (
    "hubId" IN (SELECT "id" FROM "Hub" WHERE "authorId" = ${p("userId")} UNION SELECT "hubId" FROM "HubModerator" WHERE "userId" = ${p("userId")})
    OR "seriesId" IN (SELECT "id" FROM "Series" WHERE "authorId" = ${p("userId")}))
  AND NOT ("subjectType" = 'post' AND EXISTS (SELECT 1 FROM "Post" o WHERE o."id" = "Report"."subjectId" AND o."authorId" = ${p("userId")}))
  AND NOT ("subjectType" = 'comment' AND EXISTS (SELECT 1 FROM "Comment" o WHERE o."id" = "Report"."subjectId" AND o."authorId" = ${p("userId")}))`;

// The page's ids come from the queue's index; only the page's rows are joined to their people and subject (as the
// notification list does: a CROSS JOIN from the ids keeps the order on both engines).
const detail = (ids: RawBuilder<unknown>) => sql<ReportRow>`
  SELECT r."id", r."subjectType", r."subjectId", r."reason", r."note", r."status", r."hubId", r."createdAt", r."resolvedAt",
         r."resolution", r."resolutionReason", r."reporterId", ru."username" AS "reporterName",
         r."resolvedById", rb."username" AS "resolvedByName",
         (SELECT COUNT(*) FROM "Report" o WHERE o."subjectType" = r."subjectType" AND o."subjectId" = r."subjectId" AND o."status" = 'open') AS "openReports",
         p."id" AS "postId", p."title" AS "postTitle", ph."name" AS "postHubName", c."content" AS "commentContent",
         ch."number" AS "chapterNumber", ch."title" AS "chapterTitle", cs."name" AS "chapterSeriesName",
         s."name" AS "seriesName", h."name" AS "hubName", u."username",
         CASE r."subjectType" WHEN 'post' THEN p."removedAt" WHEN 'comment' THEN c."removedAt" WHEN 'chapter' THEN ch."removedAt"
                              WHEN 'series' THEN s."removedAt" WHEN 'hub' THEN h."removedAt" END AS "removedAt",
         CASE WHEN r."subjectType" IN ('post', 'comment', 'chapter') AND (c."removedAt" IS NOT NULL OR p."removedAt" IS NOT NULL
                OR ph."removedAt" IS NOT NULL OR ch."removedAt" IS NOT NULL OR cs."removedAt" IS NOT NULL) THEN 1 ELSE 0 END AS "textHidden"
  FROM (${ids}) ids
  CROSS JOIN "Report" r
  LEFT JOIN "User" ru ON ru."id" = r."reporterId"
  LEFT JOIN "User" rb ON rb."id" = r."resolvedById"
  LEFT JOIN "Comment" c ON r."subjectType" = 'comment' AND c."id" = r."subjectId" AND c."deletedAt" IS NULL
  LEFT JOIN "Post" p ON p."id" = CASE r."subjectType" WHEN 'post' THEN r."subjectId" WHEN 'comment' THEN c."postId" END
  LEFT JOIN "Hub" ph ON ph."id" = p."hubId"
  LEFT JOIN "Chapter" ch ON ch."id" = CASE r."subjectType" WHEN 'chapter' THEN r."subjectId" WHEN 'comment' THEN c."chapterId" END
  LEFT JOIN "Series" cs ON cs."id" = ch."seriesId"
  LEFT JOIN "Series" s ON r."subjectType" = 'series' AND s."id" = r."subjectId"
  LEFT JOIN "Hub" h ON r."subjectType" = 'hub' AND h."id" = r."subjectId"
  LEFT JOIN "User" u ON r."subjectType" = 'user' AND u."id" = r."subjectId"
  WHERE r."id" = ids."id"
  ORDER BY r."createdAt" DESC, r."id" DESC`;

export type NewReport = {
  reporterId: number;
  subjectType: ReportSubjectType;
  subjectId: number;
  reason: ReportReason;
  note: string;
  hubId: number | null;
  seriesId: number | null;
  createdAt: number;
};

export type Resolution = {
  subjectType: ReportSubjectType;
  subjectId: number;
  resolvedById: number;
  resolution: "dismiss" | "remove";
  resolutionReason: string;
  resolvedAt: number;
};

/** Reports (docs/api.md "Reports", docs/decisions/018-governance.md): writing them, the queues, resolving. */
export function createReportQueries({ kysely }: Database) {
  type Page = { status: string; limit: number; offset: number };
  type ScopedPage = Page & { userId: number };
  const q = {
    allPage: prepare<Page, ReportRow>(kysely, (p) =>
      detail(
        sql`SELECT "id" FROM "Report" WHERE "status" = ${p("status")} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}`,
      ),
    ),
    allTotal: prepare<{ status: string }, { n: number }>(
      kysely,
      (p) => sql`SELECT COUNT(*) AS "n" FROM "Report" WHERE "status" = ${p("status")}`,
    ),
    scopedPage: prepare<ScopedPage, ReportRow>(kysely, (p) =>
      detail(
        sql`SELECT "id" FROM "Report" WHERE ${SCOPED(p)} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}`,
      ),
    ),
    scopedTotal: prepare<{ status: string; userId: number }, { n: number }>(
      kysely,
      (p) => sql`SELECT COUNT(*) AS "n" FROM "Report" WHERE ${SCOPED(p)}`,
    ),
    one: prepare<{ id: number }, ReportRow>(kysely, (p) => detail(sql`SELECT "id" FROM "Report" WHERE "id" = ${p("id")}`)),
    moderatesSomething: prepare<{ userId: number }, { yes: number }>(
      kysely,
      (p) => sql`SELECT CASE WHEN EXISTS (SELECT 1 FROM "Hub" WHERE "authorId" = ${p("userId")})
                               OR EXISTS (SELECT 1 FROM "HubModerator" WHERE "userId" = ${p("userId")})
                               OR EXISTS (SELECT 1 FROM "Series" WHERE "authorId" = ${p("userId")}) THEN 1 ELSE 0 END AS "yes"`,
    ),
    toResolve: prepare<{ id: number; actorId: number }, ReportToResolve>(
      kysely,
      (p) => sql`SELECT r."id", r."subjectType", r."subjectId", r."status", r."hubId", h."authorId" AS "hubAuthorId",
                        CASE WHEN EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = r."hubId" AND m."userId" = ${p("actorId")})
                             THEN 1 ELSE 0 END AS "actorIsModerator",
                        s."authorId" AS "seriesAuthorId",
                        CASE r."subjectType"
                          WHEN 'post' THEN (SELECT "authorId" FROM "Post" WHERE "id" = r."subjectId")
                          WHEN 'comment' THEN (SELECT "authorId" FROM "Comment" WHERE "id" = r."subjectId")
                          WHEN 'chapter' THEN (SELECT "authorId" FROM "Chapter" WHERE "id" = r."subjectId")
                          WHEN 'series' THEN (SELECT "authorId" FROM "Series" WHERE "id" = r."subjectId")
                          WHEN 'hub' THEN (SELECT "authorId" FROM "Hub" WHERE "id" = r."subjectId")
                          ELSE r."subjectId" END AS "ownerId"
                 FROM "Report" r LEFT JOIN "Hub" h ON h."id" = r."hubId" LEFT JOIN "Series" s ON s."id" = r."seriesId"
                 WHERE r."id" = ${p("id")}`,
    ),
    openOfReporter: prepare<{ reporterId: number; subjectType: string; subjectId: number }, { id: number }>(
      kysely,
      (p) => sql`SELECT "id" FROM "Report" WHERE "reporterId" = ${p("reporterId")} AND "subjectType" = ${p("subjectType")}
                   AND "subjectId" = ${p("subjectId")} AND "status" = 'open'`,
    ),
    // The partial unique index (one open report per reporter and subject) turns a second one into nothing.
    insert: prepare<NewReport, { id: number }>(
      kysely,
      (p) => sql`INSERT INTO "Report" ("reporterId", "subjectType", "subjectId", "reason", "note", "hubId", "seriesId", "createdAt")
                 VALUES (${p("reporterId")}, ${p("subjectType")}, ${p("subjectId")}, ${p("reason")}, ${p("note")}, ${p("hubId")},
                         ${p("seriesId")}, ${p("createdAt")})
                 ON CONFLICT DO NOTHING RETURNING "id"`,
    ),
    resolveAll: prepare<Resolution>(
      kysely,
      (p) => sql`UPDATE "Report" SET "status" = 'resolved', "resolvedAt" = ${p("resolvedAt")}, "resolvedById" = ${p("resolvedById")},
                        "resolution" = ${p("resolution")}, "resolutionReason" = ${p("resolutionReason")}
                 WHERE "subjectType" = ${p("subjectType")} AND "subjectId" = ${p("subjectId")} AND "status" = 'open'`,
    ),
    log: prepare<{
      hubId: number | null;
      moderatorId: number;
      subjectType: string;
      subjectId: number;
      title: string;
      reason: string;
      now: number;
    }>(
      kysely,
      (
        p,
      ) => sql`INSERT INTO "ModLogEntry" ("hubId", "action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason", "createdAt")
                 VALUES (${p("hubId")}, 'report-dismissed', ${p("moderatorId")}, ${p("subjectType")}, ${p("subjectId")}, ${p("title")},
                         ${p("reason")}, ${p("now")})`,
    ),
  };

  return {
    subject: (type: ReportSubjectType, id: number): Promise<ReportedSubject | undefined> =>
      SUBJECT[type](id)
        .execute(kysely)
        .then((r) => r.rows[0]),

    /**
     * Writes the report, or finds the reporter's open one on the subject: its id, and whether it is new. "changed": twice
     * the open report the insert ran into was resolved before it could be read.
     */
    async insertOrFind(report: NewReport): Promise<{ id: number; created: boolean } | "changed"> {
      for (let attempt = 0; attempt < 2; attempt++) {
        const inserted = await q.insert.first(report);
        if (inserted) return { id: inserted.id, created: true };
        const open = await q.openOfReporter.first(report);
        if (open) return { id: open.id, created: false };
      }
      return "changed";
    },

    one: (id: number, on?: Executor) => q.one.first({ id }, on),

    /** A page of a queue, newest first, and its total: every report (admins), or those the caller moderates. */
    async page(scope: "all" | { userId: number }, status: "open" | "resolved", limit: number, offset: number) {
      if (scope === "all") {
        const [rows, total] = await Promise.all([q.allPage.all({ status, limit, offset }), q.allTotal.first({ status })]);
        return { rows, total: Number(total?.n ?? 0) };
      }
      const params = { status, userId: scope.userId };
      const [rows, total] = await Promise.all([q.scopedPage.all({ ...params, limit, offset }), q.scopedTotal.first(params)]);
      return { rows, total: Number(total?.n ?? 0) };
    },

    moderatesSomething: async (userId: number) => (await q.moderatesSomething.first({ userId }))?.yes === 1,

    toResolve: (id: number, actorId: number, on: Executor) => q.toResolve.first({ id, actorId }, on),

    /** Resolves every open report on the subject: how many. */
    resolveAll: (resolution: Resolution, on: Executor) => q.resolveAll.run(resolution, on),

    logDismissal: (
      entry: {
        hubId: number | null;
        moderatorId: number;
        subjectType: string;
        subjectId: number;
        title: string;
        reason: string;
        now: number;
      },
      on: Executor,
    ) => q.log.run(entry, on),
  };
}
