import { endpointsFor } from "../http/endpoint.ts";
import { EmailVerified, VerificationSent, VerifyEmailBody } from "../rules/email-verification.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** Verified email addresses (docs/api.md "Verified email addresses"). */
export const emailVerificationEndpoints = [
  endpoint({
    method: "post",
    path: "/auth/verify-email",
    tag: "Auth",
    summary:
      "Verify an address with the token of its link (no sign-in needed): the account's own is marked verified, a new one it asked to change to takes effect and the old one is told; a used, expired or unknown token is 400 on `token`",
    auth: "none",
    body: VerifyEmailBody,
    response: EmailVerified,
    errors: [409],
    handle: ({ body, deps }) => deps.emailVerification.verify(body),
  }),
  endpoint({
    method: "post",
    path: "/me/verify-email/resend",
    tag: "Auth",
    summary:
      "Send the verification link again: for the new address a change waits to take, else for your own while it is unverified (400 when there is nothing to verify; at most 3 verification emails an hour, else 429)",
    auth: "required",
    status: 202,
    response: VerificationSent,
    rateLimited: true,
    errors: [],
    handle: ({ user, deps }) => deps.emailVerification.resend(user),
  }),
];
