// Instant notification mail (docs/api.md "Notification mail"): one message per notification whose recipient's setting
// for its kind is "instant", queued in the transaction that made the notification and sent by the job runner after it.
import { nowMs } from "../db/dates.ts";
import type { Executor } from "../db/prepared.ts";
import { mailBody } from "../mail/layout.ts";
import { enqueueMails, type OutgoingMail } from "../mail/outbox.ts";
import { DEFAULT_PUBLIC_URL } from "../mail/transport.ts";
import { unsubscribeHeaders, unsubscribeSecret, unsubscribeUrl } from "../mail/unsubscribe.ts";
import { MAIL_KIND_LABELS, MAIL_KIND_NOUNS } from "../rules/email-preferences.ts";
import { instantMailRows, type InstantMailRow } from "./notification-mail.queries.ts";
import { subjectOf, type SubjectColumns } from "./subject.ts";

/** Queues the instant mail of notifications just made, on their transaction. */
export interface NotificationMail {
  queue(on: Executor, notificationIds: number[]): Promise<void>;
}

export interface NotificationMailSettings {
  /** The web app's public origin (PUBLIC_URL): the links open there. */
  publicUrl?: string;
  /** Unsubscribe links are signed with a key derived from it (server/mail/unsubscribe.ts). */
  jwtSecret: string;
}

/** What happened, in a sentence that is also the subject line; and the label of the link that opens it. Digests list their notifications in these words too. */
export function whatHappened(row: SubjectColumns & { actorName: string | null }): { sentence: string; open: string } {
  const who = row.actorName ?? "Someone";
  const title = subjectOf(row).title.trim() || "(removed)";
  switch (row.kind) {
    case "reply":
      return { sentence: `${who} replied to your comment on ${title}`, open: "Read the reply" };
    case "comment":
      return { sentence: `${who} commented on ${title}`, open: "Read the comment" };
    case "mention":
      return {
        sentence: row.commentId === null ? `${who} mentioned you in ${title}` : `${who} mentioned you in a comment on ${title}`,
        open: row.commentId === null ? "Read the post" : "Read the comment",
      };
    case "chapter":
      return { sentence: `New chapter: ${title}`, open: "Read the chapter" };
    case "follow":
      return { sentence: `${who} followed your series ${title}`, open: "Open the series" };
    case "join":
      return { sentence: `${who} joined your hub ${title}`, open: "Open the hub" };
  }
}

/** One notification's message, with the RFC 8058 headers and a visible unsubscribe link for its account and kind. */
export function instantMail(row: InstantMailRow, origin: string, secret: string): OutgoingMail {
  const { sentence, open } = whatHappened(row);
  const noun = MAIL_KIND_NOUNS[row.kind];
  const body = mailBody({
    greeting: `Hello ${row.username},`,
    paragraphs: [`${sentence}.`],
    action: { label: open, url: `${origin}${subjectOf(row).url}` },
    footer: `You get this email because your setting for ${MAIL_KIND_LABELS[row.kind].toLowerCase()} is "Instantly". Change your email settings at ${origin}/settings.`,
    unsubscribe: { label: `Unsubscribe from ${noun} emails`, url: unsubscribeUrl(origin, secret, row.userId, row.kind) },
  });
  return {
    to: row.email,
    subject: sentence,
    ...body,
    kind: `notification-${row.kind}`,
    userId: row.userId,
    headers: unsubscribeHeaders(origin, secret, row.userId, row.kind),
  };
}

/** No mail: the demo seed's history, and tests of notifications alone. */
export const noNotificationMail: NotificationMail = { queue: () => Promise.resolve() };

export function createNotificationMail(settings: NotificationMailSettings): NotificationMail {
  const origin = (settings.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, "");
  const secret = unsubscribeSecret(settings.jwtSecret);
  return {
    // One query for the recipients and one multi-row insert, whatever the number of notifications (a job's batch).
    async queue(on, notificationIds) {
      const rows = await instantMailRows(on, notificationIds, nowMs());
      if (rows.length > 0)
        await enqueueMails(
          on,
          rows.map((row) => instantMail(row, origin, secret)),
        );
    },
  };
}
