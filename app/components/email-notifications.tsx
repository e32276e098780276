import {
  EMAIL_SETTING_LABELS,
  EMAIL_SETTINGS,
  MAIL_KIND_LABELS,
  MAIL_KINDS,
  type EmailPreferences,
} from "../../server/rules/email-preferences.ts";
import { EMAIL_NOTIFICATIONS_INTENT, type EmailNotificationsResult } from "../lib/email-preferences.ts";
import { SelectField } from "./field.tsx";
import { FormSection } from "./form-section.tsx";

const OPTIONS = EMAIL_SETTINGS.map((setting) => ({ value: setting, label: EMAIL_SETTING_LABELS[setting] }));

/**
 * The settings page's "Email notifications" card (docs/web.md "Notification mail"): how often each kind of
 * notification is mailed, a select per kind and Save (works without JavaScript). An unverified address hears that no
 * notification mail goes to it until it is verified. `preferences` is null when the API could not say.
 */
export function EmailNotificationsSection({
  preferences,
  emailVerified,
  result,
}: {
  preferences: EmailPreferences | null;
  emailVerified: boolean | null;
  result: EmailNotificationsResult | null;
}) {
  const shown = result?.preferences ?? preferences;
  const intro = (
    <>
      <p className="muted">
        Which notifications also come by email: each one as it happens, or a daily or weekly digest of those you have not read.
      </p>
      {emailVerified === false ? (
        <p className="notice" role="note">
          Your email address is not verified yet: no notification email is sent until you verify it (see Email above).
        </p>
      ) : null}
    </>
  );
  return (
    <div id="email-notifications">
      {shown ? (
        <FormSection
          id="email-notifications-form"
          title="Email notifications"
          intro={intro}
          intent={EMAIL_NOTIFICATIONS_INTENT}
          outcome={result}
          submitLabel="Save"
        >
          {MAIL_KINDS.map((kind) => (
            <SelectField
              // A saved change shows even where the page's data is not loaded again.
              key={`${kind}:${shown[kind]}`}
              label={MAIL_KIND_LABELS[kind]}
              name={kind}
              defaultValue={shown[kind]}
              options={OPTIONS}
              error={result?.fieldErrors[kind]}
            />
          ))}
        </FormSection>
      ) : (
        <section className="card settings__section" aria-labelledby="email-notifications-form-title">
          <h2 id="email-notifications-form-title">Email notifications</h2>
          <p className="muted">Your email notification settings could not be loaded. Please try again later.</p>
        </section>
      )}
    </div>
  );
}
