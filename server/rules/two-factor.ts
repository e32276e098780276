import { z } from "zod";
import { currentPassword } from "./auth.ts";

// Second factors (docs/api.md "Second factors"): the bodies, answers and messages, shared by the API and the forms.

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes of one step before or after now are accepted too (a phone's clock a little off). */
export const TOTP_DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** A login challenge lives 5 minutes and dies after 5 wrong codes. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_WRONG_CODES = 5;

export const WRONG_CODE = "That code is not right. Check the time on your device and try again.";
export const WRONG_RECOVERY_CODE = "That recovery code is not right, or it was used already.";
export const CHALLENGE_EXPIRED = "This sign-in has expired. Please sign in again.";
export const ADMIN_NEEDS_SECOND_FACTOR =
  "Site admins must turn on a second factor before using admin powers: set up two-factor authentication in Settings.";

/** A 6-digit code as apps show it; spaces ("123 456") are dropped. */
export const totpCode = z
  .string({ error: "Code is required" })
  .max(100, "Enter the 6-digit code from your app")
  .transform((s) => s.replace(/\s+/g, ""))
  .refine((s) => s.length > 0, "Code is required")
  .refine((s) => /^\d{6}$/.test(s), "Enter the 6-digit code from your app");

/** A recovery code as shown ("abcde-12345"), in any case, with or without its dash and spaces. */
export const recoveryCode = z
  .string({ error: "Recovery code is required" })
  .max(100, "Recovery code is too long")
  .transform((s) => s.replace(/[\s-]+/g, "").toLowerCase())
  .refine((s) => s.length > 0, "Recovery code is required");

export const TotpConfirmBody = z.object({ code: totpCode });
export type TotpConfirmInput = z.infer<typeof TotpConfirmBody>;

export const TotpDisableBody = z.object({ password: currentPassword.describe("The account's password") });

const challenge = z.string({ error: "Please sign in again" }).min(1, "Please sign in again").max(200, "Please sign in again");

export const SecondFactorLoginBody = z
  .object({
    challenge,
    code: totpCode.optional(),
    recoveryCode: recoveryCode.optional(),
    /** As with POST /auth/login (docs/decisions/008): the device token of an earlier sign-in, if any. */
    deviceToken: z.string({ error: "deviceToken must be text" }).max(1000, "deviceToken is too long").optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
    message: "Enter the code from your app, or a recovery code",
    path: ["code"],
  });
export type SecondFactorLoginInput = z.infer<typeof SecondFactorLoginBody>;

export const TotpSetup = z.object({
  secret: z.string().describe("Base32, for typing into an app by hand"),
  otpauthUrl: z.string().describe("otpauth://totp/... for a QR code"),
});

export const RecoveryCodes = z.object({
  recoveryCodes: z.array(z.string()).describe("10 codes, each usable once instead of a code; shown only now"),
});

/** What second factors an account has on; its owner sees it in their user (`twoFactor`). */
export const TwoFactorState = z.object({ totp: z.boolean() });
export type TwoFactorState = z.infer<typeof TwoFactorState>;

export const SecondFactorRequired = z.object({
  secondFactorRequired: z.literal(true),
  challenge: z.string().describe("Send it to POST /auth/login/second-factor with a code within 5 minutes"),
});
