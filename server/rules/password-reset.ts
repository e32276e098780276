// Password reset (docs/api.md "Password reset"): the bodies, answers and words of the two calls, shared by the API and
// the web app's /forgot-password and /reset-password pages.
import { z } from "zod";
import { password } from "./auth.ts";
import { text } from "./text.ts";

/** A reset link lives this long. */
export const RESET_LINK_MINUTES = 60;

/** Reset requests per client address per hour (every input counts alike); beyond it, 429. */
export const DEFAULT_RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 10;

/** Reset mails per account per hour; beyond it requests still answer 202, and no mail goes (no answer tells). */
export const DEFAULT_RESET_MAILS_PER_ACCOUNT_PER_HOUR = 3;

/** A used, expired, unknown or mistyped token: all say the same. */
export const INVALID_RESET_LINK = "This reset link is invalid or has expired. Ask for a new one.";

export const PasswordResetRequestBody = z.object({
  login: text("Username or email", {
    required: "Username or email is required",
    max: [320, "Username or email is too long"],
    singleLine: true,
  }),
});
export type PasswordResetRequestInput = z.infer<typeof PasswordResetRequestBody>;

export const PasswordResetConfirmBody = z.object({
  token: z
    .string({ error: "Token is required" })
    .trim()
    .min(1, "Token is required")
    // Tokens are 43 characters of base64url; anything much longer is not one (and is not hashed).
    .max(200, INVALID_RESET_LINK),
  /** The registration rules, in their words. */
  newPassword: password,
});
export type PasswordResetConfirmInput = z.infer<typeof PasswordResetConfirmBody>;

export const ResetRequested = z.object({}).describe("The same answer for every input: whether an account matched is never told");
