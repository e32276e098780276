import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { AccessToken } from "../rules/auth.ts";
import { SecondFactorRequired } from "../rules/two-factor.ts";
import { PasswordResetConfirmBody, PasswordResetRequestBody, ResetRequested } from "../rules/password-reset.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** The client's address as the limits count it: the visitor's, forwarded by a trusted proxy (TRUST_PROXY). */
const originOf = (req: { ip?: string }) => ({ address: req.ip ?? "unknown" });

export const passwordResetEndpoints = [
  endpoint({
    method: "post",
    path: "/auth/password-reset",
    tag: "Auth",
    summary:
      "Ask for a password reset link by username or email: 202 {} for every input, whether an account matched or not; the account's address gets a link valid for one hour",
    auth: "none",
    body: PasswordResetRequestBody,
    status: 202,
    response: ResetRequested,
    rateLimited: true,
    // No answer shows the token or its mail.
    keepsCachedAnswers: true,
    errors: [],
    handle: ({ body, deps, req }) => deps.passwordReset.requestReset(body, originOf(req)),
  }),
  endpoint({
    method: "post",
    path: "/auth/password-reset/confirm",
    tag: "Auth",
    summary:
      "Set a new password with the token of a reset link and sign in: every other token and session of the account ends; with TOTP on, the answer is the login's code step instead of a token; a used, expired or unknown token is 400 on `token`; 403 while the account is suspended",
    auth: "none",
    body: PasswordResetConfirmBody,
    response: z.union([AccessToken, SecondFactorRequired]),
    rateLimited: true,
    errors: [403],
    handle: ({ body, deps, req }) => deps.passwordReset.confirmReset(body, originOf(req)),
  }),
];
