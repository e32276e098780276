import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { checkApiSettings, loadConfig } from "../../server/config.ts";
import { createJobRunner, wakeJobRunners } from "../../server/jobs/job-runner.ts";
import { mailBody } from "../../server/mail/layout.ts";
import { enqueueMail, type OutgoingMail } from "../../server/mail/outbox.ts";
import { createMailTransport } from "../../server/mail/transport.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { outboxMessages, startSmtpServer, type TestSmtpServer } from "../helpers/mail.ts";
import { freePort } from "../services/ports.ts";
import { promisify } from "node:util";

// docs/api.md "Mail": the outbox, sent by the job runner after commit, over real SMTP or into DATA_DIR/outbox.
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function apiWith(smtpUrl: string | undefined, jobs: { mailRetryMs?: number; mailMaxAttempts?: number } = {}): Promise<TestApi> {
  const api = await startTestApi(
    { smtpUrl, publicUrl: "https://comics.example.org", mailFrom: "no-reply@comics.example.org" },
    { jobs: { pollMs: 50, ...jobs } },
  );
  cleanup.push(() => api.close());
  return api;
}

async function smtp(port?: number): Promise<TestSmtpServer> {
  const server = await startSmtpServer(port);
  cleanup.push(() => server.close());
  return server;
}

const message = (to: string, subject: string, extra: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to,
  subject,
  kind: "test",
  ...mailBody({
    greeting: "Hello <reader> & co,",
    paragraphs: ["A line with <b>markup</b> that must stay text."],
    action: { label: "Open it", url: "https://comics.example.org/somewhere?a=1&b=2" },
    footer: "Small print.",
  }),
  ...extra,
});

async function queue(api: TestApi, mail: OutgoingMail) {
  await enqueueMail(api.db.kysely, mail);
  wakeJobRunners(api.db);
}

const queued = (api: TestApi) => api.db.kysely.selectFrom("OutgoingMail").select(["id", "kind", "attempts"]).execute();

describe("sending over SMTP", () => {
  it("delivers both parts with the site's name, Message-ID, Date, Auto-Submitted and extra headers, then forgets the message", async () => {
    const server = await smtp();
    const api = await apiWith(server.url);

    await queue(
      api,
      message("reader@example.net", "Hello from the outbox", { headers: { "List-Unsubscribe": "<https://comics.example.org/u/1>" } }),
    );

    await expect.poll(() => server.messages.length).toBe(1);
    const mail = server.messages[0]!;
    expect(mail.subject).toBe("Hello from the outbox");
    expect(mail.from?.value[0]).toEqual({ name: "Inkwell", address: "no-reply@comics.example.org" });
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe("reader@example.net");
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@comics\.example\.org>$/);
    expect(Math.abs(mail.date!.getTime() - Date.now())).toBeLessThan(5 * 60_000);
    expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
    expect(mail.raw).toMatch(/^List-Unsubscribe: <https:\/\/comics\.example\.org\/u\/1>\r$/m);
    // multipart/alternative: plain text and HTML, the HTML escaped.
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.text).toContain("Hello <reader> & co,");
    expect(mail.text).toContain("Open it:\nhttps://comics.example.org/somewhere?a=1&b=2");
    expect(mail.html).toContain("Hello &lt;reader&gt; &amp; co,");
    expect(mail.html).toContain("&lt;b&gt;markup&lt;/b&gt;");
    expect(mail.html).toContain('href="https://comics.example.org/somewhere?a=1&amp;b=2"');
    await expect.poll(async () => (await queued(api)).length).toBe(0);
  });

  it("answers a reset request at once while the server hangs, retries a refused message with backoff, and delivers it once the server is up", async () => {
    // A server that takes the connection and never greets: the runner waits on it, the request does not.
    const held: net.Socket[] = [];
    const hanging = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const slow = await apiWith(`smtp://127.0.0.1:${(hanging.address() as net.AddressInfo).port}`);
    // Before the app closes (cleanup runs last first): hung up on, the runner's attempt ends at once.
    cleanup.push(async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    });
    const owner = await slow.register("outbox_hanging");
    await enqueueMail(slow.db.kysely, message("first@example.net", "Held by the server"));
    wakeJobRunners(slow.db);
    await expect.poll(() => held.length).toBe(1);

    // The runner is held by the server; the request is answered anyway, its mail queued behind.
    const res = await slow.request.post("/auth/password-reset").send({ login: owner.username });
    expect(res.status).toBe(202);
    await expect.poll(async () => (await queued(slow)).filter((m) => m.kind === "password-reset")).toHaveLength(1);
    expect(held).toHaveLength(1);

    // Nothing listens on this port at first: each attempt is refused and counted.
    const port = await freePort();
    const api = await apiWith(`smtp://127.0.0.1:${port}`, { mailRetryMs: 100 });
    await queue(api, message("late@example.net", "Sent when the server is back"));
    await expect.poll(async () => (await queued(api))[0]?.attempts ?? 0).toBeGreaterThanOrEqual(2);

    const server = await smtp(port);
    await expect.poll(() => server.messages.map((m) => m.subject)).toEqual(["Sent when the server is back"]);
    await expect.poll(async () => (await queued(api)).length).toBe(0);
  });

  it("gives a message up after the last attempt", async () => {
    const api = await apiWith(`smtp://127.0.0.1:${await freePort()}`, { mailRetryMs: 20, mailMaxAttempts: 3 });
    await queue(api, message("never@example.net", "Never sent"));
    await expect.poll(async () => (await queued(api))[0]?.attempts ?? 0).toBe(2);
    await expect.poll(async () => (await queued(api)).length).toBe(0);
  });

  it("sends each message exactly once with several runners on one database", async () => {
    const server = await smtp();
    const api = await apiWith(server.url);
    const runners = [1, 2].map(() =>
      createJobRunner(api.db, { pollMs: 20, mail: createMailTransport({ smtpUrl: server.url, dataDir: api.dataDir }) }),
    );
    for (const runner of runners) {
      runner.start();
      cleanup.push(() => runner.stop());
    }
    const subjects = Array.from({ length: 30 }, (_, i) => `Message ${i}`);
    await api.db.kysely.transaction().execute(async (trx) => {
      for (const subject of subjects) await enqueueMail(trx, message("many@example.net", subject));
    });
    wakeJobRunners(api.db);

    await expect.poll(() => server.messages.length).toBe(30);
    await expect.poll(async () => (await queued(api)).length).toBe(0);
    expect(server.messages.map((m) => m.subject).sort()).toEqual([...subjects].sort());
  });
});

