// The API calls of the report form and the moderation queue (docs/api.md "Reports"), on the typed client's `call`.
import type { NewReportInput, Report, ResolvedReport, ResolveReportInput } from "../../server/rules/report.ts";
import type { Page } from "../../server/rules/api-responses.ts";
import type { Api } from "./api.server.ts";

/** Reports on a queue page. */
export const REPORTS_PER_PAGE = 20;

export const sendReport = (api: Api, body: NewReportInput) => api.call<Report>("/reports", { method: "POST", body });

export const reportQueue = (api: Api, status: "open" | "resolved", page: number) =>
  api.call<Page<Report>>("/reports", { query: { status, page, per_page: REPORTS_PER_PAGE } });

export const resolveReport = (api: Api, id: number, body: ResolveReportInput) =>
  api.call<ResolvedReport>(`/reports/${id}/resolve`, { method: "POST", body });
