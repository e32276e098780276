import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FormError } from "../components/field.tsx";
import { FailedPage } from "../components/notice.tsx";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { formatDate } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { attempt, readFailure } from "../lib/load.server.ts";
import { liftSuspension, suspend, suspension } from "../lib/moderation.server.ts";
import { daysFromForm } from "../lib/modlog.ts";
import { requireUser } from "../lib/session.server.ts";
import { userPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Suspend ${data?.user?.username ?? "an account"} · Inkwell` }];

/**
 * Suspending an account (CONTRACT.md 13), for admins: this page is the confirmation step, with the reason and the
 * number of days (empty: no end); a suspended account's page offers lifting it. Works without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const user = await attempt(api.user(params.username ?? ""));
  const state = user.ok ? await attempt(suspension(api, user.value.id)) : user;
  if (!user.ok || !state.ok) {
    const read = !user.ok ? user : !state.ok ? state : { status: 502 };
    const failed =
      read.status === 403
        ? { status: 403, message: "Only admins can suspend accounts." }
        : readFailure(read, "User not found", "Failed to load the account");
    return data({ user: null, suspension: null, notice: null, error: failed.message }, { status: failed.status });
  }
  const done = new URL(request.url).searchParams.get("done");
  return {
    user: { id: user.value.id, username: user.value.username, admin: user.value.role === "admin" },
    suspension: state.value,
    notice: done === "suspended" ? "The account is suspended." : done === "lifted" ? "The suspension is lifted." : null,
    error: null,
  };
}

interface ActionResult {
  fieldErrors?: { reason?: string; days?: string };
  formError?: string;
  values?: { reason: string; days: string };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const form = await request.formData();
  const user = await attempt(api.user(params.username ?? ""));
  if (!user.ok)
    return data<ActionResult>({ formError: user.status === 404 ? "User not found" : "Failed to load the account" }, { status: 502 });
  const here = `${userPath(user.value.username)}/suspend`;
  const values = { reason: formText(form, "reason"), days: formText(form, "days") };
  try {
    if (formText(form, "intent") === "lift") {
      await liftSuspension(api, user.value.id);
      return redirect(`${here}?done=lifted`, 303);
    }
    const days = daysFromForm(values.days);
    if (days === "invalid") {
      return data<ActionResult>({ fieldErrors: { days: "Days must be a whole number from 1 to 3650" }, values }, { status: 400 });
    }
    await suspend(api, user.value.id, { reason: values.reason, days });
    return redirect(`${here}?done=suspended`, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    if (err.status === 400 && (fields.reason || fields.days)) {
      return data<ActionResult>({ fieldErrors: { reason: fields.reason, days: fields.days }, values }, { status: 400 });
    }
    return data<ActionResult>({ formError: err.message, values }, { status: err.status >= 500 || err.status === 0 ? 502 : err.status });
  }
}

export default function SuspendAccount() {
  const { user, suspension: state, notice, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (!user || !state) return <FailedPage title="Suspend account" error={error} />;
  const profile = userPath(user.username);
  return (
    <div className="container page-message">
      <p className="eyebrow">
        <Link to={profile}>@{user.username}</Link>
      </p>
      {notice ? (
        <p className="callout" role="status">
          {notice}
        </p>
      ) : null}
      <FormError>{result?.formError}</FormError>
      {state.suspended ? (
        <>
          <h1>{user.username} is suspended</h1>
          <p>
            {state.until ? `Until ${formatDate(state.until)}` : "No end"}. Reason: {state.reason}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="lift" />
            <button type="submit" className="button button--primary" disabled={busy}>
              Lift suspension
            </button>{" "}
            <Link to={profile} className="button button--ghost">
              Back to the profile
            </Link>
          </Form>
        </>
      ) : user.admin ? (
        <>
          <h1>Suspend {user.username}?</h1>
          <p>Admins cannot be suspended.</p>
        </>
      ) : (
        <>
          <h1>Suspend {user.username}?</h1>
          <p>They are signed out everywhere at once and cannot sign in until the suspension ends or is lifted.</p>
          <Form method="post" className="form" noValidate>
            <input type="hidden" name="intent" value="suspend" />
            <Field label="Reason" name="reason" required defaultValue={result?.values?.reason} error={result?.fieldErrors?.reason} />
            <Field
              label="Days"
              name="days"
              inputMode="numeric"
              hint="Leave empty for a suspension without an end."
              defaultValue={result?.values?.days}
              error={result?.fieldErrors?.days}
            />
            <button type="submit" className="button button--danger" disabled={busy}>
              Suspend account
            </button>{" "}
            <Link to={profile} className="button button--ghost">
              Cancel
            </Link>
          </Form>
        </>
      )}
      <p className="meta">
        Every suspension and its lifting is in the <Link to="/modlog">site mod log</Link>.
      </p>
    </div>
  );
}
