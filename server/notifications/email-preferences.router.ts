import { endpointsFor } from "../http/endpoint.ts";
import { EmailPreferencesShape, EmailPreferencesUpdateBody, Unsubscribed, UnsubscribeBody } from "../rules/email-preferences.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** The client's address as the limits count it: the visitor's, forwarded by a trusted proxy (TRUST_PROXY). */
const originOf = (req: { ip?: string }) => ({ address: req.ip ?? "unknown" });

// docs/api.md "Notification mail".
export const emailPreferenceEndpoints = [
  endpoint({
    method: "get",
    path: "/me/email-preferences",
    tag: "Notification mail",
    summary:
      "The caller's notification mail settings: one of off, instant, daily, weekly per notification kind (defaults for kinds never chosen)",
    auth: "required",
    response: EmailPreferencesShape,
    errors: [],
    handle: ({ user, deps }) => deps.emailPreferences.get(user.id),
  }),
  endpoint({
    method: "put",
    path: "/me/email-preferences",
    tag: "Notification mail",
    summary:
      "Change notification mail settings: any of the kinds (a kind left out keeps its setting); an unknown kind or setting is a 400 on that field; answers every kind's setting",
    auth: "required",
    body: EmailPreferencesUpdateBody,
    response: EmailPreferencesShape,
    errors: [],
    handle: ({ body, user, deps }) => deps.emailPreferences.update(user.id, body),
  }),
  endpoint({
    method: "post",
    path: "/email-preferences/unsubscribe",
    tag: "Notification mail",
    summary:
      "One-click unsubscribe (RFC 8058) with the token of a notification mail's link, without sign-in: that kind turns off for that account; idempotent; any other token is a 400 on `token`",
    auth: "none",
    body: UnsubscribeBody,
    response: Unsubscribed,
    rateLimited: true,
    errors: [],
    handle: ({ body, deps, req }) => deps.emailPreferences.unsubscribe(body, originOf(req)),
  }),
];
