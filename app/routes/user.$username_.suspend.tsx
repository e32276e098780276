import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { BanFields } from "../components/ban-fields.tsx";
import { FormError } from "../components/field.tsx";
import { FailedPage } from "../components/notice.tsx";
import { ApiError, apiFieldErrors } from "../lib/api.server.ts";
import { formatDate } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { liftSuspension, suspend, suspension } from "../lib/moderation.server.ts";
import { accountAction, accountStep, refusalStatus } from "../lib/moderation-steps.server.ts";
import { daysFromForm } from "../lib/modlog.ts";
import { userPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Suspend ${data?.user?.username ?? "an account"} · Inkwell` }];

/**
 * Suspending an account (docs/api.md "Bans, suspensions and the mod log"), for admins: this page is the confirmation step, with the reason and the
 * number of days (empty: no end); a suspended account's page offers lifting it. Works without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const step = await accountStep(request, context, params.username ?? "", suspension, "Only admins can suspend accounts.");
  if (!step.ok) return data({ user: null, suspension: null, notice: null, error: step.message }, { status: step.status });
  const done = new URL(request.url).searchParams.get("done");
  return {
    user: { id: step.user.id, username: step.user.username, admin: step.user.role === "admin" },
    suspension: step.state,
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
  const step = await accountAction(request, context, params.username ?? "");
  if (!step.ok) return data<ActionResult>({ formError: step.formError }, { status: step.status });
  const { api, form, value: user } = step;
  const here = `${userPath(user.username)}/suspend`;
  const values = { reason: formText(form, "reason"), days: formText(form, "days") };
  try {
    if (formText(form, "intent") === "lift") {
      await liftSuspension(api, user.id);
      return redirect(`${here}?done=lifted`, 303);
    }
    const days = daysFromForm(values.days);
    if (days === "invalid") {
      return data<ActionResult>({ fieldErrors: { days: "Days must be a whole number from 1 to 3650" }, values }, { status: 400 });
    }
    await suspend(api, user.id, { reason: values.reason, days });
    return redirect(`${here}?done=suspended`, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    if (err.status === 400 && (fields.reason || fields.days)) {
      return data<ActionResult>({ fieldErrors: { reason: fields.reason, days: fields.days }, values }, { status: 400 });
    }
    return data<ActionResult>({ formError: err.message, values }, { status: refusalStatus(err) });
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
            <BanFields noun="suspension" values={result?.values} errors={result?.fieldErrors} />
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
