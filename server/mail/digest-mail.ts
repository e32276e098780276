// A digest mail (docs/api.md "Digests"): one account's unread notifications of one kind since its last digest, newest
// first, each with its link; at most DIGEST_LIST_CAP listed, then "and N more".
import type { NotificationKind } from "../db/schema.ts";
import type { DigestItemRow } from "../jobs/digests.queries.ts";
import { whatHappened } from "../notifications/notification-mail.ts";
import { subjectOf } from "../notifications/subject.ts";
import { EMAIL_SETTING_LABELS, MAIL_KIND_LABELS, MAIL_KIND_NOUNS } from "../rules/email-preferences.ts";
import { mailBody, SITE_NAME } from "./layout.ts";
import type { OutgoingMail } from "./outbox.ts";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe.ts";

/** Notifications listed in one digest; the rest are counted ("and 3 more"). */
export const DIGEST_LIST_CAP = 20;

export type DigestPeriod = "daily" | "weekly";

export interface DigestMailSettings {
  /** The web app's origin (config.publicUrl): the links open there. */
  publicUrl: string;
  /** unsubscribeSecret(JWT_SECRET) (server/mail/unsubscribe.ts). */
  unsubscribeSecret: string;
}

/** The mail of one (account, kind) group: `rows` are its listed notifications, newest first, all of one account and kind. */
export function digestMail(rows: DigestItemRow[], period: DigestPeriod, settings: DigestMailSettings): OutgoingMail {
  const first = rows[0]!;
  const kind: NotificationKind = first.kind;
  const total = Number(first.total);
  const origin = settings.publicUrl.replace(/\/+$/, "");
  const more = total - rows.length;
  const body = mailBody({
    greeting: `Hello ${first.username},`,
    paragraphs: [`${MAIL_KIND_LABELS[kind]}: ${total} unread since your last ${period} digest.`],
    links: rows.map((row) => ({ text: whatHappened(row).sentence, url: `${origin}${subjectOf(row).url}` })),
    action: {
      label: more > 0 ? `And ${more} more: see all your notifications` : "See all your notifications",
      url: `${origin}/notifications`,
    },
    footer: `You get this email because your setting for ${MAIL_KIND_LABELS[kind].toLowerCase()} is "${EMAIL_SETTING_LABELS[period]}". Change your email settings at ${origin}/settings.`,
    unsubscribe: {
      label: `Unsubscribe from ${MAIL_KIND_NOUNS[kind]} emails`,
      url: unsubscribeUrl(origin, settings.unsubscribeSecret, first.userId, kind),
    },
  });
  return {
    to: first.email,
    subject: `Your ${period} ${SITE_NAME} digest: ${MAIL_KIND_LABELS[kind].toLowerCase()} (${total})`,
    ...body,
    kind: `digest-${kind}`,
    userId: first.userId,
    headers: unsubscribeHeaders(origin, settings.unsubscribeSecret, first.userId, kind),
  };
}
