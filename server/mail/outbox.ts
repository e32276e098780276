import type { Executor } from "../db/prepared.ts";
import { nowMs } from "../db/dates.ts";
import { insertOutgoingMail } from "./outbox.queries.ts";

/** A message to send (docs/api.md "Mail"). Its links point at the web app (config.publicUrl). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the message is, for logs: "password-reset", "verify-email", "email-changed", ... */
  kind: string;
  /** The account it is for: the message goes with the account if that is deleted before it is sent. */
  userId?: number | null;
  /** Extra headers (List-Unsubscribe later). */
  headers?: Record<string, string>;
}

/** A message as the outbox keeps it: due at once. */
const outboxRow = (mail: OutgoingMail, now: number) => ({
  kind: mail.kind,
  userId: mail.userId ?? null,
  toAddress: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  headers: mail.headers && Object.keys(mail.headers).length > 0 ? JSON.stringify(mail.headers) : null,
  runAfter: now,
  createdAt: now,
});

/**
 * Queues a message in the caller's transaction (`db`: the transaction, or the database for a write of its own); the
 * job runner sends it after commit, with retries. Call `wakeJobRunners(db)` (server/jobs/job-runner.ts) once the
 * transaction has committed, so this instance sends it at once rather than at its next poll.
 */
export async function enqueueMail(db: Executor, mail: OutgoingMail): Promise<void> {
  const now = nowMs();
  await insertOutgoingMail(db, outboxRow(mail, now));
}

/**
 * Queues many messages in the caller's transaction with one multi-row insert per 200 (a job's batch: the digests of
 * server/jobs/digests.ts), so a batch's mail costs a few statements, not one per recipient.
 */
export async function enqueueMails(db: Executor, mails: OutgoingMail[]): Promise<void> {
  const now = nowMs();
  for (let i = 0; i < mails.length; i += 200) {
    await db
      .insertInto("OutgoingMail")
      .values(mails.slice(i, i + 200).map((mail) => outboxRow(mail, now)))
      .execute();
  }
}
