// `npm run admin -- test-email <address>`: one message sent now, not through the outbox, with the site's mail settings
// (SMTP_URL, MAIL_FROM, PUBLIC_URL, DATA_DIR), and what the server answered.
import path from "node:path";
import { checkApiSettings, loadConfig } from "../../server/config.ts";
import { mailBody, SITE_NAME } from "../../server/mail/layout.ts";
import { createMailTransport } from "../../server/mail/transport.ts";
import { email as emailRule } from "../../server/rules/auth.ts";

export type TestEmailResult = { ok: true; lines: string[] } | { ok: false; message: string };

/** Sends the test message to `address`; what to print either way. Settings problems are reported, not thrown. */
export async function sendTestEmail(address: string | undefined, env: NodeJS.ProcessEnv, dataDir?: string): Promise<TestEmailResult> {
  if (!address) return { ok: false, message: "Say where to send it: npm run admin -- test-email <address>" };
  const parsed = emailRule.safeParse(address);
  if (!parsed.success) return { ok: false, message: `Not an email address: ${address}` };
  // The mail settings only: the command needs no JWT secret (and must not write the development one).
  const settingsEnv = {
    ...env,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    JWT_SECRET: env.JWT_SECRET || "test-email-needs-no-secret-0123456789",
  };
  const problems = checkApiSettings(settingsEnv);
  if (problems.length > 0) return { ok: false, message: `The settings need fixing first:\n${problems.map((p) => `  - ${p}`).join("\n")}` };
  const config = loadConfig(settingsEnv);
  const transport = createMailTransport({ ...config, dataDir: path.resolve(config.dataDir) });
  try {
    const sent = await transport.send({
      to: parsed.data,
      kind: "test-email",
      subject: `A test message from ${SITE_NAME}`,
      ...mailBody({
        paragraphs: [
          `This message was sent by "npm run admin -- test-email" to check ${SITE_NAME}'s mail settings. It reached you, so they work.`,
        ],
        action: { label: "The site", url: config.publicUrl },
      }),
    });
    return {
      ok: true,
      lines: [
        `Sent to ${parsed.data} through ${transport.describe}.`,
        config.smtpUrl ? `The server answered: ${sent.answer}` : `SMTP_URL is unset: the message was ${sent.answer}`,
        `Message-ID: ${sent.messageId}`,
      ],
    };
  } catch (err) {
    // Nodemailer's errors carry the server's own answer to a refused command.
    const answer = (err as { response?: string }).response;
    const why = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      message: `Not sent through ${transport.describe}: ${why}${answer && !why.includes(answer) ? `\nThe server answered: ${answer}` : ""}`,
    };
  }
}
