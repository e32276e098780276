import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import { SITE_NAME } from "./layout.ts";
import type { OutgoingMail } from "./outbox.ts";

export interface MailSettings {
  /** smtp:// or smtps:// URL; unset: messages are written to DATA_DIR/outbox as .eml files. */
  smtpUrl?: string;
  /** The From of every message; a bare address gets the site's name. Default `Inkwell <no-reply@localhost>`. */
  mailFrom?: string;
  /** The web app's public origin: Message-IDs are on its host. Default http://localhost:3000. */
  publicUrl?: string;
  dataDir: string;
}

export interface SentMail {
  /** What the server answered ("250 2.0.0 OK ..."), or where the .eml file was written. */
  answer: string;
  messageId: string;
}

/** Sends one message now: over SMTP, or into DATA_DIR/outbox. Throws when the server refuses it or cannot be reached. */
export interface MailTransport {
  send(mail: OutgoingMail, id?: number): Promise<SentMail>;
  /** "smtp://host:587" (no credentials) or "the folder DATA_DIR/outbox", for logs. */
  readonly describe: string;
}

export const DEFAULT_MAIL_FROM = `${SITE_NAME} <no-reply@localhost>`;
export const DEFAULT_PUBLIC_URL = "http://localhost:3000";

/** The folder of .eml files when SMTP_URL is unset. */
export const outboxDir = (dataDir: string) => path.join(dataDir, "outbox");

// A dead or slow server fails the attempt within these (well inside the runner's lease), and it is retried later.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** A bare address (`no-reply@example.org`) becomes `Inkwell <no-reply@example.org>`. */
function fromWithSiteName(from: string): string {
  return from.includes("<") ? from : `${SITE_NAME} <${from.trim()}>`;
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return "smtp";
  }
}

const crlf = (text: string) => text.replace(/\r?\n/g, "\r\n");

/** Links of a message's plain-text part, for the log when messages go to files. */
export const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);

export function createMailTransport(settings: MailSettings, logger?: Logger): MailTransport {
  const from = fromWithSiteName(settings.mailFrom ?? DEFAULT_MAIL_FROM);
  const host = new URL(settings.publicUrl ?? DEFAULT_PUBLIC_URL).hostname;
  const smtp = settings.smtpUrl ? nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS }) : undefined;
  // The same RFC 5322 bytes an SMTP server would get, with CRLF line ends.
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });

  const message = (mail: OutgoingMail) => ({
    from,
    to: mail.to,
    subject: mail.subject,
    // Nodemailer leaves a part's own line ends as they are; RFC 5322 wants CRLF everywhere.
    text: crlf(mail.text),
    html: crlf(mail.html),
    messageId: `<${randomUUID()}@${host}>`,
    date: new Date(),
    headers: { "Auto-Submitted": "auto-generated", ...mail.headers },
  });

  return {
    describe: settings.smtpUrl ? withoutCredentials(settings.smtpUrl) : `the folder ${outboxDir(settings.dataDir)}`,
    async send(mail, id) {
      const m = message(mail);
      if (smtp) {
        const info = await smtp.sendMail(m);
        return { answer: info.response, messageId: m.messageId };
      }
      const info = await files.sendMail(m);
      const dir = outboxDir(settings.dataDir);
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${id ?? randomUUID()}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      logger?.info(
        { kind: mail.kind, to: mail.to, file, links: linksIn(mail.text) },
        "mail written to the outbox folder (SMTP_URL is unset)",
      );
      return { answer: `written to ${file}`, messageId: m.messageId };
    },
  };
}
