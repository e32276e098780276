import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PasswordChangeBody } from "../../server/rules/auth.ts";
import { UserEditBody } from "../../server/rules/user.ts";
import { Field } from "../components/field.tsx";
import { FormSection } from "../components/form-section.tsx";
import { BlockedUsers } from "../components/blocked-users.tsx";
import { PasskeysSection } from "../components/passkeys.tsx";
import { listPasskeys } from "../lib/passkeys.server.ts";
import { TwoFactorSection } from "../components/two-factor-section.tsx";
import { EmailSettings, RESEND_VERIFICATION_INTENT } from "../components/email-settings.tsx";
import { EmailNotificationsSection } from "../components/email-notifications.tsx";
import { EMAIL_NOTIFICATIONS_INTENT, emailPreferencesAction, type EmailNotificationsResult } from "../lib/email-preferences.server.ts";
import { TOTP_INTENTS, totpAction, type TotpIntent, type TotpResult } from "../lib/two-factor.server.ts";
import { blockedUsers } from "../lib/blocks.server.ts";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { fieldErrors, formValues, type FieldErrors } from "../lib/forms.ts";
import { attempt } from "../lib/load.server.ts";
import { clearSession, commitToken, requireUser } from "../lib/session.server.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = () => [{ title: "Settings · Inkwell" }];

/** `?confirm=logout-all` shows the confirmation step of "Log out everywhere" (works without JavaScript). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const [me, blocked] = await Promise.all([attempt(api.user(session.user.username)), attempt(blockedUsers(api, 1))]);
  const confirming = new URL(request.url).searchParams.get("confirm") === "logout-all";
  // docs/web.md "Passkeys": null when the list could not be read.
  const passkeys = await attempt(listPasskeys(api));
  // docs/web.md "Notification mail": null when the API could not say.
  const emailPreferences = await attempt(api.emailPreferences());
  return {
    userId: session.user.id,
    email: me.ok ? (me.value.email ?? "") : null,
    // docs/api.md "Verified email addresses": null when the API could not say.
    emailVerified: me.ok ? (me.value.emailVerified ?? null) : null,
    pendingEmail: me.ok ? (me.value.pendingEmail ?? null) : null,
    // docs/api.md "Series metadata and browsing": off unless the user turned it on (also when the API did not say).
    showMature: me.ok ? (me.value as { showMature?: boolean }).showMature === true : false,
    // docs/api.md "Second factors": null when the API could not say.
    totpOn: me.ok ? (me.value.twoFactor?.totp ?? false) : null,
    confirming,
    blocked: blocked.ok ? { users: blocked.value.content, total: blocked.value.totalElements } : null,
    passkeys: passkeys.ok ? passkeys.value : null,
    emailPreferences: emailPreferences.ok ? emailPreferences.value : null,
  };
}

type SettingsForm = "email" | "password" | "mature";

interface SettingsResult {
  form: SettingsForm;
  ok: boolean;
  message: string | null;
  fieldErrors: FieldErrors;
  /** The email typed, shown again after a failure (never a password). */
  email?: string;
}

const answer = (status: number, body: SettingsResult, headers?: HeadersInit) => data<SettingsResult>(body, { status, headers });

/** The API's refusal in the form's words: field errors on their fields, anything else above the form. */
function refused(form: SettingsForm, err: unknown, email?: string) {
  if (!(err instanceof ApiError)) throw err;
  const fields = apiFieldErrors(err);
  if (err.status === 409) return answer(409, { form, ok: false, message: null, fieldErrors: { email: err.message }, email });
  const status = err.status === 429 ? 429 : err.status === 400 ? 400 : 502;
  const message =
    Object.keys(fields).length > 0 ? null : err.status === 0 || err.status >= 500 ? "Could not save. Please try again." : err.message;
  return answer(status, { form, ok: false, message, fieldErrors: fields, email });
}

