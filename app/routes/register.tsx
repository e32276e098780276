import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { useEffect, useRef, useState } from "react";
import { RegisterBody } from "../../server/rules/auth.ts";
import { AuthCard, focusFirstInvalid } from "../components/auth-card.tsx";
import { Field, FormError } from "../components/field.tsx";
import { ApiError, apiFieldErrors, createApi, registerErrorMessage } from "../lib/api.server.ts";
import { echoed } from "../lib/echo.ts";
import { fieldErrors, formValues, type FieldErrors } from "../lib/forms.ts";
import { optionalUser, signedInHeaders } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Register · Inkwell" }];

const FIELDS = ["username", "email", "password"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await optionalUser(request, context)) throw redirect("/");
  return null;
}

interface RegisterActionData {
  fieldErrors: FieldErrors;
  formError: string | null;
  values: { username: string; email: string };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const values = formValues(await request.formData(), FIELDS);
  const kept = echoed({ username: values.username, email: values.email });
  // The same rules, and so the same messages, as the API's (docs/web.md §4).
  const parsed = RegisterBody.safeParse(values);
  if (!parsed.success) {
    return data<RegisterActionData>({ fieldErrors: fieldErrors(parsed.error), formError: null, values: kept }, { status: 400 });
  }
  try {
    const signedIn = await createApi(context, { signal: request.signal }).register(parsed.data);
    throw redirect("/", { headers: await signedInHeaders(context, signedIn) });
  } catch (err) {
    if (err instanceof Response) throw err;
    const perField = err instanceof ApiError && (err.status === 400 || err.status === 409) ? apiFieldErrors(err) : {};
    return data<RegisterActionData>(
      { fieldErrors: perField, formError: registerErrorMessage(err), values: kept },
      { status: err instanceof ApiError && (err.status === 409 || err.status === 429) ? err.status : 400 },
    );
  }
}

export default function Register() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  // Checked in the browser first with the same rules; the server checks again.
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? result?.fieldErrors ?? {};
  const working = navigation.state !== "idle" && navigation.formAction?.startsWith("/register") === true;

  useEffect(() => {
    setClientErrors(null);
    focusFirstInvalid(formRef.current);
  }, [result]);

  return (
    <AuthCard title="Join Inkwell" intro="Create your account to publish series, start hubs and follow the artists you love.">
      <FormError>{clientErrors ? null : result?.formError}</FormError>
      <Form
        method="post"
        ref={formRef}
        noValidate
        className="form"
        onSubmit={(e) => {
          const parsed = RegisterBody.safeParse(formValues(new FormData(e.currentTarget), FIELDS));
          if (!parsed.success) {
            e.preventDefault();
            setClientErrors(fieldErrors(parsed.error));
            requestAnimationFrame(() => focusFirstInvalid(formRef.current));
          } else setClientErrors(null);
        }}
      >
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          defaultValue={result?.values.username}
          error={errors.username}
          hint="At least 3 characters: letters, numbers and underscores."
          required
          autoCapitalize="none"
          spellCheck={false}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={result?.values.email}
          error={errors.email}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={errors.password}
          hint="At least 6 characters."
          required
        />
        <button type="submit" className="button button--primary button--block button--large" disabled={working}>
          {working ? "Creating account..." : "Create account"}
        </button>
      </Form>
      <p className="auth__switch">
        Already have an account? <Link to="/login">Login</Link>
      </p>
    </AuthCard>
  );
}
