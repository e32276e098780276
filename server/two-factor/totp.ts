import { createHash, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_DRIFT_STEPS, TOTP_PERIOD_SECONDS } from "../rules/two-factor.ts";

// RFC 6238 through otpauth: SHA-1, 6 digits, 30-second steps, one step of drift (docs/api.md "Second factors").

const ISSUER = "Inkwell";

const totpOf = (secret: string, label = "") =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });

/** A new secret: 20 random bytes (RFC 4226's recommended length), base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URL an authenticator app reads from the QR code. */
export const otpauthUrl = (secret: string, username: string): string => totpOf(secret, username).toString();

/** The 30-second time step at `nowMs`. */
export const timeStep = (nowMs: number): number => TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs });

/** The time step the code belongs to (now, or one step either side), or null when it is not a code of this secret. */
export function stepOfCode(secret: string, code: string, nowMs: number): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: TOTP_DRIFT_STEPS });
  return delta === null ? null : timeStep(nowMs) + delta;
}

// No 0/o, 1/l/i: codes are copied from paper.
const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/** Ten recovery codes as shown once: "xxxxx-xxxxx", 10 characters of 31 (about 50 bits) each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored of a recovery code or a challenge id: its sha256 (the code as the rules normalise it: no dash, lower case). */
export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");
export const recoveryCodeHash = (code: string): string => sha256(code.replace(/[\s-]+/g, "").toLowerCase());
