// One-click unsubscribe links (RFC 8058; docs/api.md "Notification mail"): signed for one account and one kind, so the
// link in a mail turns off that kind for that account without a sign-in, and nothing else.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { NotificationKind } from "../db/schema.ts";
import { MAIL_KINDS } from "../rules/email-preferences.ts";

/**
 * The key that signs unsubscribe links: HMAC-SHA256(JWT_SECRET, "unsubscribe"), so it is a key of its own (a link's
 * signature can never be an access token's) and needs no setting; changing JWT_SECRET voids the links of sent mail.
 */
export function unsubscribeSecret(jwtSecret: string): string {
  return createHmac("sha256", jwtSecret).update("unsubscribe").digest("base64url");
}

const sign = (secret: string, userId: number, kind: NotificationKind) =>
  createHmac("sha256", secret).update(`unsubscribe:${userId}:${kind}`).digest("base64url");

/** `<userId>.<kind>.<HMAC-SHA256 in base64url>`: URL-safe as it is. */
export function unsubscribeToken(secret: string, userId: number, kind: NotificationKind): string {
  return `${userId}.${kind}.${sign(secret, userId, kind)}`;
}

/** The account and kind a token was signed for; null for anything else (tampered, foreign, mistyped). */
export function readUnsubscribeToken(secret: string, token: string): { userId: number; kind: NotificationKind } | null {
  const match = /^([1-9][0-9]{0,15})\.([a-z]{1,20})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const kind = match[2] as NotificationKind;
  if (!Number.isSafeInteger(userId) || !(MAIL_KINDS as readonly string[]).includes(kind)) return null;
  const expected = Buffer.from(sign(secret, userId, kind));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, kind } : null;
}

/** The web app's page that a mail's unsubscribe link opens (GET shows a button; POST, the one-click, acts). */
export function unsubscribeUrl(publicUrl: string, secret: string, userId: number, kind: NotificationKind): string {
  return `${publicUrl.replace(/\/+$/, "")}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(secret, userId, kind))}`;
}

/** The RFC 8058 headers every notification mail carries. */
export function unsubscribeHeaders(publicUrl: string, secret: string, userId: number, kind: NotificationKind): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl(publicUrl, secret, userId, kind)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}