/**
 * `intent=email`: a new email with the current password (PUT /user/{id}). `intent=password`: a new password; the
 * answered token replaces this browser's session cookie, so it stays signed in while every other session ends.
 * `intent=logout-all`: every session ends, this one included; the cookie goes and the browser lands on /login.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const form = await request.formData();
  const values = formValues(form, ["intent", "email", "currentPassword", "newPassword"]);

  if (TOTP_INTENTS.includes(values.intent)) {
    const { status, result } = await totpAction(api, values.intent as TotpIntent, form);
    return data<TotpResult>(result, { status });
  }

  if (values.intent === EMAIL_NOTIFICATIONS_INTENT) {
    const { status, result } = await emailPreferencesAction(api, form);
    return data<EmailNotificationsResult>(result, { status });
  }

  if (values.intent === "logout-all") {
    await api.logoutEverywhere();
    throw redirect("/login", { headers: { "Set-Cookie": await clearSession(context) } });
  }

  if (values.intent === RESEND_VERIFICATION_INTENT) {
    try {
      const { sentTo } = await api.resendVerification();
      return answer(202, { form: "email", ok: true, message: `We sent a new link to ${sentTo}.`, fieldErrors: {} });
    } catch (err) {
      return refused("email", err);
    }
  }

  if (values.intent === "email") {
    const email = values.email.slice(0, 400);
    const parsed = UserEditBody.safeParse({ email: values.email, currentPassword: values.currentPassword || undefined });
    if (!parsed.success) return answer(400, { form: "email", ok: false, message: null, fieldErrors: fieldErrors(parsed.error), email });
    try {
      const user = await api.updateUser(session.user.id, { email: parsed.data.email, currentPassword: parsed.data.currentPassword });
      // A new address waits for its link (docs/web.md "Verified email addresses"); one's own in another case is set at once.
      const message = user.pendingEmail
        ? `We sent a link to ${user.pendingEmail}. Your email changes once you open it.`
        : `Your email is now ${user.email ?? parsed.data.email}.`;
      return answer(200, { form: "email", ok: true, message, fieldErrors: {} });
    } catch (err) {
      return refused("email", err, email);
    }
  }

  if (values.intent === "mature") {
    // A checkbox: "on" when ticked, absent when not (works without JavaScript).
    const showMature = form.get("showMature") === "on";
    try {
      await api.updateUser(session.user.id, { showMature });
      const message = showMature ? "Mature series are now shown in lists." : "Mature series are now hidden from lists.";
      return answer(200, { form: "mature", ok: true, message, fieldErrors: {} });
    } catch (err) {
      return refused("mature", err);
    }
  }

  if (values.intent === "password") {
    const parsed = PasswordChangeBody.safeParse({ currentPassword: values.currentPassword, newPassword: values.newPassword });
    if (!parsed.success) return answer(400, { form: "password", ok: false, message: null, fieldErrors: fieldErrors(parsed.error) });
    try {
      const { accessToken } = await api.changePassword(session.user.id, parsed.data);
      const message = "Password changed. You are still signed in here; every other session has ended.";
      return answer(
        200,
        { form: "password", ok: true, message, fieldErrors: {} },
        { "Set-Cookie": await commitToken(context, accessToken) },
      );
    } catch (err) {
      return refused("password", err);
    }
  }

  throw data({ message: "Unknown action" }, { status: 400 });
}

export default function Settings() {
  const { email, emailVerified, pendingEmail, showMature, confirming, blocked, totpOn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { passkeys, emailPreferences } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const errorsOf = (form: SettingsForm) => (result?.form === form ? result.fieldErrors : {});
  const outcomeOf = (form: SettingsForm) => (result?.form === form ? result : null);
  const emailErrors = errorsOf("email");
  const passwordErrors = errorsOf("password");

  return (
    <div className="container settings">
      <h1>Settings</h1>

      <section className="card settings__section" aria-labelledby="pictures-title">
        <h2 id="pictures-title">Profile pictures</h2>
        <p>
          Your avatar and banner are set on <Link to="/profile#pictures">your profile page</Link>.
        </p>
      </section>

      <EmailSettings
        email={email}
        emailVerified={emailVerified}
        pendingEmail={pendingEmail}
        outcome={outcomeOf("email")}
        errors={emailErrors}
        typedEmail={result?.form === "email" && !result.ok ? (result.email ?? "") : ""}
      />

      <EmailNotificationsSection
        preferences={emailPreferences}
        emailVerified={emailVerified}
        result={result?.form === "email-notifications" ? result : null}
      />

      <FormSection
        id="password"
        title="Password"
        intro={<p className="muted">Changing it signs you out everywhere else.</p>}
        intent="password"
        outcome={outcomeOf("password")}
        submitLabel="Change password"
      >
        <Field
          label="Current password"
          name="currentPassword"
          id="settings-current-password"
          type="password"
          autoComplete="current-password"
          error={passwordErrors.currentPassword}
          required
        />
        <Field
          label="New password"
          name="newPassword"
          id="settings-new-password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          error={passwordErrors.newPassword}
          required
        />
      </FormSection>

      <div id="mature">
        <FormSection
          id="mature-series"
          title="Mature series"
          intro={
            <p className="muted">Series rated Mature are left out of every list, and open with a notice first, until you turn them on.</p>
          }
          intent="mature"
          outcome={outcomeOf("mature")}
          submitLabel="Save"
        >
          <label className="checkbox">
            <input type="checkbox" name="showMature" defaultChecked={showMature} key={String(showMature)} /> Show mature series
          </label>
        </FormSection>
      </div>

      <TwoFactorSection on={totpOn} result={result?.form === "totp" ? result : null} />

      <PasskeysSection passkeys={passkeys} />

      <section className="card settings__section" id="sessions" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        {confirming ? (
          <>
            <p>Log out on every device and browser, this one included?</p>
            <Form method="post" className="inline-form">
              <input type="hidden" name="intent" value="logout-all" />
              <button type="submit" className="button button--danger" disabled={busy("logout-all")}>
                Log out everywhere
              </button>{" "}
              <Link to="/settings" className="button button--ghost">
                Cancel
              </Link>
            </Form>
          </>
        ) : (
          <>
            <p>Signed in somewhere you should not be? End every session at once.</p>
            <Link to="/settings?confirm=logout-all#sessions" className="button button--secondary">
              Log out everywhere...
            </Link>
          </>
        )}
      </section>

      <BlockedUsers users={blocked?.users ?? null} total={blocked?.total ?? 0} />

      <section className="card settings__section" aria-labelledby="data-title">
        <h2 id="data-title">Your data</h2>
        <p>A zip of your profile, posts, comments, series, chapters, likes and follows, with every image you uploaded.</p>
        <a href="/settings/export" className="button button--secondary" download>
          Download my data
        </a>
      </section>

      <section className="card settings__section" id="delete-account" aria-labelledby="delete-account-title">
        <h2 id="delete-account-title">Delete account</h2>
        <p>
          Your account, series, posts, likes, follows and images go for good; comments others answered stay without your name. The next page
          lists exactly what goes and what stays, and asks for your password.
        </p>
        <Link to="/settings/delete" className="button button--danger">
          Delete account...
        </Link>
      </section>
    </div>
  );
}
