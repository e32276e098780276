import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { removeSubject } from "../moderation/removal.service.ts";
import { mayHandleReport, mayReadReportQueue, mayReport, maySeeRemoved, type Actor } from "../rules/permissions.ts";
import type { Paging } from "../rules/paging.ts";
import type { NewReportInput, Report, ReportSubjectType, ResolvedReport, ResolveReportInput } from "../rules/report.ts";
import type { Page } from "../rules/api-responses.ts";
import { createReportQueries, type ReportRow } from "./reports.queries.ts";

const NOT_FOUND: Record<ReportSubjectType, string> = {
  post: "Post not found",
  comment: "Comment not found",
  chapter: "Chapter not found",
  series: "No series found.",
  hub: "No hub found.",
  user: "User not found",
};

/** How much of a comment stands for it in the queue. */
const COMMENT_TITLE_CHARS = 80;

const enc = encodeURIComponent;
const firstChars = (text: string) => Array.from(text).slice(0, COMMENT_TITLE_CHARS).join("");

/** Subjects whose title is their content (not a name that is their address): never copied into the mod log. */
const CONTENT_TYPES: ReadonlySet<ReportSubjectType> = new Set(["post", "comment", "chapter"]);

/**
 * The subject's title and the web path that opens it; both null once it is deleted. `hideRemoved`: the title is null
 * too while the thing (or what holds it) is removed, for answers to those who may not see removed content.
 */
function subjectOf(row: ReportRow, hideRemoved: boolean): Report["subject"] {
  const postPath = row.postHubName !== null ? `/hubs/${enc(row.postHubName)}/${row.postId}` : null;
  const chapterPath = row.chapterSeriesName !== null ? `/series/${enc(row.chapterSeriesName)}/${row.chapterNumber}` : null;
  const chapterTitle = `${row.chapterSeriesName} – Chapter ${row.chapterNumber}: ${row.chapterTitle}`;
  const base = {
    type: row.subjectType,
    id: row.subjectId,
    hubName: row.postHubName,
    seriesName: row.chapterSeriesName ?? row.seriesName,
    removed: row.removedAt !== null,
  };
  const hidden = hideRemoved && row.textHidden === 1;
  const at = (title: string | null, url: string | null) => ({ ...base, title: url === null || hidden ? null : title, url });
  switch (row.subjectType) {
    case "post":
      return at(row.postTitle, postPath);
    case "comment": {
      const place = postPath ?? chapterPath;
      return at(row.commentContent === null ? null : firstChars(row.commentContent), place && `${place}#comment-${row.subjectId}`);
    }
    case "chapter":
      return at(chapterTitle, chapterPath);
    case "series":
      return at(row.seriesName, row.seriesName === null ? null : `/series/${enc(row.seriesName)}`);
    case "hub":
      return at(row.hubName, row.hubName === null ? null : `/hubs/${enc(row.hubName)}`);
    case "user":
      return at(row.username, row.username === null ? null : `/user/${enc(row.username)}`);
  }
}

/**
 * A report as answered; `hideRemoved` for the reporter, who is answered as anyone who may not see removed content
 * (docs/api.md "Reports"), whoever they are.
 */
const toReport = (row: ReportRow, hideRemoved: boolean): Report => ({
  id: row.id,
  subject: subjectOf(row, hideRemoved),
  reason: row.reason,
  note: row.note,
  reporter: row.reporterId !== null && row.reporterName !== null ? { id: row.reporterId, username: row.reporterName } : null,
  status: row.status,
  createdAt: toIso(Number(row.createdAt)),
  openReports: Number(row.openReports),
  resolution: row.resolution,
  resolutionReason: row.resolutionReason,
  resolvedBy: row.resolvedById !== null && row.resolvedByName !== null ? { id: row.resolvedById, username: row.resolvedByName } : null,
  resolvedAt: row.resolvedAt === null ? null : toIso(Number(row.resolvedAt)),
});

/**
 * Whether a queue's reader (or a report's resolver) is left without a removed subject's title: a queue holds only what
 * its reader moderates (an admin's: everything), so its readers see removed content (maySeeRemoved).
 */
const hiddenFromModerator = (actor: Actor) => !maySeeRemoved(actor, { authorId: null, viewerModerates: true });

