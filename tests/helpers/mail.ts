// Real mail in the tests (issue 30): an SMTP server speaking the protocol as real servers do (the `smtp-server`
// package, on a loopback port), messages parsed with `mailparser`; and the .eml files of DATA_DIR/outbox.
import fs from "node:fs";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { expect } from "vitest";
import { freePort } from "../services/ports.ts";

export interface TestSmtpServer {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string;
  port: number;
  /** Every message received so far, parsed, with the raw bytes. */
  messages: (ParsedMail & { raw: string })[];
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 (`port`: a given one, to bring a server "back up" where a dead one was). */
export async function startSmtpServer(port?: number): Promise<TestSmtpServer> {
  const messages: TestSmtpServer["messages"] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            messages.push(Object.assign(parsed, { raw }));
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  const chosen = port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(chosen, "127.0.0.1", () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${chosen}`,
    port: chosen,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The .eml files written to DATA_DIR/outbox (SMTP_URL unset), parsed, oldest first. */
export async function outboxMessages(dataDir: string): Promise<(ParsedMail & { raw: string; file: string })[]> {
  const dir = path.join(dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort();
  return Promise.all(
    files.map(async (f) => {
      const raw = fs.readFileSync(path.join(dir, f), "utf8");
      return Object.assign(await simpleParser(raw), { raw, file: f });
    }),
  );
}

/** The address a parsed message went to. */
export const recipientOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;

/** Waits until DATA_DIR/outbox holds `count` messages to `address` (with this subject), and answers them, oldest first. */
export async function waitForOutboxMail(dataDir: string, address: string, count = 1, subject?: string) {
  let found: Awaited<ReturnType<typeof outboxMessages>> = [];
  await expect
    .poll(async () => {
      found = (await outboxMessages(dataDir)).filter((m) => recipientOf(m) === address && (subject === undefined || m.subject === subject));
      return found.length;
    })
    .toBeGreaterThanOrEqual(count);
  return found;
}

/** The token of the reset link in a message's plain-text part. */
export function resetTokenIn(mail: ParsedMail): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? "");
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return decodeURIComponent(match[1]!);
}
