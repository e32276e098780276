import { LoggedOut, LoginBody, RegisterBody, SignedIn } from "../rules/auth.ts";
import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { SecondFactorRequired } from "../rules/two-factor.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** The client's address as the throttles count it: the visitor's, forwarded by a trusted proxy (TRUST_PROXY). */
const originOf = (req: { ip?: string }) => ({ address: req.ip ?? "unknown" });

export const authEndpoints = [
  endpoint({
    method: "post",
    path: "/auth/register",
    tag: "Auth",
    summary: "Create an account and sign in",
    auth: "none",
    body: RegisterBody,
    status: 201,
    response: SignedIn,
    rateLimited: true,
    errors: [409],
    handle: ({ body, deps, req }) => deps.auth.register(body, originOf(req)),
  }),
  endpoint({
    method: "post",
    path: "/auth/login",
    tag: "Auth",
    summary:
      "Sign in with username and password (and the device token of an earlier sign-in, if any); 403 while the account is suspended. With TOTP on, no token yet: a challenge for POST /auth/login/second-factor",
    auth: "none",
    body: LoginBody,
    response: z.union([SignedIn, SecondFactorRequired]),
    rateLimited: true,
    errors: [401, 403],
    handle: ({ body, deps, req }) => deps.auth.login(body, originOf(req)),
  }),
  endpoint({
    method: "post",
    path: "/auth/logout",
    tag: "Auth",
    summary: "End the session: the token sent stops working at once",
    auth: "required",
    response: LoggedOut,
    errors: [],
    handle: ({ user, deps }) => deps.auth.logout(user),
  }),
  endpoint({
    method: "post",
    path: "/auth/logout-all",
    tag: "Auth",
    summary: "Log out everywhere: every token of the caller, this one included, stops working at once",
    auth: "required",
    response: LoggedOut,
    errors: [],
    handle: ({ user, deps }) => deps.auth.logoutEverywhere(user),
  }),
];
