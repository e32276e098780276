import { Form, Link, useNavigation } from "@remix-run/react";
import type { TotpResult } from "../lib/two-factor.server.ts";
import { Field, FormError } from "./field.tsx";

/** The key in groups of four, as apps print it: easier to type by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * The settings page's "Two-factor authentication" card (docs/web.md "Two-factor authentication"), every step a plain
 * form: off -> "Turn on" -> the QR code (drawn on the server), the key for typing by hand and a code field -> the 10
 * recovery codes, shown once -> on, with "Turn off" and the password.
 */
export function TwoFactorSection({ on, result }: { on: boolean | null; result: TotpResult | null }) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const errors = result?.fieldErrors ?? {};
  // What the last form did wins over the page's data until that is loaded again (with scripts, a moment later).
  const turnedOn = result?.recoveryCodes !== undefined;
  const turnedOff = result?.ok === true && result.setUp === undefined && !turnedOn;
  const isOn = turnedOn ? true : turnedOff ? false : on;
  const outcome = result?.ok ? (
    result.message ? (
      <p className="save-success save-success--inline" role="status">
        {result.message}
      </p>
    ) : null
  ) : result ? (
    <FormError>{result.message}</FormError>
  ) : null;

  let body;
  if (result?.setUp) {
    const { setUp } = result;
    body = (
      <>
        <p>
          Scan this QR code with an authenticator app (such as Aegis, Google Authenticator or 1Password), or type the key into it by hand.
          Then enter the 6-digit code the app shows.
        </p>
        <div
          className="qr-code"
          role="img"
          aria-label="QR code for your authenticator app"
          dangerouslySetInnerHTML={{ __html: setUp.qrSvg }}
        />
        <p>
          Key: <code className="totp-secret">{grouped(setUp.secret)}</code>
        </p>
        <Form method="post" className="form" noValidate preventScrollReset>
          <input type="hidden" name="intent" value="totp-confirm" />
          <input type="hidden" name="secret" value={setUp.secret} />
          <input type="hidden" name="otpauthUrl" value={setUp.otpauthUrl} />
          <Field
            label="Code from the app"
            name="code"
            id="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            error={errors.code}
            required
            autoCapitalize="none"
            spellCheck={false}
          />
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={busy("totp-confirm")}>
              {busy("totp-confirm") ? "Checking..." : "Turn on"}
            </button>
            <Link to="/settings#two-factor" className="button button--ghost">
              Cancel
            </Link>
          </div>
        </Form>
      </>
    );
  } else if (isOn) {
    body = (
      <>
        {result?.recoveryCodes ? (
          <>
            <p>
              Each recovery code signs you in once, instead of a code from the app, if you lose your phone. Keep them somewhere safe: they
              are not shown again.
            </p>
            <ol className="recovery-codes" aria-label="Recovery codes">
              {result.recoveryCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ol>
          </>
        ) : (
          <p>On: signing in asks for a code from your authenticator app after your password.</p>
        )}
        <Form method="post" className="form" noValidate preventScrollReset>
          <input type="hidden" name="intent" value="totp-off" />
          <Field
            label="Password"
            name="password"
            id="totp-off-password"
            type="password"
            autoComplete="current-password"
            hint="To turn two-factor authentication off."
            error={errors.password}
            required
          />
          <div className="actions">
            <button type="submit" className="button button--danger" disabled={busy("totp-off")}>
              {busy("totp-off") ? "Turning off..." : "Turn off"}
            </button>
          </div>
        </Form>
      </>
    );
  } else if (isOn === false) {
    body = (
      <>
        <p>Off. With it on, signing in also asks for a 6-digit code from an authenticator app on your phone.</p>
        <Form method="post" className="inline-form" preventScrollReset>
          <input type="hidden" name="intent" value="totp-setup" />
          <button type="submit" className="button button--secondary" disabled={busy("totp-setup")}>
            {busy("totp-setup") ? "Starting..." : "Turn on two-factor authentication"}
          </button>
        </Form>
      </>
    );
  } else {
    body = <p className="muted">Two-factor authentication could not be loaded. Please reload the page.</p>;
  }

  return (
    <section className="card settings__section" id="two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor authentication</h2>
      {outcome}
      {body}
    </section>
  );
}
