import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { LoginBody } from "../../server/rules/auth.ts";
import { AuthCard, focusFirstInvalid } from "../components/auth-card.tsx";
import { PasskeySignIn } from "../components/passkeys.tsx";
import { SecondFactorStep } from "../components/second-factor-step.tsx";
import { codeStep, SECOND_FACTOR_INTENTS, secondFactorAction, type LoginStepData } from "../lib/second-factor-login.server.ts";
import { Field, FormError } from "../components/field.tsx";
import { ApiError, createApi, loginErrorMessage } from "../lib/api.server.ts";
import { fieldErrors, formValues, type FieldErrors } from "../lib/forms.ts";
import { echoed } from "../lib/echo.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { signedInHeaders, optionalUser, readDeviceToken } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Login · Inkwell" }];

/** Why the user was sent here, in the words of docs/web.md §5. */
function reasonFor(redirectTo: string | null): string | null {
  if (!redirectTo) return null;
  if (redirectTo.startsWith("/profile")) return "Please log in to view profile";
  return "Please log in to continue";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = url.searchParams.get("redirectTo");
  // Already signed in: straight to where the user was going.
  if (await optionalUser(request, context)) throw redirect(safeRedirect(redirectTo));
  return { redirectTo: safeRedirect(redirectTo, ""), reason: reasonFor(redirectTo), username: url.searchParams.get("username") ?? "" };
}

interface LoginActionData {
  fieldErrors: FieldErrors;
  formError: string | null;
  username: string;
  /** While the sign-in waits for a code (app/lib/second-factor-login.server.ts). */
  step?: LoginStepData["step"];
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  // The code step's forms (docs/web.md "Two-factor authentication").
  const intent = form.get("intent");
  if (typeof intent === "string" && SECOND_FACTOR_INTENTS.includes(intent)) return secondFactorAction(request, context, form);
  const values = formValues(form, ["username", "password", "redirectTo"]);
  const { username } = echoed({ username: values.username });
  const parsed = LoginBody.safeParse(values);
  if (!parsed.success) {
    return data<LoginActionData>({ fieldErrors: fieldErrors(parsed.error), formError: null, username }, { status: 400 });
  }
  try {
    const deviceToken = await readDeviceToken(request, context);
    const signedIn = await createApi(context, { signal: request.signal }).login({ ...parsed.data, deviceToken });
    // TOTP on: no session yet, the code step.
    if ("secondFactorRequired" in signedIn) return codeStep(signedIn.challenge, username);
    throw redirect(safeRedirect(values.redirectTo), { headers: await signedInHeaders(context, signedIn) });
  } catch (err) {
    if (err instanceof Response) throw err;
    const status = err instanceof ApiError && err.status === 429 ? 429 : 400;
    return data<LoginActionData>({ fieldErrors: {}, formError: loginErrorMessage(err), username }, { status });
  }
}

export default function Login() {
  const { redirectTo, reason, username } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const working = navigation.state !== "idle" && navigation.formAction?.startsWith("/login") === true;
  // A username may come with the navigation (e.g. from the register page).
  const prefilled = result?.username ?? ((location.state as { username?: string } | null)?.username || username);

  useEffect(() => focusFirstInvalid(formRef.current), [result]);

  if (result?.step) return <SecondFactorStep result={{ ...result, step: result.step }} redirectTo={redirectTo} />;

  return (
    <AuthCard title="Welcome back" intro="Log in to follow series, join hubs and like what you read.">
      {reason && !result ? <p className="callout">{reason}</p> : null}
      <FormError>{result?.formError}</FormError>
      <Form method="post" ref={formRef} noValidate className="form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          defaultValue={prefilled}
          error={result?.fieldErrors.username}
          required
          autoCapitalize="none"
          spellCheck={false}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={result?.fieldErrors.password}
          required
        />
        <button type="submit" className="button button--primary button--block button--large" disabled={working}>
          {working ? "Logging in..." : "Login"}
        </button>
      </Form>
      <p className="auth__switch">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <PasskeySignIn redirectTo={redirectTo || "/"} />
      <p className="auth__switch">
        New to Inkwell? <Link to="/register">Create an account</Link>
      </p>
    </AuthCard>
  );
}
