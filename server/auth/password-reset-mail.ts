import { mailBody, SITE_NAME } from "../mail/layout.ts";
import type { OutgoingMail } from "../mail/outbox.ts";
import { RESET_LINK_MINUTES } from "../rules/password-reset.ts";
import type { ResetAccount } from "./password-reset.queries.ts";

/** The page of the web app that takes a reset token (docs/web.md "Password reset"). */
export const resetUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

/** The message with the reset link. */
export function resetMail(account: ResetAccount, url: string): OutgoingMail {
  return {
    to: account.email,
    userId: account.id,
    kind: "password-reset",
    subject: `Reset your ${SITE_NAME} password`,
    ...mailBody({
      greeting: `Hello ${account.username},`,
      paragraphs: [
        `Someone asked to reset the password of your ${SITE_NAME} account. If it was you, choose a new password with the link below.`,
        `The link works once, for ${RESET_LINK_MINUTES} minutes. Setting a new password signs you out everywhere else.`,
      ],
      action: { label: "Choose a new password", url },
      footer: "If you did not ask for this, ignore this message: your password stays as it is.",
    }),
  };
}

/** The notice after a reset, so an owner who did not ask for it learns of it. */
export function passwordChangedMail(account: { id: number; username: string; email: string }, publicUrl: string): OutgoingMail {
  return {
    to: account.email,
    userId: account.id,
    kind: "password-changed",
    subject: `Your ${SITE_NAME} password was changed`,
    ...mailBody({
      greeting: `Hello ${account.username},`,
      paragraphs: [
        `The password of your ${SITE_NAME} account was just changed with a reset link, and every other session of the account was signed out.`,
      ],
      action: { label: "Ask for a new reset link", url: `${publicUrl}/forgot-password` },
      footer: "If this was you, there is nothing more to do. If it was not, ask for a new reset link now to take your account back.",
    }),
  };
}
