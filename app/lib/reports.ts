// Reports on the web (docs/web.md "Reports"): the report form's address. Constants from report-reasons.ts only (no zod).
import { REPORT_SUBJECT_TYPES, type ReportSubjectType } from "../../server/rules/report-reasons.ts";

export const isReportSubjectType = (v: unknown): v is ReportSubjectType => (REPORT_SUBJECT_TYPES as readonly unknown[]).includes(v);

/** The report form of a thing, coming back to `back` (the page it was asked from) when done or cancelled. */
export const reportPath = (type: ReportSubjectType, id: number, back?: string) =>
  `/report/${type}/${id}${back ? `?back=${encodeURIComponent(back)}` : ""}`;

/** What the form and the queue call each kind of subject. */
export const SUBJECT_NOUNS: Record<ReportSubjectType, string> = {
  post: "post",
  comment: "comment",
  chapter: "chapter",
  series: "series",
  hub: "hub",
  user: "user",
};
