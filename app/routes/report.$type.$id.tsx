import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { FormError, TextAreaField } from "../components/field.tsx";
import { REPORT_NOTE_MAX, REPORT_REASON_LABELS, REPORT_REASONS, type ReportReasonCode } from "../../server/rules/report-reasons.ts";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { formText } from "../lib/forms.ts";
import { positiveId } from "../lib/ids.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { isReportSubjectType, SUBJECT_NOUNS } from "../lib/reports.ts";
import { sendReport } from "../lib/reports.server.ts";
import { requireUser } from "../lib/session.server.ts";

export const meta: MetaFunction = ({ params }) => [{ title: `Report a ${params.type ?? "thing"} · Inkwell` }];

/** /report/{type}/{id}?back=...: which thing, or null for an address that names none. */
function refOf(params: LoaderFunctionArgs["params"]) {
  const id = positiveId(params.id);
  return id !== null && isReportSubjectType(params.type) ? { type: params.type, id } : null;
}

const backOf = (url: URL) => safeRedirect(url.searchParams.get("back"));

/**
 * Reporting a post, comment, chapter, series, hub or user (docs/api.md "Reports", docs/web.md "Reports"): a reason from a
 * list and an optional note, then a confirmation (`?sent=1`). A plain form: works without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const ref = refOf(params);
  if (ref === null) throw data(null, { status: 404 });
  const url = new URL(request.url);
  return { ...ref, back: backOf(url), sent: url.searchParams.get("sent") === "1" };
}

interface ActionResult {
  reasonError?: string;
  noteError?: string;
  formError?: string;
  reason: string;
  note: string;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const ref = refOf(params);
  if (ref === null) throw data(null, { status: 404 });
  const form = await request.formData();
  const reason = formText(form, "reason");
  const note = formText(form, "note");
  if (!(REPORT_REASONS as readonly string[]).includes(reason)) {
    return data<ActionResult>({ reasonError: "Choose why you are reporting it", reason, note }, { status: 400 });
  }
  try {
    await sendReport(apiFor(request, context, session), { subject: ref, reason: reason as ReportReasonCode, note });
    const url = new URL(request.url);
    url.searchParams.set("sent", "1");
    return redirect(url.pathname + url.search, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const noun = SUBJECT_NOUNS[ref.type];
    if (err.status === 400) {
      const fields = apiFieldErrors(err);
      return data<ActionResult>(
        { noteError: fields.note, formError: fields.note ? undefined : err.message, reason, note },
        { status: 400 },
      );
    }
    const message =
      err.status === 404 ? `This ${noun} no longer exists.` : err.status === 429 ? err.message : "Sending the report failed. Try again.";
    return data<ActionResult>({ formError: message, reason, note }, { status: [404, 429].includes(err.status) ? err.status : 502 });
  }
}

export default function ReportForm() {
  const { type, back, sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const { pathname, search } = useLocation();
  const noun = SUBJECT_NOUNS[type];
  if (sent) {
    return (
      <div className="container page-message report-page">
        <h1>Report sent</h1>
        <p className="callout" role="status">
          Thanks, the moderators will look at it.
        </p>
        <Link to={back} className="button button--primary">
          Back
        </Link>
      </div>
    );
  }
  return (
    <div className="container page-message report-page">
      <h1>Report this {noun}</h1>
      <p>Tell the moderators what is wrong. They see your username with the report; the person you report does not.</p>
      <FormError>{result?.formError}</FormError>
      <Form method="post" action={pathname + search} className="form" noValidate>
        <fieldset
          className={`field report-page__reasons${result?.reasonError ? " field--invalid" : ""}`}
          aria-describedby={result?.reasonError ? "reason-error" : undefined}
        >
          <legend>Why are you reporting it?</legend>
          {REPORT_REASONS.map((code) => (
            <div key={code} className="report-page__reason">
              <input type="radio" id={`reason-${code}`} name="reason" value={code} required defaultChecked={result?.reason === code} />
              <label htmlFor={`reason-${code}`}>{REPORT_REASON_LABELS[code]}</label>
            </div>
          ))}
          {result?.reasonError ? (
            <p id="reason-error" className="field__error">
              {result.reasonError}
            </p>
          ) : null}
        </fieldset>
        <TextAreaField
          label="Anything the moderators should know? (optional)"
          name="note"
          rows={4}
          maxLength={REPORT_NOTE_MAX}
          defaultValue={result?.note ?? ""}
          error={result?.noteError}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          Send report
        </button>{" "}
        <Link to={back} className="button button--ghost">
          Cancel
        </Link>
      </Form>
    </div>
  );
}
