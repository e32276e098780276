import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import type { Report } from "../../server/rules/report.ts";
import { REPORT_REASON_LABELS, RESOLUTION_REASON_MAX } from "../../server/rules/report-reasons.ts";
import { FormError, TextAreaField } from "../components/field.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { pageParam, plural, relativeDate } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt } from "../lib/load.server.ts";
import { SUBJECT_NOUNS } from "../lib/reports.ts";
import { reportQueue, resolveReport } from "../lib/reports.server.ts";
import { requireUser } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Moderation · Inkwell" }];

type Status = "open" | "resolved";
const statusOf = (url: URL): Status => (url.searchParams.get("status") === "resolved" ? "resolved" : "open");
const DONE: Record<string, string> = { dismiss: "Report dismissed.", remove: "Removed, and the report resolved." };

/**
 * The signed-in user's moderation queue (docs/api.md "Reports", docs/web.md "Moderation"): open reports (resolved ones at
 * `?status=resolved`), each with a form to dismiss it or remove its subject, with a required reason (the form is the
 * confirmation step). Those who moderate nothing see a plain message, not an error.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const url = new URL(request.url);
  const status = statusOf(url);
  const queue = await attempt(reportQueue(apiFor(request, context, session), status, pageParam(url.searchParams.get("page"))));
  const done = DONE[url.searchParams.get("done") ?? ""] ?? null;
  if (!queue.ok) {
    if (queue.status === 403) return { status, queue: null, nothing: true, done, now: Date.now(), error: null };
    return data({ status, queue: null, nothing: false, done, now: 0, error: "Failed to load the moderation queue" }, { status: 502 });
  }
  return { status, queue: queue.value, nothing: false, done, now: Date.now(), error: null };
}

interface ActionResult {
  reportId: number;
  reason: string;
  reasonError?: string;
  formError?: string;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const form = await request.formData();
  const reportId = positiveId(form.get("reportId"));
  const verb = formText(form, "action");
  const reason = formText(form, "reason");
  if (reportId === null || (verb !== "dismiss" && verb !== "remove")) {
    return data<ActionResult>({ reportId: reportId ?? 0, reason, formError: "Unknown action" }, { status: 400 });
  }
  if (reason.trim() === "") return data<ActionResult>({ reportId, reason, reasonError: "A reason is required" }, { status: 400 });
  try {
    await resolveReport(apiFor(request, context, session), reportId, { action: verb, reason });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 400) {
      const fields = apiFieldErrors(err);
      return data<ActionResult>(
        { reportId, reason, reasonError: fields.reason, formError: fields.reason ? undefined : err.message },
        { status: 400 },
      );
    }
    const message =
      err.status === 409
        ? "Someone already resolved this report."
        : err.status === 404
          ? err.message === "Report not found"
            ? "This report no longer exists."
            : "What was reported no longer exists: dismiss the report instead."
          : err.status === 403
            ? "You may not resolve this report."
            : "It failed. Try again.";
    return data<ActionResult>(
      { reportId, reason, formError: message },
      { status: [403, 404, 409].includes(err.status) ? err.status : 502 },
    );
  }
  const url = new URL(request.url);
  url.searchParams.set("done", verb);
  return redirect(url.pathname + url.search, 303);
}

function SubjectLink({ subject }: { subject: Report["subject"] }) {
  const noun = SUBJECT_NOUNS[subject.type];
  if (subject.url === null) return <span className="report__subject">A {noun} that has been deleted</span>;
  const where = subject.hubName ?? subject.seriesName;
  return (
    <span className="report__subject">
      {noun[0]!.toUpperCase() + noun.slice(1)}: <Link to={subject.url}>{subject.title || `#${subject.id}`}</Link>
      {where && subject.type !== "hub" && subject.type !== "series" ? <span className="meta"> in {where}</span> : null}
      {subject.removed ? <span className="meta"> (removed)</span> : null}
    </span>
  );
}

function ResolveForm({ report, result, busy }: { report: Report; result: ActionResult | undefined; busy: boolean }) {
  const mine = result?.reportId === report.id ? result : undefined;
  return (
    <Form method="post" className="form report__resolve" noValidate>
      <input type="hidden" name="reportId" value={report.id} />
      <FormError>{mine?.formError}</FormError>
      <TextAreaField
        id={`reason-${report.id}`}
        label="Reason (shown in the moderation log)"
        name="reason"
        rows={2}
        maxLength={RESOLUTION_REASON_MAX}
        required
        defaultValue={mine?.reason ?? ""}
        error={mine?.reasonError}
      />
      <button type="submit" name="action" value="dismiss" className="button button--ghost" disabled={busy}>
        Dismiss report
      </button>{" "}
      {report.subject.type !== "user" && report.subject.url !== null ? (
        <button type="submit" name="action" value="remove" className="button button--danger" disabled={busy}>
          Remove {SUBJECT_NOUNS[report.subject.type]}
        </button>
      ) : null}
    </Form>
  );
}

export default function Moderation() {
  const { status, queue, nothing, done, now, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (error) return <FailedPage title="Moderation" error={error} />;
  return (
    <div className="container moderation-page">
      <header className="page-head">
        <div>
          <h1>Moderation</h1>
          <p>Reports on what you moderate, newest first. Resolving a report resolves every open report on the same thing.</p>
        </div>
      </header>
      {nothing ? (
        <Notice>
          You have nothing to moderate. The reports on a hub&apos;s posts go to its moderators, those on comments on a chapter to its
          series&apos; author.
        </Notice>
      ) : (
        <>
          <nav className="segmented" aria-label="Reports">
            <Link to="/moderation" aria-current={status === "open" ? "true" : undefined} className="segmented__item">
              Open
            </Link>
            <Link to="/moderation?status=resolved" aria-current={status === "resolved" ? "true" : undefined} className="segmented__item">
              Resolved
            </Link>
          </nav>
          {done ? (
            <p className="callout" role="status">
              {done}
            </p>
          ) : null}
          {queue && queue.content.length === 0 ? (
            <Notice>{status === "open" ? "No open reports. All clear." : "No resolved reports yet."}</Notice>
          ) : null}
          {queue && queue.content.length > 0 ? (
            <ul className="report-list">
              {queue.content.map((report) => (
                <li key={report.id} className="report card">
                  <h2 className="report__title">
                    <SubjectLink subject={report.subject} />
                  </h2>
                  <p className="meta">
                    {REPORT_REASON_LABELS[report.reason]} · reported by{" "}
                    {report.reporter ? (
                      <Link to={`/user/${encodeURIComponent(report.reporter.username)}`}>{report.reporter.username}</Link>
                    ) : (
                      "a deleted account"
                    )}{" "}
                    {relativeDate(report.createdAt, now)}
                    {report.openReports > 1 ? ` · ${plural(report.openReports, "open report")} on it` : null}
                  </p>
                  {report.note ? <blockquote className="report__note">{report.note}</blockquote> : null}
                  {report.status === "open" ? (
                    <ResolveForm report={report} result={result} busy={busy} />
                  ) : (
                    <p className="report__resolution">
                      {report.resolution === "remove" ? "Removed" : "Dismissed"}
                      {report.resolvedBy ? ` by ${report.resolvedBy.username}` : null}
                      {report.resolvedAt ? ` ${relativeDate(report.resolvedAt, now)}` : null}: {report.resolutionReason}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
          {queue && queue.totalPages > 1 ? <Pager page={queue.page} totalPages={queue.totalPages} label="Report pages" /> : null}
        </>
      )}
    </div>
  );
}