export function createReportService(db: Database, adminUsernames: readonly string[] = []) {
  const q = createReportQueries(db);

  return {
    /**
     * POST /reports: one open report per reporter and subject. Answers the report and whether it is new (201); the
     * same open subject again answers the first report unchanged (200).
     */
    async report(actor: Actor, input: NewReportInput): Promise<{ report: Report; created: boolean }> {
      const { type, id } = input.subject;
      const subject = await q.subject(type, id);
      if (!subject) throw notFound(NOT_FOUND[type]);
      if (!mayReport(actor, subject)) throw badRequest("You cannot report yourself or your own work");
      const written = await q.insertOrFind({
        reporterId: actor.id,
        subjectType: type,
        subjectId: id,
        reason: input.reason,
        note: input.note,
        hubId: subject.hubId,
        seriesId: subject.seriesId,
        createdAt: nowMs(),
      });
      if (written === "changed") throw conflict("The report changed meanwhile; please try again");
      const { id: reportId, created } = written;
      return { report: toReport((await q.one(reportId))!, true), created };
    },

    /** GET /reports: the caller's queue, newest first (without reports on their own content, but for admins); 403 for those who moderate nothing. */
    async queue(actor: Actor, status: "open" | "resolved", paging: Paging): Promise<Page<Report>> {
      const moderatesSomething = actor.isAdmin || (await q.moderatesSomething(actor.id));
      if (!mayReadReportQueue(actor, moderatesSomething)) {
        throw forbidden("Only moderators, series authors and admins have a moderation queue");
      }
      const { rows, total } = await q.page(actor.isAdmin ? "all" : { userId: actor.id }, status, paging.perPage, offsetOf(paging));
      return pageOf(
        rows.map((row) => toReport(row, hiddenFromModerator(actor))),
        total,
        paging,
      );
    },

    /**
     * POST /reports/{id}/resolve, in one transaction: every open report on the subject resolved, and one mod log entry
     * (`report-dismissed`, or removal's own `removed`). 409 when the report is already resolved.
     */
    resolve: (actor: Actor, reportId: number, input: ResolveReportInput): Promise<ResolvedReport> =>
      db.kysely.transaction().execute(async (trx) => {
        const report = await q.toResolve(reportId, actor.id, trx);
        if (!report) throw notFound("Report not found");
        const hub = report.hubAuthorId === null ? null : { authorId: report.hubAuthorId, actorIsModerator: report.actorIsModerator === 1 };
        if (!mayHandleReport(actor, { hub, seriesAuthorId: report.seriesAuthorId, ownerId: report.ownerId })) {
          throw forbidden(
            report.ownerId === actor.id
              ? "Reports about your own content are resolved by other moderators"
              : "Only the moderators who see this report can resolve it",
          );
        }
        if (report.status !== "open") throw conflict("This report is already resolved");
        if (input.action === "remove" && report.subjectType === "user") {
          throw badRequest("A user cannot be removed: dismiss the report, and suspend the account if needed");
        }
        const subject = { type: report.subjectType, id: report.subjectId };
        const now = nowMs();
        // First: on PostgreSQL it locks the subject's open reports, so a second moderator resolving them waits, then finds none.
        const resolved = await q.resolveAll(
          {
            subjectType: subject.type,
            subjectId: subject.id,
            resolvedById: actor.id,
            resolution: input.action,
            resolutionReason: input.reason,
            resolvedAt: now,
          },
          trx,
        );
        if (resolved === 0) throw conflict("This report is already resolved");
        if (input.action === "remove") {
          await removeSubject(
            trx,
            actor,
            subject as { type: Exclude<ReportSubjectType, "user">; id: number },
            input.reason,
            adminUsernames,
          );
        } else {
          const current = toReport((await q.one(reportId, trx))!, hiddenFromModerator(actor));
          await q.logDismissal(
            {
              // As removal logs: a hub's own entries are in its log, as are those of its posts and their comments.
              hubId: subject.type === "hub" ? subject.id : report.hubId,
              moderatorId: actor.id,
              subjectType: subject.type,
              subjectId: subject.id,
              // As removal logs: a post's, comment's or chapter's text is not copied; a name is.
              title: CONTENT_TYPES.has(subject.type) ? "" : (current.subject.title ?? "[deleted]"),
              reason: input.reason,
              now,
            },
            trx,
          );
        }
        return { resolvedReports: resolved, report: toReport((await q.one(reportId, trx))!, hiddenFromModerator(actor)) };
      }),
  };
}
