import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { AccessToken } from "../rules/auth.ts";
import {
  NewPasskey,
  NewPasskeyBody,
  Passkey,
  PasskeyCreationOptions,
  PasskeyDeleted,
  PasskeyRequestOptions,
  PasskeySignInBody,
} from "../rules/passkeys.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const PasskeyId = z.object({ id: idParam("Passkey id") });

/** The client's address as the sign-in throttle counts it (as auth.router.ts). */
const originOf = (req: { ip?: string }) => ({ address: req.ip ?? "unknown" });

/** Passkeys (docs/api.md "Passkeys"): the caller's own under /me, and the sign-in under /auth. */
export const passkeyEndpoints = [
  endpoint({
    method: "post",
    path: "/me/passkeys/options",
    tag: "Passkeys",
    summary:
      "WebAuthn creation options for a new passkey of the caller (a discoverable credential; their passkeys excluded); valid 5 minutes, the latest only",
    auth: "required",
    response: PasskeyCreationOptions,
    keepsCachedAnswers: true,
    errors: [409],
    handle: ({ user, deps }) => deps.passkeys.registrationOptions(user),
  }),
  endpoint({
    method: "post",
    path: "/me/passkeys",
    tag: "Passkeys",
    summary: "Add a passkey: the authenticator's answer to the latest options (used once), and a name for it",
    auth: "required",
    body: NewPasskeyBody,
    status: 201,
    response: NewPasskey,
    keepsCachedAnswers: true,
    errors: [409],
    handle: ({ body, user, deps }) => deps.passkeys.register(user, body),
  }),
  endpoint({
    method: "get",
    path: "/me/passkeys",
    tag: "Passkeys",
    summary: "The caller's passkeys, oldest first",
    auth: "required",
    response: z.array(Passkey),
    errors: [],
    handle: ({ user, deps }) => deps.passkeys.list(user),
  }),
  endpoint({
    method: "delete",
    path: "/me/passkeys/{id}",
    tag: "Passkeys",
    summary: "Delete one of the caller's passkeys (another's is a 404)",
    auth: "required",
    params: PasskeyId,
    response: PasskeyDeleted,
    keepsCachedAnswers: true,
    errors: [404],
    handle: ({ params, user, deps }) => deps.passkeys.remove(user, params.id),
  }),
  endpoint({
    method: "post",
    path: "/auth/passkey/options",
    tag: "Auth",
    summary: "WebAuthn request options to sign in with a passkey, without a username, and the challengeId to send back (5 minutes, once)",
    auth: "none",
    response: PasskeyRequestOptions,
    rateLimited: true,
    keepsCachedAnswers: true,
    errors: [],
    handle: ({ deps, req }) => deps.passkeys.signInOptions(originOf(req)),
  }),
  endpoint({
    method: "post",
    path: "/auth/passkey",
    tag: "Auth",
    summary:
      "Sign in with a passkey: the authenticator's answer to the options of challengeId; no other factor. 401 when it does not verify (a counter that did not move forward included), 403 while the account is suspended",
    auth: "none",
    body: PasskeySignInBody,
    response: AccessToken,
    rateLimited: true,
    keepsCachedAnswers: true,
    errors: [401, 403],
    handle: ({ body, deps, req }) => deps.passkeys.signIn(body, originOf(req)),
  }),
];
