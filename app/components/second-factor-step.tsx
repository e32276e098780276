import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { LoginStepData } from "../lib/second-factor-login.server.ts";
import { AuthCard, focusFirstInvalid } from "./auth-card.tsx";
import { Field, FormError } from "./field.tsx";

/**
 * The login's code step (docs/web.md "Two-factor authentication"): the challenge rides in a hidden field, and "Use a
 * recovery code instead" is a second form that shows the recovery code field (no JavaScript needed).
 */
export function SecondFactorStep({
  result,
  redirectTo,
}: {
  result: LoginStepData & Required<Pick<LoginStepData, "step">>;
  redirectTo: string;
}) {
  const { challenge, mode } = result.step;
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const working = navigation.state !== "idle" && navigation.formData?.get("intent") === "second-factor";
  useEffect(() => focusFirstInvalid(formRef.current), [result]);
  const carried = (
    <>
      <input type="hidden" name="challenge" value={challenge} />
      <input type="hidden" name="username" value={result.username} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
    </>
  );
  return (
    <AuthCard
      title="Two-factor authentication"
      intro={mode === "code" ? "Enter the 6-digit code from your authenticator app." : "Enter one of the recovery codes you saved."}
    >
      <FormError>{result.formError}</FormError>
      <Form method="post" ref={formRef} noValidate className="form" key={mode}>
        <input type="hidden" name="intent" value="second-factor" />
        <input type="hidden" name="mode" value={mode} />
        {carried}
        {mode === "code" ? (
          <Field
            label="Code"
            name="code"
            id="login-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            error={result.fieldErrors.code}
            required
            autoFocus
            autoCapitalize="none"
            spellCheck={false}
          />
        ) : (
          <Field
            label="Recovery code"
            name="recoveryCode"
            id="login-recovery-code"
            autoComplete="off"
            error={result.fieldErrors.recoveryCode}
            required
            autoFocus
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
        <button type="submit" className="button button--primary button--block button--large" disabled={working}>
          {working ? "Checking..." : "Verify"}
        </button>
      </Form>
      <Form method="post" className="auth__switch">
        <input type="hidden" name="intent" value={mode === "code" ? "use-recovery" : "use-code"} />
        {carried}
        <button type="submit" className="button button--ghost">
          {mode === "code" ? "Use a recovery code instead" : "Use a code from the app instead"}
        </button>
      </Form>
    </AuthCard>
  );
}
