import { z } from "zod";
import { text } from "./text.ts";

/** Passkeys (docs/api.md "Passkeys"): WebAuthn credentials that sign in without a password or another factor. */

/** How long a challenge (adding a passkey or signing in) may be answered: WebAuthn's usual ceremony timeout. */
export const PASSKEY_CHALLENGE_MS = 5 * 60 * 1000;
/** Passkeys an account may hold: enough for every device of a person, bounded so the exclude list stays short. */
export const MAX_PASSKEYS = 20;
export const PASSKEY_NAME_MAX = 60;

export const PASSKEY_LIMIT_MESSAGE = `You can have at most ${MAX_PASSKEYS} passkeys. Delete one first.`;
export const PASSKEY_TAKEN_MESSAGE = "This passkey is already registered";
export const PASSKEY_EXPIRED_MESSAGE = "The passkey request has expired or was already used. Please try again.";
export const PASSKEY_UNVERIFIED_MESSAGE = "The passkey could not be verified. Please try again.";
export const PASSKEY_SIGN_IN_EXPIRED_MESSAGE = "The sign-in request has expired or was already used. Please try again.";
export const PASSKEY_SIGN_IN_FAILED_MESSAGE = "This passkey could not sign you in";
export const PASSKEY_NOT_FOUND_MESSAGE = "Passkey not found";

/** base64url as WebAuthn's JSON forms carry binary (padding tolerated, as browsers and SimpleWebAuthn accept it). */
const base64url = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${label} must be base64url`);

const credentialFields = {
  id: base64url("response.id", 1400),
  rawId: base64url("response.rawId", 1400),
  type: z.literal("public-key", { error: 'response.type must be "public-key"' }),
  clientExtensionResults: z.record(z.string(), z.unknown(), { error: "response.clientExtensionResults must be an object" }).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** What `navigator.credentials.create()` answered, as JSON (SimpleWebAuthn's RegistrationResponseJSON). */
export const RegistrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url("response.clientDataJSON", 8192),
    attestationObject: base64url("response.attestationObject", 65536),
    transports: z.array(z.string().max(40), { error: "response.transports must be a list" }).max(10).optional(),
    authenticatorData: base64url("response.authenticatorData", 65536).optional(),
    publicKey: base64url("response.publicKey", 8192).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
});

/** What `navigator.credentials.get()` answered, as JSON (SimpleWebAuthn's AuthenticationResponseJSON). */
export const AuthenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url("response.clientDataJSON", 8192),
    authenticatorData: base64url("response.authenticatorData", 65536),
    signature: base64url("response.signature", 8192),
    userHandle: base64url("response.userHandle", 200).optional(),
  }),
});

export const PasskeyName = text("Name", {
  required: "Name is required",
  max: [PASSKEY_NAME_MAX, `Name must be at most ${PASSKEY_NAME_MAX} characters`],
  singleLine: true,
});

export const NewPasskeyBody = z.object({
  name: PasskeyName,
  response: RegistrationResponse,
});
export type NewPasskeyInput = z.infer<typeof NewPasskeyBody>;

export const PasskeySignInBody = z.object({
  challengeId: z.string({ error: "challengeId is required" }).min(1, "challengeId is required").max(100, PASSKEY_SIGN_IN_EXPIRED_MESSAGE),
  response: AuthenticationResponse,
});
export type PasskeySignInInput = z.infer<typeof PasskeySignInBody>;

/** A passkey as its owner sees it in the settings list. */
export const Passkey = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof Passkey>;

export const NewPasskey = Passkey.pick({ id: true, name: true, createdAt: true });
export const PasskeyDeleted = z.object({ id: z.number().int().positive(), deleted: z.literal(true) });

/** The options for `navigator.credentials.create()` (WebAuthn's PublicKeyCredentialCreationOptionsJSON). */
export const PasskeyCreationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.string(), alg: z.number() })),
  excludeCredentials: z.array(z.looseObject({ id: z.string(), type: z.string() })).optional(),
  authenticatorSelection: z.looseObject({}).optional(),
});

/** The options for `navigator.credentials.get()`, and the `challengeId` to send back with the answer. */
export const PasskeyRequestOptions = z.looseObject({
  challengeId: z.string(),
  challenge: z.string(),
  rpId: z.string().optional(),
  allowCredentials: z.array(z.looseObject({ id: z.string(), type: z.string() })).optional(),
  userVerification: z.string().optional(),
  timeout: z.number().optional(),
});
