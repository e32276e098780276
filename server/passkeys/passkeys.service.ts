import { createHash, randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
} from "@simplewebauthn/server";
import { decodeClientDataJSON, isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { signAccessToken, type Caller, type TokenConfig } from "../http/auth.ts";
import { badRequest, conflict, forbidden, HttpError, notFound, TooManyRequests } from "../http/errors.ts";
import { memoryAttemptCounter, unlimitedAttempts, type AttemptCounters } from "../http/attempt-counter.ts";
import { isSuspended } from "../moderation/suspensions.service.ts";
import { ACCOUNT_SUSPENDED } from "../rules/bans.ts";
import {
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_MS,
  PASSKEY_EXPIRED_MESSAGE,
  PASSKEY_LIMIT_MESSAGE,
  PASSKEY_NOT_FOUND_MESSAGE,
  PASSKEY_SIGN_IN_EXPIRED_MESSAGE,
  PASSKEY_SIGN_IN_FAILED_MESSAGE,
  PASSKEY_TAKEN_MESSAGE,
  PASSKEY_UNVERIFIED_MESSAGE,
  type NewPasskeyInput,
  type Passkey,
  type PasskeySignInInput,
} from "../rules/passkeys.ts";
import { createPasskeyQueries, type PasskeyRow } from "./passkeys.queries.ts";

export interface PasskeyConfig extends TokenConfig {
  /** The web app's public origin (PUBLIC_URL): its host is the relying party id, its origin the one a browser reports. */
  publicUrl?: string;
  /** Passkey sign-in calls (options and answers) per client address per 15 minutes, as many as password logins; 0: no limit. */
  authRateLimit: number;
}

const RP_NAME = "Inkwell";
const DEFAULT_PUBLIC_URL = "http://localhost:3000";

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

/** The WebAuthn user handle of an account: its id, so one authenticator keeps one Inkwell passkey per account. */
const userHandleOf = (userId: number) => new TextEncoder().encode(String(userId));

const transportsOf = (row: Pick<PasskeyRow, "transports">) =>
  row.transports === "" ? undefined : (row.transports.split(",") as AuthenticatorTransportFuture[]);

const summary = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: toIso(row.createdAt),
  lastUsedAt: row.lastUsedAt === null ? null : toIso(row.lastUsedAt),
});

/** The challenge a response answers, from its clientDataJSON; null when that is not WebAuthn's JSON. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const challenge = (decodeClientDataJSON(clientDataJSON) as { challenge?: unknown }).challenge;
    return typeof challenge === "string" && challenge.length > 0 && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Passkeys (docs/api.md "Passkeys"), through SimpleWebAuthn: adding one in settings and signing in with one, without a
 * username. Challenges are random (the library's 32 bytes), kept only as sha256 for 5 minutes and taken (deleted) by
 * the answer that uses them, whether it verifies or not.
 */
