import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { AccountDeletionBody } from "../../server/rules/deletion.ts";
import { Field } from "../components/field.tsx";
import { FormSection } from "../components/form-section.tsx";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { deletedNoticeParam } from "../lib/deletion.ts";
import { fieldErrors, formValues, type FieldErrors } from "../lib/forms.ts";
import { clearSession, requireUser } from "../lib/session.server.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = () => [{ title: "Delete your account · Inkwell" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

interface DeleteResult {
  message: string | null;
  fieldErrors: FieldErrors;
}

/**
 * The confirmation step of "Delete account" (docs/web.md): the password, then DELETE /user/{id}; the session cookie
 * goes and the browser lands on the home page with a notice. A wrong password is a field error.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const values = formValues(await request.formData(), ["password"]);
  const parsed = AccountDeletionBody.safeParse(values);
  if (!parsed.success) return data<DeleteResult>({ message: null, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  try {
    await apiFor(request, context, session).deleteAccount(session.user.id, parsed.data.password);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    const status = err.status === 400 || err.status === 429 ? err.status : 502;
    const message =
      Object.keys(fields).length > 0
        ? null
        : err.status === 0 || err.status >= 500
          ? "The deletion failed. Please try again."
          : err.message;
    return data<DeleteResult>({ message, fieldErrors: fields }, { status });
  }
  throw redirect(`/?${deletedNoticeParam}=account`, { headers: { "Set-Cookie": await clearSession(context) } });
}

export default function DeleteAccount() {
  const result = useActionData<typeof action>();
  return (
    <div className="container settings">
      <h1>Delete your account</h1>
      <section className="card settings__section" aria-labelledby="goes-title">
        <h2 id="goes-title">What goes</h2>
        <ul>
          <li>Your account: your username and email can be registered again, and every session of yours ends.</li>
          <li>Your series with their chapters, and the hubs you created in which nobody else has posted.</li>
          <li>Your posts, with the comments on them.</li>
          <li>Your comments nobody answered, your likes, follows, memberships and notifications.</li>
          <li>Every image you uploaded, wherever it is shown.</li>
        </ul>
        <h2 id="stays-title">What stays</h2>
        <ul>
          <li>Your comments that others answered, as &quot;deleted&quot; without your name or words, so their answers keep their place.</li>
          <li>
            Hubs you created in which others posted: they pass to their longest-serving moderator, else to the author of their oldest post.
          </li>
          <li>Everybody else&apos;s posts, comments and images, and reports you made (without your name).</li>
        </ul>
        <p>
          This cannot be undone.{" "}
          <a href="/settings/export" download>
            Download your data
          </a>{" "}
          first if you want a copy.
        </p>
      </section>
      <FormSection
        id="delete-confirm"
        title="Confirm with your password"
        intent="delete-account"
        outcome={result?.message ? { ok: false, message: result.message } : null}
        submitLabel="Delete my account"
        busyLabel="Deleting..."
        danger
        cancelTo="/settings"
      >
        <Field
          label="Password"
          name="password"
          id="delete-account-password"
          type="password"
          autoComplete="current-password"
          error={result?.fieldErrors.password}
          required
        />
      </FormSection>
    </div>
  );
}
