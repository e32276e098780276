import { Form, useNavigation } from "@remix-run/react";
import { Field } from "./field.tsx";
import { FormSection, type FormOutcome } from "./form-section.tsx";

/** The intent of the "Send the link again" button (POST /me/verify-email/resend). */
export const RESEND_VERIFICATION_INTENT = "resend-verification";

/** "Send the link again": a form of its own, beside the email form (works without JavaScript). */
function ResendLink() {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === RESEND_VERIFICATION_INTENT;
  return (
    <Form method="post" className="inline-form" preventScrollReset>
      <input type="hidden" name="intent" value={RESEND_VERIFICATION_INTENT} />
      <button type="submit" className="button button--secondary" disabled={busy}>
        {busy ? "Sending..." : "Send the link again"}
      </button>
    </Form>
  );
}

/**
 * The settings page's "Email" card (docs/web.md "Verified email addresses"): the address and whether it is verified,
 * the change that waits for its link, "Send the link again", and the form that asks for a new address. `emailVerified`
 * and `pendingEmail` are null when the API did not say.
 */
export function EmailSettings({
  email,
  emailVerified,
  pendingEmail,
  outcome,
  errors,
  typedEmail,
}: {
  email: string | null;
  emailVerified: boolean | null;
  pendingEmail: string | null;
  outcome: FormOutcome | null;
  errors: { email?: string; currentPassword?: string };
  /** The address typed, shown again after a refusal. */
  typedEmail: string;
}) {
  const intro = (
    <>
      {email ? (
        <p className="muted">
          Now: {email}
          {emailVerified ? " (verified)" : null}
        </p>
      ) : null}
      {emailVerified === false && !pendingEmail ? (
        <div className="email-status" id="email-unverified">
          <p>
            <strong>Your email address is not verified yet.</strong> Open the link we sent to {email}; it works for 24 hours.
          </p>
          <ResendLink />
        </div>
      ) : null}
      {pendingEmail ? (
        <div className="email-status" id="email-pending">
          <p>
            <strong>Waiting for confirmation: {pendingEmail}.</strong> Your address changes once you open the link we sent there; until then
            it stays {email}.
          </p>
          <ResendLink />
        </div>
      ) : null}
    </>
  );
  return (
    <FormSection id="email" title="Email" intro={intro} intent="email" outcome={outcome} submitLabel="Change email">
      <Field
        label="New email"
        name="email"
        id="settings-email"
        type="email"
        autoComplete="email"
        hint="We send a link to the new address; it becomes yours once you open it."
        defaultValue={typedEmail}
        error={errors.email}
        required
      />
      <Field
        label="Current password"
        name="currentPassword"
        id="settings-email-password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword}
        required
      />
    </FormSection>
  );
}
