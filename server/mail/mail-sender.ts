import { pino, type Logger } from "pino";
import type { Database } from "../db/database.ts";
import { createOutboxQueries } from "./outbox.queries.ts";
import type { MailTransport } from "./transport.ts";

export interface MailSenderOptions {
  /** How long a claimed message is this runner's before another may take it over (a runner that died). */
  leaseMs: number;
  /** The wait after the first failed attempt, doubled after each next one; default 1 minute. */
  retryMs?: number;
  /** Attempts before a message is given up on (logged at error and dropped); default 8 (about two hours). */
  maxAttempts?: number;
  logger?: Logger;
}

/**
 * Sends the outbox (docs/api.md "Mail"), one message at a time, for the job runner. A message is claimed with a lease
 * as jobs are, so of several instances one sends it; it is deleted once the server took it. A failure waits and is
 * tried again, 1 minute later, then 2, 4, ... A message is sent at least once: only if this instance stops between
 * the server's answer and the delete can it go twice.
 */
export function createMailSender(db: Database, transport: MailTransport, options: MailSenderOptions) {
  const { leaseMs, retryMs = 60_000, maxAttempts = 8, logger = pino({ level: "silent" }) } = options;
  const outbox = createOutboxQueries(db);

  return {
    /** Sends the oldest due message; false when none was due. */
    async sendNext(): Promise<boolean> {
      const mail = await outbox.claimNext(Date.now(), leaseMs);
      if (!mail) return false;
      const about = { mailId: mail.id, kind: mail.kind, userId: mail.userId };
      try {
        const sent = await transport.send(
          {
            to: mail.toAddress,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            kind: mail.kind,
            userId: mail.userId,
            headers: mail.headers ? (JSON.parse(mail.headers) as Record<string, string>) : undefined,
          },
          mail.id,
        );
        await outbox.remove(mail.id);
        logger.info({ ...about, answer: sent.answer, messageId: sent.messageId }, "mail sent");
      } catch (err) {
        const attempts = mail.attempts + 1;
        if (attempts >= maxAttempts) {
          await outbox.remove(mail.id);
          logger.error({ err, ...about, attempts }, `mail given up on after ${attempts} attempts`);
        } else {
          const wait = retryMs * 2 ** (attempts - 1);
          await outbox.retryAt(mail.id, Date.now() + wait);
          logger.warn({ err, ...about, attempts, retryInMs: wait }, "mail not sent; trying again later");
        }
      }
      return true;
    },
  };
}