describe("without SMTP_URL", () => {
  it("writes the whole message to DATA_DIR/outbox as an .eml file", async () => {
    const api = await apiWith(undefined);
    await queue(api, message("nobody@example.net", "Into the folder"));

    await expect.poll(async () => (await outboxMessages(api.dataDir)).length).toBe(1);
    const [mail] = await outboxMessages(api.dataDir);
    expect(mail!.file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-\d+\.eml$/);
    expect(mail!.subject).toBe("Into the folder");
    expect(mail!.from?.value[0]).toEqual({ name: "Inkwell", address: "no-reply@comics.example.org" });
    expect(mail!.messageId).toMatch(/@comics\.example\.org>$/);
    expect(mail!.headers.get("auto-submitted")).toBe("auto-generated");
    expect(mail!.text).toContain("https://comics.example.org/somewhere?a=1&b=2");
    expect(mail!.html).toContain("Hello &lt;reader&gt;");
    // RFC 5322 line ends.
    const bytes = fs.readFileSync(path.join(api.dataDir, "outbox", mail!.file), "utf8");
    expect(bytes).toContain("\r\n");
    expect(bytes.replace(/\r\n/g, "")).not.toContain("\n");
    await expect.poll(async () => (await queued(api)).length).toBe(0);
  });

  it("logs the message's links at info", async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const dataDir = fs.mkdtempSync("/tmp/h3-outbox-");
    cleanup.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
    const transport = createMailTransport({ dataDir }, logger);

    const sent = await transport.send(message("someone@example.net", "Logged"));

    expect(sent.answer).toMatch(/^written to .*\.eml$/);
    const logged = lines.map((l) => JSON.parse(l) as { level: number; links?: string[]; to?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, to: "someone@example.net", links: ["https://comics.example.org/somewhere?a=1&b=2"] }),
    );
  });
});

describe("npm run admin -- test-email", () => {
  const admin = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ["scripts/admin.ts", "test-email", ...args], {
      // Only the command's own settings: no DATABASE_URL, SMTP_URL or DATA_DIR of the machine's.
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", ...env },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );

  it("sends one message now and prints what the server answered", async () => {
    const server = await smtp();
    const dataDir = fs.mkdtempSync("/tmp/h3-admin-");
    cleanup.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));

    const { code, out } = await admin(["admin@example.net", "--data-dir", dataDir], {
      SMTP_URL: server.url,
      MAIL_FROM: "Comics Site <mail@comics.example.org>",
    });

    expect(code, out).toBe(0);
    expect(out).toContain(`Sent to admin@example.net through ${server.url}.`);
    expect(out).toMatch(/The server answered: 250 /);
    expect(server.messages.map((m) => m.subject)).toEqual(["A test message from Inkwell"]);
    expect(server.messages[0]!.from?.value[0]).toEqual({ name: "Comics Site", address: "mail@comics.example.org" });
    // Not through the outbox: the database was never opened.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it("says why when the server cannot be reached, with exit code 1", async () => {
    const { code, out } = await admin(["admin@example.net"], {
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      DATA_DIR: "/tmp/h3-admin-none",
    });
    expect(code).toBe(1);
    expect(out).toMatch(/Not sent through smtp:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED/);
  });
});

describe("the mail settings", () => {
  const env: NodeJS.ProcessEnv = { NODE_ENV: "test", JWT_SECRET: "settings-test-secret-0123456789", DATA_DIR: "/tmp/h3-settings-unused" };

  it("default to the outbox folder, the site's name and the web app's own origin", () => {
    expect(loadConfig(env)).toMatchObject({
      smtpUrl: undefined,
      mailFrom: "Inkwell <no-reply@localhost>",
      publicUrl: "http://localhost:3000",
    });
    expect(loadConfig({ ...env, PORT: "4510" }).publicUrl).toBe("http://localhost:4510");
    expect(
      loadConfig({
        ...env,
        PUBLIC_URL: "https://comics.example.org/",
        SMTP_URL: "smtps://u:p@mail.example.org:465",
        MAIL_FROM: "Comics <m@comics.example.org>",
      }),
    ).toMatchObject({
      publicUrl: "https://comics.example.org",
      smtpUrl: "smtps://u:p@mail.example.org:465",
      mailFrom: "Comics <m@comics.example.org>",
    });
  });

  it("are checked at start with the others", () => {
    // Never with the value: it may hold the server's password.
    expect(checkApiSettings({ ...env, SMTP_URL: "http://user:hunter2@mail.example.org" })).toEqual([
      "SMTP_URL: must be an smtp:// or smtps:// URL",
    ]);
    expect(checkApiSettings({ ...env, SMTP_URL: "" })).toEqual([]);
  });
});
