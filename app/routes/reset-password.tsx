import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { PasswordResetConfirmBody } from "../../server/rules/password-reset.ts";
import { AuthCard, focusFirstInvalid } from "../components/auth-card.tsx";
import { Field, FormError } from "../components/field.tsx";
import { ApiError, apiFieldErrors, createApi } from "../lib/api.server.ts";
import { fieldErrors, formValues, type FieldErrors } from "../lib/forms.ts";
import { signedInHeaders } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Inkwell" }, { name: "robots", content: "noindex" }];

const INCOMPLETE = "This reset link is incomplete. Open the link from the email again, or ask for a new one.";
const PASSWORDS_DIFFER = "The two passwords are not the same";

/**
 * The link of a reset mail (docs/web.md "Password reset"). Opening it uses nothing (mail scanners fetch links); the
 * form's POST sets the password, signs the user in as login does and goes home. Works without JavaScript.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: PasswordResetConfirmBody.shape.token.safeParse(token).success ? token : null };
}

const CHANGED_NEEDS_CODE =
  "Your account has two-factor authentication, so a reset link does not sign you in: sign in with your new password and a code from your authenticator app.";

interface ResetResult {
  fieldErrors: FieldErrors;
  formError: string | null;
  /** The link is used, expired or unknown: no form, a way to a new one. */
  deadLink: boolean;
  /** The password is changed, and the account has TOTP on: signing in takes the new password and a code. */
  changedNeedsCode?: boolean;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = formValues(await request.formData(), ["token", "newPassword", "newPasswordAgain"]);
  const parsed = PasswordResetConfirmBody.safeParse(values);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  if (!parsed.success && errors.token)
    return data<ResetResult>({ fieldErrors: {}, formError: INCOMPLETE, deadLink: true }, { status: 400 });
  if (!errors.newPassword && values.newPasswordAgain !== values.newPassword) errors.newPasswordAgain = PASSWORDS_DIFFER;
  if (!parsed.success || errors.newPasswordAgain)
    return data<ResetResult>({ fieldErrors: errors, formError: null, deadLink: false }, { status: 400 });
  try {
    const signedIn = await createApi(context, { signal: request.signal }).confirmPasswordReset(parsed.data);
    // docs/web.md "Password reset": a reset does not pass a second factor.
    if ("secondFactorRequired" in signedIn)
      return data<ResetResult>({ fieldErrors: {}, formError: null, deadLink: false, changedNeedsCode: true });
    throw redirect("/", { headers: await signedInHeaders(context, signedIn) });
  } catch (err) {
    if (err instanceof Response) throw err;
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    if (fields.token) return data<ResetResult>({ fieldErrors: {}, formError: fields.token, deadLink: true }, { status: 400 });
    if (fields.newPassword) return data<ResetResult>({ fieldErrors: fields, formError: null, deadLink: false }, { status: 400 });
    // A suspended account (403), too many attempts (429): the API's words; else ours.
    const known = (err.status === 403 || err.status === 429) && err.message;
    return data<ResetResult>(
      { fieldErrors: {}, formError: known ? err.message : "Could not set the new password. Please try again.", deadLink: false },
      { status: known ? err.status : 502 },
    );
  }
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const working = navigation.state !== "idle" && navigation.formAction?.startsWith("/reset-password") === true;

  useEffect(() => focusFirstInvalid(formRef.current), [result]);

  if (result?.changedNeedsCode) {
    return (
      <AuthCard title="Your password is changed" intro={CHANGED_NEEDS_CODE}>
        <div className="actions">
          <Link to="/login" className="button button--primary">
            Sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (token === null || result?.deadLink) {
    return (
      <AuthCard title="Choose a new password" intro="Reset links work once, for one hour.">
        <FormError>{result?.formError ?? INCOMPLETE}</FormError>
        <div className="actions">
          <Link to="/forgot-password" className="button button--primary">
            Ask for a new link
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" intro="Setting it signs you in here and out everywhere else.">
      <FormError>{result?.formError}</FormError>
      <Form method="post" ref={formRef} noValidate className="form">
        <input type="hidden" name="token" value={token} />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          error={result?.fieldErrors.newPassword}
          hint="At least 6 characters."
          required
        />
        <Field
          label="New password again"
          name="newPasswordAgain"
          type="password"
          autoComplete="new-password"
          error={result?.fieldErrors.newPasswordAgain}
          required
        />
        <button type="submit" className="button button--primary button--block button--large" disabled={working}>
          {working ? "Saving..." : "Set the new password"}
        </button>
      </Form>
    </AuthCard>
  );
}
