import { EmailPreferencesUpdateBody, MAIL_KINDS } from "../../server/rules/email-preferences.ts";
import { ApiError, apiFieldErrors, type Api } from "./api.server.ts";
import { EMAIL_NOTIFICATIONS_INTENT, type EmailNotificationsResult } from "./email-preferences.ts";
import { fieldErrors } from "./forms.ts";

export { EMAIL_NOTIFICATIONS_INTENT, type EmailNotificationsResult };

/** The card's form: a select per kind (PUT /me/email-preferences with every kind sent); works without JavaScript. */
export async function emailPreferencesAction(api: Api, form: FormData): Promise<{ status: number; result: EmailNotificationsResult }> {
  const sent = Object.fromEntries(MAIL_KINDS.flatMap((kind) => (typeof form.get(kind) === "string" ? [[kind, form.get(kind)]] : [])));
  const parsed = EmailPreferencesUpdateBody.safeParse(sent);
  if (!parsed.success) {
    return { status: 400, result: { form: "email-notifications", ok: false, message: null, fieldErrors: fieldErrors(parsed.error) } };
  }
  try {
    const preferences = await api.setEmailPreferences(parsed.data);
    return {
      status: 200,
      result: {
        form: "email-notifications",
        ok: true,
        message: "Your email notification settings are saved.",
        fieldErrors: {},
        preferences,
      },
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    const status = err.status === 400 ? 400 : err.status === 429 ? 429 : 502;
    const message = Object.keys(fields).length > 0 ? null : status === 502 ? "Could not save. Please try again." : err.message;
    return { status, result: { form: "email-notifications", ok: false, message, fieldErrors: fields } };
  }
}
