import { AccessToken, LoginBody, RegisterBody } from "../rules/auth.ts";
import { endpointsFor } from "../http/endpoint.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

export const authEndpoints = [
  endpoint({
    method: "post",
    path: "/auth/register",
    tag: "Auth",
    summary: "Create an account and sign in",
    auth: "none",
    body: RegisterBody,
    status: 201,
    response: AccessToken,
    errors: [409, 429],
    handle: ({ body, deps }) => deps.auth.register(body),
  }),
  endpoint({
    method: "post",
    path: "/auth/login",
    tag: "Auth",
    summary: "Sign in with username and password",
    auth: "none",
    body: LoginBody,
    response: AccessToken,
    errors: [401, 429],
    handle: ({ body, deps }) => deps.auth.login(body),
  }),
];
