// The messages of verified addresses (docs/api.md "Verified email addresses"), in the site's one layout (server/mail/layout.ts).
import { mailBody } from "../mail/layout.ts";
import type { OutgoingMail } from "../mail/outbox.ts";
import { SITE_NAME } from "../mail/layout.ts";
import { VERIFICATION_LINK_HOURS } from "../rules/email-verification.ts";

interface Account {
  id: number;
  username: string;
}

/** The web app's page that verifies (docs/web.md "Verified email addresses"): it asks for a click before it uses the token. */
export const verificationUrl = (publicUrl: string, token: string) => `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;

/** The link for the account's own address (on register, or asked again) or for a new one it asked to change to. */
export function verificationMail(account: Account, address: string, url: string, kind: "own" | "change"): OutgoingMail {
  const body = mailBody({
    greeting: `Hello ${account.username},`,
    paragraphs:
      kind === "own"
        ? [`Please confirm that ${address} is your address on ${SITE_NAME}: open the link below.`]
        : [
            `You asked to change the email address of your ${SITE_NAME} account to ${address}.`,
            "The change takes effect once you open the link below; until then your account keeps its current address.",
          ],
    action: { label: kind === "own" ? "Verify my email address" : "Confirm my new address", url },
    footer: `The link works once, for ${VERIFICATION_LINK_HOURS} hours. If you did not ask for this, ignore this message: nothing changes.`,
  });
  return {
    to: address,
    subject: kind === "own" ? `Verify your email address on ${SITE_NAME}` : `Confirm your new email address on ${SITE_NAME}`,
    ...body,
    kind: kind === "own" ? "verify-email" : "verify-email-change",
    userId: account.id,
  };
}

/** To the old address once a change took effect: the owner learns of it even when someone else made it. */
export function emailChangedMail(account: Account, oldAddress: string, newAddress: string, publicUrl: string): OutgoingMail {
  const body = mailBody({
    greeting: `Hello ${account.username},`,
    paragraphs: [
      `The email address of your ${SITE_NAME} account was changed from ${oldAddress} to ${newAddress}.`,
      `Mail from ${SITE_NAME} now goes to the new address. If you did not make this change, reset your password at once and tell the site's team.`,
    ],
    action: { label: "Reset my password", url: `${publicUrl}/forgot-password` },
    footer: "You get this message because this was the account's address until now.",
  });
  return { to: oldAddress, subject: `Your email address on ${SITE_NAME} was changed`, ...body, kind: "email-changed", userId: account.id };
}
