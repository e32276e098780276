// Verified email addresses (docs/api.md "Verified email addresses"): the bodies, answers and words of the calls that
// verify an address, shared by the API and the web app's pages.
import { z } from "zod";

/** A link lives this long: a day is enough to open one's mail, short enough that an old one found later is dead. */
export const VERIFICATION_LINK_HOURS = 24;

/** Verification mails (resends and email changes together) per account per hour; beyond it, 429. */
export const DEFAULT_VERIFICATION_MAILS_PER_HOUR = 3;

/** The 403 of REQUIRE_VERIFIED_EMAIL on posting, commenting, publishing and uploading. */
export const VERIFY_EMAIL_FIRST = "Verify your email address first";

/** A used, expired, unknown or mistyped token: all say the same (a token is a secret; nothing tells them apart). */
export const INVALID_VERIFICATION_LINK = "This link is invalid or has expired";

/** Asking for a link when the address is verified and no change waits. */
export const NOTHING_TO_VERIFY = "Your email address is already verified";

export const verificationMailRateMessage = (perHour: number, retryAfterSeconds: number) => {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `You can ask for at most ${perHour} verification emails an hour. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
};

export const VerifyEmailBody = z.object({
  token: z
    .string({ error: "Token is required" })
    .trim()
    .min(1, "Token is required")
    // Tokens are 43 characters of base64url; anything much longer is not one (and is not hashed).
    .max(200, INVALID_VERIFICATION_LINK),
});
export type VerifyEmailInput = z.infer<typeof VerifyEmailBody>;

export const EmailVerified = z.object({
  email: z.string().describe("The account's address, now verified (a change took effect when the link was for a new one)"),
  emailVerified: z.literal(true),
  changed: z.boolean().describe("true when the link was for a new address: it replaced the old one, which was told"),
});
export type EmailVerified = z.infer<typeof EmailVerified>;

export const VerificationSent = z.object({
  sentTo: z.string().describe("The address the new link went to: the pending new one when a change waits, else the account's own"),
});
export type VerificationSent = z.infer<typeof VerificationSent>;