export function createPasskeyService(db: Database, config: PasskeyConfig, counters?: AttemptCounters) {
  const passkeys = createPasskeyQueries(db);
  const publicUrl = new URL(config.publicUrl ?? DEFAULT_PUBLIC_URL);
  const rpID = publicUrl.hostname;
  const expectedOrigin = publicUrl.origin;
  // Every call of a stranger counts, options too (each one keeps a challenge row for 5 minutes). No count per account:
  // a passkey's signature cannot be guessed, so failures tell an attacker nothing worth throttling.
  const perAddress =
    config.authRateLimit > 0 ? (counters ?? memoryAttemptCounter)("passkey-address", config.authRateLimit, 15 * 60) : unlimitedAttempts;
  async function countAttempt(address: string): Promise<void> {
    const wait = await perAddress.take(address);
    if (wait !== null) throw new TooManyRequests("Too many attempts. Please try again later.", wait);
  }

  return {
    list: async (caller: Caller): Promise<Passkey[]> => (await passkeys.listOf(caller.id)).map(summary),

    /** Creation options for the caller: a discoverable credential, their passkeys excluded (an authenticator adds one once). */
    async registrationOptions(caller: Caller) {
      const existing = await passkeys.listOf(caller.id);
      if (existing.length >= MAX_PASSKEYS) throw conflict(PASSKEY_LIMIT_MESSAGE);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userID: userHandleOf(caller.id),
        userName: caller.username,
        userDisplayName: caller.username,
        timeout: PASSKEY_CHALLENGE_MS,
        attestationType: "none",
        excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
        authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
      });
      const now = nowMs();
      // One ceremony at a time: the new challenge replaces the user's earlier ones (at most one row per user).
      await db.kysely.transaction().execute(async (trx) => {
        await passkeys.dropStaleChallenges(trx, now, caller.id);
        await passkeys.insertChallenge(trx, {
          challengeHash: sha256(options.challenge),
          userId: caller.id,
          challengeIdHash: null,
          expiresAt: now + PASSKEY_CHALLENGE_MS,
        });
      });
      return options;
    },

    /** Verifies the authenticator's answer to the caller's latest options and keeps the passkey. */
    async register(caller: Caller, input: NewPasskeyInput): Promise<Pick<Passkey, "id" | "name" | "createdAt">> {
      const expired = () => badRequest(PASSKEY_EXPIRED_MESSAGE, [{ field: "response", message: PASSKEY_EXPIRED_MESSAGE }]);
      const unverified = () => badRequest(PASSKEY_UNVERIFIED_MESSAGE, [{ field: "response", message: PASSKEY_UNVERIFIED_MESSAGE }]);
      const challenge = challengeOf(input.response.response.clientDataJSON);
      if (challenge === null) throw unverified();
      const expiresAt = await passkeys.takeRegistrationChallenge(caller.id, sha256(challenge));
      if (expiresAt === undefined || expiresAt <= nowMs()) throw expired();
      let credential;
      try {
        const verification = await verifyRegistrationResponse({
          // Transports are kept from the answer as sent (filtered below); the check does not read them.
          response: { ...input.response, response: { ...input.response.response, transports: undefined } },
          expectedChallenge: challenge,
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
        if (!verification.verified) throw unverified();
        credential = verification.registrationInfo.credential;
      } catch (err) {
        // The library throws plain Errors for every malformed or mismatched answer (origin, rp id, signature, CBOR).
        if (err instanceof HttpError) throw err;
        throw unverified();
      }
      const now = nowMs();
      try {
        const row = await db.kysely.transaction().execute(async (trx) => {
          if ((await passkeys.countOf(caller.id, trx)) >= MAX_PASSKEYS) throw conflict(PASSKEY_LIMIT_MESSAGE);
          return passkeys.insert(
            {
              userId: caller.id,
              credentialId: credential.id,
              publicKey: isoBase64URL.fromBuffer(credential.publicKey),
              counter: credential.counter,
              transports: (input.response.response.transports ?? []).filter((t) => /^[a-z-]{1,40}$/.test(t)).join(","),
              name: input.name,
              createdAt: now,
            },
            trx,
          );
        });
        return { id: row.id, name: row.name, createdAt: toIso(row.createdAt) };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(PASSKEY_TAKEN_MESSAGE);
        throw err;
      }
    },

    /** Only the caller's own: another's passkey is a 404, as one that does not exist. */
    async remove(caller: Caller, id: number): Promise<{ id: number; deleted: true }> {
      if (!(await passkeys.deleteOwn(caller.id, id))) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
      return { id, deleted: true };
    },

    /** Request options for a sign-in without a username (discoverable credentials: no allow list), with their challengeId. */
    async signInOptions(origin: { address: string }) {
      await countAttempt(origin.address);
      const options = await generateAuthenticationOptions({ rpID, userVerification: "preferred", timeout: PASSKEY_CHALLENGE_MS });
      const challengeId = randomBytes(24).toString("base64url");
      const now = nowMs();
      await db.kysely.transaction().execute(async (trx) => {
        await passkeys.dropStaleChallenges(trx, now);
        await passkeys.insertChallenge(trx, {
          challengeHash: sha256(options.challenge),
          userId: null,
          challengeIdHash: sha256(challengeId),
          expiresAt: now + PASSKEY_CHALLENGE_MS,
        });
      });
      return { ...options, challengeId };
    },

    /**
     * Signs in with a passkey: no other factor (docs/api.md "Passkeys"). The challenge is taken first, so an answer is
     * good once; a signature counter that does not move forward (a cloned authenticator) is refused. A suspended
     * account is refused after the check, as the password login refuses it.
     */
    async signIn(input: PasskeySignInInput, origin: { address: string }): Promise<{ accessToken: string }> {
      await countAttempt(origin.address);
      const challenge = await passkeys.takeSignInChallenge(sha256(input.challengeId));
      if (!challenge || challenge.expiresAt <= nowMs()) {
        throw badRequest(PASSKEY_SIGN_IN_EXPIRED_MESSAGE, [{ field: "challengeId", message: PASSKEY_SIGN_IN_EXPIRED_MESSAGE }]);
      }
      const failed = () => new HttpError(401, PASSKEY_SIGN_IN_FAILED_MESSAGE);
      const passkey = await passkeys.forSignIn(input.response.id);
      if (!passkey) throw failed();
      const handle = input.response.response.userHandle;
      if (handle !== undefined && isoBase64URL.trimPadding(handle) !== isoBase64URL.fromBuffer(userHandleOf(passkey.userId)))
        throw failed();
      let newCounter: number;
      try {
        const verification = await verifyAuthenticationResponse({
          response: input.response,
          expectedChallenge: (answered) => sha256(answered) === challenge.challengeHash,
          expectedOrigin,
          expectedRPID: rpID,
          credential: {
            id: passkey.credentialId,
            publicKey: isoBase64URL.toBuffer(passkey.publicKey),
            counter: passkey.counter,
            transports: transportsOf(passkey),
          },
          requireUserVerification: false,
        });
        if (!verification.verified) throw failed();
        newCounter = verification.authenticationInfo.newCounter;
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw failed();
      }
      if (!(await passkeys.advanceCounter(passkey.id, passkey.counter, newCounter, nowMs()))) throw failed();
      if (isSuspended(passkey.suspendedUntil)) throw forbidden(ACCOUNT_SUSPENDED);
      const user = { id: passkey.userId, username: passkey.username, email: passkey.email, tokenGeneration: passkey.tokenGeneration };
      return { accessToken: signAccessToken(user, config) };
    },
  };
}
