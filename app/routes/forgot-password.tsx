import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { PasswordResetRequestBody, RESET_LINK_MINUTES } from "../../server/rules/password-reset.ts";
import { AuthCard, focusFirstInvalid } from "../components/auth-card.tsx";
import { Field, FormError } from "../components/field.tsx";
import { ApiError, createApi } from "../lib/api.server.ts";
import { echoed } from "../lib/echo.ts";
import { fieldErrors, formValues, type FieldErrors } from "../lib/forms.ts";

export const meta: MetaFunction = () => [{ title: "Forgot your password? · Inkwell" }, { name: "robots", content: "noindex" }];

/** The same words whatever was typed: the page never tells whether an account matched (docs/web.md "Password reset"). */
const RESET_SENT = `If an Inkwell account matches what you typed, we have sent a link to its email address. The link works for ${RESET_LINK_MINUTES} minutes.`;

type ForgotResult = { sent: true } | { sent: false; fieldErrors: FieldErrors; formError: string | null; login: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const values = formValues(await request.formData(), ["login"]);
  const { login } = echoed({ login: values.login });
  const parsed = PasswordResetRequestBody.safeParse(values);
  if (!parsed.success)
    return data<ForgotResult>({ sent: false, fieldErrors: fieldErrors(parsed.error), formError: null, login }, { status: 400 });
  try {
    await createApi(context, { signal: request.signal }).requestPasswordReset(parsed.data.login);
    return data<ForgotResult>({ sent: true });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // Too many requests from this address, or the API could not be reached: say so, keep what was typed.
    const message = err.status === 429 && err.message ? err.message : "Could not send the link. Please try again.";
    return data<ForgotResult>({ sent: false, fieldErrors: {}, formError: message, login }, { status: err.status === 429 ? 429 : 502 });
  }
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const working = navigation.state !== "idle" && navigation.formAction?.startsWith("/forgot-password") === true;

  useEffect(() => focusFirstInvalid(formRef.current), [result]);

  if (result?.sent) {
    return (
      <AuthCard title="Check your email" intro="A link to choose a new password is on its way.">
        <p role="status">{RESET_SENT}</p>
        <p>No email after a few minutes? Look in your spam folder, or ask again.</p>
        <div className="actions">
          <Link to="/login" className="button button--primary">
            Back to login
          </Link>
          <Link to="/forgot-password" className="button button--secondary" reloadDocument>
            Ask again
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      intro="Type your username or email address, and we will email you a link to choose a new password."
    >
      <FormError>{result?.formError}</FormError>
      <Form method="post" ref={formRef} noValidate className="form">
        <Field
          label="Username or email"
          name="login"
          autoComplete="username"
          defaultValue={result?.login}
          error={result?.fieldErrors.login}
          required
          autoCapitalize="none"
          spellCheck={false}
        />
        <button type="submit" className="button button--primary button--block button--large" disabled={working}>
          {working ? "Sending..." : "Send the link"}
        </button>
      </Form>
      <p className="auth__switch">
        Remembered it? <Link to="/login">Login</Link>
      </p>
    </AuthCard>
  );
}
