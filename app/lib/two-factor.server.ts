import QRCode from "qrcode";
import { TotpConfirmBody, TotpDisableBody } from "../../server/rules/two-factor.ts";
import { ApiError, apiFieldErrors, type Api } from "./api.server.ts";
import { fieldErrors, type FieldErrors } from "./forms.ts";

/**
 * The settings page's "Two-factor authentication" forms (docs/web.md "Two-factor authentication"), without JavaScript:
 * `totp-setup` answers the QR code and the secret with a code field, `totp-confirm` the recovery codes (shown once),
 * `totp-off` turns it off with the password.
 */
export type TotpIntent = "totp-setup" | "totp-confirm" | "totp-off";
export const TOTP_INTENTS: readonly string[] = ["totp-setup", "totp-confirm", "totp-off"] satisfies TotpIntent[];

export interface TotpResult {
  form: "totp";
  ok: boolean;
  message: string | null;
  fieldErrors: FieldErrors;
  /** The set-up step: what the app needs (the QR code drawn here, on the server, as SVG markup). */
  setUp?: { secret: string; otpauthUrl: string; qrSvg: string };
  /** Shown once, right after turning it on. */
  recoveryCodes?: string[];
}

/** The QR code of an otpauth:// URL as SVG markup (the `qrcode` package), drawn on the server. */
export const qrCodeSvg = (url: string): Promise<string> => QRCode.toString(url, { type: "svg", margin: 2, errorCorrectionLevel: "M" });

async function setUpStep(secret: string, otpauthUrl: string) {
  return { secret, otpauthUrl, qrSvg: await qrCodeSvg(otpauthUrl) };
}

function refused(err: unknown, setUp?: TotpResult["setUp"]): { status: number; result: TotpResult } {
  if (!(err instanceof ApiError)) throw err;
  const fields = apiFieldErrors(err);
  const status = err.status === 429 ? 429 : err.status === 400 ? 400 : err.status === 409 ? 409 : 502;
  const message =
    Object.keys(fields).length > 0 ? null : err.status === 0 || err.status >= 500 ? "Could not save. Please try again." : err.message;
  return { status, result: { form: "totp", ok: false, message, fieldErrors: fields, setUp } };
}

/** Runs one of the TOTP forms; the status and what the section shows next. */
export async function totpAction(api: Api, intent: TotpIntent, form: FormData): Promise<{ status: number; result: TotpResult }> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  if (intent === "totp-setup") {
    try {
      const { secret, otpauthUrl } = await api.setUpTotp();
      return {
        status: 200,
        result: { form: "totp", ok: true, message: null, fieldErrors: {}, setUp: await setUpStep(secret, otpauthUrl) },
      };
    } catch (err) {
      return refused(err);
    }
  }
  if (intent === "totp-confirm") {
    // The QR code again after a wrong code: drawn from what the form carried (only shown; the API checks its own secret).
    const shown = /^otpauth:\/\/totp\//.test(text("otpauthUrl"))
      ? await setUpStep(text("secret").slice(0, 200), text("otpauthUrl").slice(0, 1000))
      : undefined;
    const parsed = TotpConfirmBody.safeParse({ code: text("code") });
    if (!parsed.success)
      return { status: 400, result: { form: "totp", ok: false, message: null, fieldErrors: fieldErrors(parsed.error), setUp: shown } };
    try {
      const { recoveryCodes } = await api.confirmTotp(parsed.data.code);
      const message = "Two-factor authentication is on. Save your recovery codes now: they are shown only this once.";
      return { status: 200, result: { form: "totp", ok: true, message, fieldErrors: {}, recoveryCodes } };
    } catch (err) {
      return refused(err, shown);
    }
  }
  const parsed = TotpDisableBody.safeParse({ password: text("password") });
  if (!parsed.success) return { status: 400, result: { form: "totp", ok: false, message: null, fieldErrors: fieldErrors(parsed.error) } };
  try {
    await api.turnOffTotp(parsed.data.password);
    return { status: 200, result: { form: "totp", ok: true, message: "Two-factor authentication is off.", fieldErrors: {} } };
  } catch (err) {
    return refused(err);
  }
}
