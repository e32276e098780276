// Reports and the moderation queue (docs/api.md "Reports", docs/decisions/018-governance.md "Reports"): the requests and the
// answers. Pure; the web's forms take the labels from report-reasons.ts (no zod in the pages' JavaScript).
import { z } from "zod";
import { PagingQuery } from "./paging.ts";
import { MAX_ID, text } from "./text.ts";
import { REPORT_NOTE_MAX, REPORT_REASONS, REPORT_SUBJECT_TYPES, RESOLUTION_REASON_MAX, type ReportSubjectType } from "./report-reasons.ts";

export { REPORT_NOTE_MAX, REPORT_REASONS, REPORT_SUBJECT_TYPES, RESOLUTION_REASON_MAX, type ReportSubjectType };

/** Reports per user per hour by default (a stranger can repeat them); 0 turns the limit off. */
export const DEFAULT_REPORT_RATE_PER_HOUR = 30;

export const reportRateMessage = (retryAfterSeconds: number) =>
  `You are reporting too often. Please try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`;

const subjectId = z
  .number({ error: "Subject id must be a positive whole number" })
  .int("Subject id must be a positive whole number")
  .min(1, "Subject id must be a positive whole number")
  .max(MAX_ID, "Subject id must be a positive whole number");

export const ReportSubject = z.object({
  type: z.enum(REPORT_SUBJECT_TYPES, { error: `Subject type must be one of ${REPORT_SUBJECT_TYPES.join(", ")}` }),
  id: subjectId,
});

export const ReportNote = text("Note", { max: [REPORT_NOTE_MAX, `Note must be at most ${REPORT_NOTE_MAX} characters`] });

export const NewReportBody = z.object({
  subject: ReportSubject,
  reason: z.enum(REPORT_REASONS, { error: `Reason must be one of ${REPORT_REASONS.join(", ")}` }),
  note: ReportNote,
});
export type NewReportInput = z.infer<typeof NewReportBody>;

export const ResolutionReason = text("Reason", {
  required: "A reason is required",
  max: [RESOLUTION_REASON_MAX, `Reason must be at most ${RESOLUTION_REASON_MAX} characters`],
});

export const RESOLUTIONS = ["dismiss", "remove"] as const;

export const ResolveReportBody = z.object({
  action: z.enum(RESOLUTIONS, { error: "Action must be dismiss or remove" }),
  reason: ResolutionReason,
});
export type ResolveReportInput = z.infer<typeof ResolveReportBody>;

export const ReportsQuery = PagingQuery.extend({
  status: z.enum(["open", "resolved"], { error: "status must be open or resolved" }).default("open"),
});

const id = z.number().int().positive();
const date = z.iso.datetime();
const UserRef = z.object({ id, username: z.string() });

export const Report = z.object({
  id,
  subject: z.object({
    type: z.enum(REPORT_SUBJECT_TYPES),
    id,
    title: z.string().nullable().describe("A post's or chapter's title, a comment's first words, a name; null once it is deleted"),
    url: z.string().nullable().describe("The web path that opens it; null once it is deleted"),
    hubName: z.string().nullable().describe("The hub of a post or of a comment on one"),
    seriesName: z.string().nullable().describe("The series of a chapter or of a comment on one"),
    removed: z.boolean().describe("Moderators have removed it"),
  }),
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  reporter: UserRef.nullable().describe("null once the reporter's account is gone"),
  status: z.enum(["open", "resolved"]),
  createdAt: date,
  openReports: z
    .number()
    .int()
    .nonnegative()
    .describe("Open reports on the same subject, this one included (resolving one resolves them all)"),
  resolution: z.enum(RESOLUTIONS).nullable(),
  resolutionReason: z.string().nullable(),
  resolvedBy: UserRef.nullable(),
  resolvedAt: date.nullable(),
});
export type Report = z.infer<typeof Report>;

/** The answer of a resolve: how many open reports on the subject it resolved, and the report as it is now. */
export const ResolvedReport = z.object({
  resolvedReports: z.number().int().positive(),
  report: Report,
});
export type ResolvedReport = z.infer<typeof ResolvedReport>;
