import type { RequestHandler } from "express";
import { z } from "zod";
import { memoryAttemptCounter, type AttemptCounter, type AttemptCounters } from "../http/attempt-counter.ts";
import { endpointsFor } from "../http/endpoint.ts";
import { TooManyRequests } from "../http/errors.ts";
import { toPaging } from "../rules/paging.ts";
import {
  DEFAULT_REPORT_RATE_PER_HOUR,
  NewReportBody,
  Report,
  ReportsQuery,
  reportRateMessage,
  ResolvedReport,
  ResolveReportBody,
} from "../rules/report.ts";
import { pageSchema } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** Counts a report per user before its body is looked at; beyond the limit, 429 with Retry-After. */
function limitReportRate(reports: AttemptCounter): RequestHandler {
  return async (_req, res, next) => {
    const wait = await reports.take(String((res.locals.user as { id: number }).id));
    next(wait === null ? undefined : new TooManyRequests(reportRateMessage(wait), wait));
  };
}

export interface ReportEndpointConfig {
  /** Reports per user per hour; 0 turns the limit off. */
  reportRatePerHour?: number;
}

/** Reports and the moderation queue (docs/api.md "Reports", docs/decisions/018-governance.md "Reports"). */
export function reportEndpoints(
  { reportRatePerHour = DEFAULT_REPORT_RATE_PER_HOUR }: ReportEndpointConfig,
  counters: AttemptCounters = memoryAttemptCounter,
) {
  const rate = reportRatePerHour > 0 ? [limitReportRate(counters("report", reportRatePerHour, 3600))] : [];
  return [
    endpoint({
      method: "post",
      path: "/reports",
      tag: "Moderation",
      summary:
        "Report a post, comment, chapter, series, hub or user (signed in; not your own): 201 with the report, or 200 with your open report on it",
      auth: "required",
      body: NewReportBody,
      rateLimited: true,
      before: rate,
      status: 201,
      otherStatuses: [200],
      response: Report,
      errors: [404],
      handle: async ({ body, user: { id, isAdmin }, deps, res }) => {
        const { report, created } = await deps.reports.report({ id, isAdmin }, body);
        if (!created) res.locals.successStatus = 200;
        return report;
      },
    }),
    endpoint({
      method: "get",
      path: "/reports",
      tag: "Moderation",
      summary:
        "The caller's moderation queue, newest first: admins see every report, hub moderators those on its posts and their comments, series authors those on comments on their chapters; reports about the caller's own content are left out (but for admins)",
      auth: "required",
      query: ReportsQuery,
      response: pageSchema(Report),
      errors: [403],
      handle: ({ query, user: { id, isAdmin }, deps }) => deps.reports.queue({ id, isAdmin }, query.status, toPaging(query)),
    }),
    endpoint({
      method: "post",
      path: "/reports/{id}/resolve",
      tag: "Moderation",
      summary:
        "Resolve a report (whoever sees it in their queue, but not about their own content): dismiss, or remove the subject; every open report on the subject is resolved, logged once",
      auth: "required",
      params: z.object({ id: idParam("Report id") }),
      body: ResolveReportBody,
      response: ResolvedReport,
      errors: [403, 404, 409],
      handle: ({ params, body, user: { id, isAdmin }, deps }) => deps.reports.resolve({ id, isAdmin }, params.id, body),
    }),
  ];
}
