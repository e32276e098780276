import { endpointsFor } from "../http/endpoint.ts";
import { SignedIn } from "../rules/auth.ts";
import { RecoveryCodes, SecondFactorLoginBody, TotpConfirmBody, TotpDisableBody, TotpSetup, TwoFactorState } from "../rules/two-factor.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** The client's address as the throttles count it (as server/auth/auth.router.ts). */
const originOf = (req: { ip?: string }) => ({ address: req.ip ?? "unknown" });

/** TOTP on and off, and the login's code step (docs/api.md "Second factors"). */
export const twoFactorEndpoints = [
  endpoint({
    method: "post",
    path: "/me/2fa/totp",
    tag: "Second factors",
    summary: "Start turning TOTP on: a new pending secret (again on each call until one is confirmed); 409 while TOTP is on",
    auth: "required",
    response: TotpSetup,
    errors: [409],
    handle: ({ user, deps }) => deps.totp.setUp(user),
  }),
  endpoint({
    method: "post",
    path: "/me/2fa/totp/confirm",
    tag: "Second factors",
    summary: "Turn TOTP on with a first code from the app: the answer holds 10 recovery codes, shown only this once",
    auth: "required",
    body: TotpConfirmBody,
    response: RecoveryCodes,
    errors: [409],
    handle: ({ body, user, deps }) => deps.totp.confirm(user, body),
  }),
  endpoint({
    method: "delete",
    path: "/me/2fa/totp",
    tag: "Second factors",
    summary: "Turn TOTP off with the account's password (throttled as login is); its recovery codes go with it",
    auth: "required",
    body: TotpDisableBody,
    response: TwoFactorState,
    rateLimited: true,
    errors: [],
    handle: ({ body, user, deps, req }) => deps.totp.turnOff(user, body.password, originOf(req)),
  }),
  endpoint({
    method: "post",
    path: "/auth/login/second-factor",
    tag: "Auth",
    summary:
      "Finish a sign-in whose login answered a challenge: the challenge with a code from the app, or with a recovery code; 403 while the account is suspended",
    auth: "none",
    body: SecondFactorLoginBody,
    response: SignedIn,
    rateLimited: true,
    errors: [403],
    handle: ({ body, deps, req }) => deps.auth.completeSecondFactor(body, originOf(req)),
  }),
];
