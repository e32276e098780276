import type { EmailPreferences } from "../../server/rules/email-preferences.ts";
import type { FieldErrors } from "./forms.ts";

/** The intent of the settings page's "Email notifications" form (docs/web.md "Notification mail"). */
export const EMAIL_NOTIFICATIONS_INTENT = "email-notifications";

export interface EmailNotificationsResult {
  form: "email-notifications";
  ok: boolean;
  message: string | null;
  fieldErrors: FieldErrors;
  /** The settings as saved, shown until the page's data is loaded again. */
  preferences?: EmailPreferences;
}
