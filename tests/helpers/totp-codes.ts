import { createHmac } from "node:crypto";

// RFC 6238 (SHA-1, 6 digits, 30 s) written here from the RFC, apart from the library the API uses (otpauth), so the
// tests check the API against an independent implementation.

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code of a base32 secret for the 30-second step that holds `ms` (RFC 4226 dynamic truncation). */
export function totpCode(secret: string, ms: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 1000 / 30)));
  const hmac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, "0");
}

/** RFC 6238 appendix B's first test vector, to check this implementation itself. */
export const RFC_6238_SHA1 = { secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", ms: 59_000, code: "287082" };
