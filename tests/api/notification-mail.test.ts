// Notification mail (docs/api.md "Notification mail"): the settings per kind, instant mail queued with the notification
// and sent by the job runner (to DATA_DIR/outbox here, over a real SMTP server in the last test), its RFC 8058 headers
// and the one-click unsubscribe they point at, and who gets none (off, unverified, suspended, blocked).
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_EMAIL_SETTINGS, INVALID_UNSUBSCRIBE_LINK } from "../../server/rules/email-preferences.ts";
import { unsubscribeSecret, unsubscribeToken } from "../../server/mail/unsubscribe.ts";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter, newPost } from "../helpers/comments.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, createPost } from "../helpers/fixtures.ts";
import { uploadPng } from "../helpers/images.ts";
import { outboxMessages, recipientOf, startSmtpServer, waitForOutboxMail } from "../helpers/mail.ts";

const ORIGIN = "https://inkwell.test";
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ publicUrl: `${ORIGIN}/` }, { jobs: { pollMs: 50 } });
});
afterAll(() => api.close());

let seq = 0;
/** A registered account whose address is verified (as its register link would do). */
async function verifiedUser(prefix = "nm"): Promise<TestUser> {
  const user = await api.register(`${prefix}_${process.pid}_${++seq}`);
  await api.db.kysely.updateTable("User").set({ emailVerified: 1 }).where("id", "=", user.id).execute();
  return user;
}
const getPrefs = (user: TestUser) => api.request.get("/me/email-preferences").set(user.auth);
const putPrefs = (user: TestUser, body: unknown) =>
  api.request
    .put("/me/email-preferences")
    .set(user.auth)
    .send(body as object);
const unsubscribe = (token: unknown) => api.request.post("/email-preferences/unsubscribe").send({ token });

/** Notification mail (the verification mail of register aside) to the address, once the runner wrote `count`. */
const notificationMail = (address: string, subject: string, count = 1) => waitForOutboxMail(api.dataDir, address, count, subject);

/**
 * Notification mail to the address queued or sent so far. Mail is queued in the notification's transaction, so once a
 * request answered, what it made is in the outbox table or already written out.
 */
async function mailQueuedOrSent(address: string): Promise<number> {
  const queued = await api.db.kysely
    .selectFrom("OutgoingMail")
    .select("id")
    .where("toAddress", "=", address)
    .where("kind", "like", "notification-%")
    .execute();
  const sent = (await outboxMessages(api.dataDir)).filter((m) => recipientOf(m) === address && isNotificationMail(m));
  return queued.length + sent.length;
}

/** Notification mail carries the one-click header (mailparser keeps List-* headers apart: read the raw message). */
const isNotificationMail = (mail: { raw: string }) => /^List-Unsubscribe-Post: /im.test(mail.raw);

/** The URL of a message's List-Unsubscribe header, as received. */
function listUnsubscribeUrl(mail: ParsedMail & { raw: string }): string {
  const unfolded = mail.raw.replace(/\r\n[ \t]+/g, " ");
  const match = /^List-Unsubscribe: <(https:[^>]+)>\r?$/im.exec(unfolded);
  if (!match) throw new Error(`no List-Unsubscribe in:\n${unfolded.slice(0, 2000)}`);
  return match[1]!;
}
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

describe("settings", () => {
  it("answers the defaults for an account that chose nothing", async () => {
    const user = await verifiedUser();
    const res = await getPrefs(user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reply: "instant", mention: "instant", comment: "off", chapter: "daily", follow: "off", join: "off" });
    expect(res.body).toEqual(DEFAULT_EMAIL_SETTINGS);
    expectError(await api.request.get("/me/email-preferences"), 401);
    expectError(await api.request.put("/me/email-preferences").send({ reply: "off" }), 401);
  });

  it("changes only the kinds sent, and stores only choices", async () => {
    const user = await verifiedUser();
    const res = await putPrefs(user, { reply: "weekly", follow: "instant" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ...DEFAULT_EMAIL_SETTINGS, reply: "weekly", follow: "instant" });
    expect((await putPrefs(user, { chapter: "off" })).body).toEqual({
      ...DEFAULT_EMAIL_SETTINGS,
      reply: "weekly",
      follow: "instant",
      chapter: "off",
    });
    expect((await putPrefs(user, {})).body).toEqual((await getPrefs(user)).body);
    const rows = await api.db.kysely
      .selectFrom("EmailPreference")
      .select(["kind", "setting"])
      .where("userId", "=", user.id)
      .orderBy("kind")
      .execute();
    expect(rows).toEqual([
      { kind: "chapter", setting: "off" },
      { kind: "follow", setting: "instant" },
      { kind: "reply", setting: "weekly" },
    ]);
  });

  it("refuses an unknown kind or setting with a field error, changing nothing", async () => {
    const user = await verifiedUser();
    expectFieldError(await putPrefs(user, { reply: "hourly" }), "reply", "Choose one of off, instant, daily, weekly");
    expectFieldError(await putPrefs(user, { likes: "off" }), "likes");
    expectFieldError(await putPrefs(user, { reply: "off", likes: "off" }), "likes");
    expectFieldError(await putPrefs(user, { mention: 1 }), "mention");
    expectError(await putPrefs(user, ["reply"]), 400);
    expect((await getPrefs(user)).body).toEqual(DEFAULT_EMAIL_SETTINGS);
  });
});

describe("instant mail", () => {
  it("mails a reply and a mention at once, with the one-click headers, and the one-click POST turns the kind off", async () => {
    const author = await verifiedUser("nm_author");
    const replier = await verifiedUser("nm_replier");
    const { post, path } = await newPost(api, author);
    const comment = await addComment(api, author, path, "First!");
    const reply = await addComment(api, replier, path, `Nice, @${author.username}`, comment.id);

    const subject = `${replier.username} replied to your comment on ${post.title}`;
    const [mail] = await notificationMail(author.email, subject);
    expect(mail!.text).toContain(`Hello ${author.username},`);
    expect(mail!.text).toContain(`${ORIGIN}${path}#comment-${reply.id}`);
    expect(mail!.html).toContain(`href="${ORIGIN}${path}#comment-${reply.id}"`);
    expect(mail!.text).toContain("Unsubscribe from reply emails:");
    expect(mail!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    const url = listUnsubscribeUrl(mail!);
    expect(url).toMatch(new RegExp(`^${ORIGIN}/unsubscribe\\?token=${author.id}\\.reply\\.[A-Za-z0-9_-]{43}$`));
    expect(mail!.html).toContain(`href="${url}"`);
    // One action tells a person once: the reply, not also the mention in it.
    expect(await mailQueuedOrSent(author.email)).toBe(1);

    // A mention in a post of another hub.
    const mentioner = await verifiedUser("nm_mentioner");
    const hub = await createHub(api, mentioner);
    const mentioning = await createPost(api, mentioner, hub.id, {
      title: "Thanks post",
      content: `Thanks to @${author.username} for this.`,
    });
    const [mention] = await notificationMail(author.email, `${mentioner.username} mentioned you in ${mentioning.title}`);
    expect(listUnsubscribeUrl(mention!)).toContain(`token=${author.id}.mention.`);

    // The mail client's one-click POST: the token of the header's URL, without sign-in.
    const res = await unsubscribe(tokenOf(url));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ kind: "reply", setting: "off" });
    expect((await getPrefs(author)).body).toMatchObject({ reply: "off", mention: "instant" });
    expect((await unsubscribe(tokenOf(url))).body).toEqual({ kind: "reply", setting: "off" });

    // Off: the next reply makes a notification and no mail.
    const before = await mailQueuedOrSent(author.email);
    await addComment(api, replier, path, "Another answer", comment.id);
    expect(await mailQueuedOrSent(author.email)).toBe(before);
  });

  it("refuses a tampered, foreign or malformed token (400 on token), changing nothing", async () => {
    const user = await verifiedUser();
    const good = unsubscribeToken(unsubscribeSecret(api.config.jwtSecret), user.id, "mention");
    const other = await verifiedUser();
    for (const token of [
      good.replace(`${user.id}.`, `${other.id}.`),
      good.replace(".mention.", ".reply."),
      unsubscribeToken(unsubscribeSecret("another-secret-that-is-long-enough"), user.id, "mention"),
      `${good.slice(0, -1)}${good.endsWith("A") ? "B" : "A"}`,
      "nonsense",
      "x".repeat(500),
    ]) {
      expectFieldError(await unsubscribe(token), "token", token.length > 200 ? undefined : INVALID_UNSUBSCRIBE_LINK);
    }
    expectFieldError(await unsubscribe(undefined), "token");
    expect((await getPrefs(user)).body).toEqual(DEFAULT_EMAIL_SETTINGS);
    expect((await getPrefs(other)).body).toEqual(DEFAULT_EMAIL_SETTINGS);
  });

  it("sends nothing to an unverified or suspended address, nor for a kind that is off", async () => {
    const replier = await verifiedUser();
    const unverified = await api.register(`nm_unverified_${process.pid}`);
    const suspended = await verifiedUser("nm_suspended");
    const off = await verifiedUser("nm_off");
    expect((await putPrefs(off, { reply: "off" })).status).toBe(200);
    const listening = await verifiedUser("nm_listening");
    for (const author of [unverified, suspended, off, listening]) {
      const { path } = await newPost(api, author);
      const comment = await addComment(api, author, path, "Mine");
      if (author === suspended)
        await api.db.kysely
          .updateTable("User")
          .set({ suspendedUntil: Date.now() + 3600_000 })
          .where("id", "=", suspended.id)
          .execute();
      await addComment(api, replier, path, "An answer", comment.id);
    }
    await notificationMail(listening.email, `${replier.username} replied to your comment on A valid title`);
    for (const user of [unverified, suspended, off]) expect(await mailQueuedOrSent(user.email), user.username).toBe(0);
    const told = await api.db.kysely
      .selectFrom("Notification")
      .select("userId")
      .where("kind", "=", "reply")
      .where("userId", "in", [unverified.id, suspended.id, off.id])
      .execute();
    expect(told).toHaveLength(3);
  });

  it("mails no follow from a user the owner blocks", async () => {
    const owner = await verifiedUser("nm_owner");
    expect((await putPrefs(owner, { follow: "instant" })).status).toBe(200);
    const { seriesPath } = await newChapter(api, owner);
    const series = (await api.request.get(seriesPath)).body as { id: number; name: string };
    const blocked = await verifiedUser("nm_blocked");
    const fan = await verifiedUser("nm_fan");
    expect((await api.request.put(`/me/blocks/${blocked.id}`).set(owner.auth)).status).toBe(200);
    for (const who of [blocked, fan])
      expect((await api.request.post(`/user/${who.id}/followed-series/${series.id}`).set(who.auth)).status).toBe(200);

    const [mail] = await notificationMail(owner.email, `${fan.username} followed your series ${series.name}`);
    expect(mail!.text).toContain(`${ORIGIN}/series/${encodeURIComponent(series.name)}`);
    expect(await mailQueuedOrSent(owner.email)).toBe(1);
  });

  it("mails a new chapter to followers whose chapter setting is instant, from the job's batch", async () => {
    const author = await verifiedUser("nm_artist");
    const { seriesPath } = await newChapter(api, author);
    const series = (await api.request.get(seriesPath)).body as { id: number; name: string };
    const eager = await verifiedUser("nm_eager");
    const patient = await verifiedUser("nm_patient");
    expect((await putPrefs(eager, { chapter: "instant" })).status).toBe(200);
    for (const who of [eager, patient])
      expect((await api.request.post(`/user/${who.id}/followed-series/${series.id}`).set(who.auth)).status).toBe(200);
    const page = await uploadPng(api, author);
    const res = await api.request
      .post(`${seriesPath}/chapters`)
      .set(author.auth)
      .send({ title: "The Fall", pages: [page] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const [mail] = await notificationMail(eager.email, `New chapter: ${series.name} – Chapter 2: The Fall`);
    expect(mail!.text).toContain(`${ORIGIN}${seriesPath}/2`);
    expect(listUnsubscribeUrl(mail!)).toContain(`token=${eager.id}.chapter.`);
    // The job has finished once the mail went: the patient follower (daily) was told, not mailed.
    await expect.poll(() => api.db.kysely.selectFrom("Job").select("id").execute()).toHaveLength(0);
    expect(
      await api.db.kysely.selectFrom("Notification").select("id").where("userId", "=", patient.id).where("kind", "=", "chapter").execute(),
    ).toHaveLength(1);
    expect(await mailQueuedOrSent(patient.email)).toBe(0);
  });
});

describe("the one-click unsubscribe's limits", () => {
  it("answers a deleted account's link alike, and refuses more than the hourly number per client address (429)", async () => {
    const limited = await startTestApi({ unsubscribesPerHour: 3 });
    try {
      const user = await limited.register(`nm_limit_${process.pid}`);
      const token = unsubscribeToken(unsubscribeSecret(limited.config.jwtSecret), user.id, "reply");
      const send = () => limited.request.post("/email-preferences/unsubscribe").send({ token });
      expect((await send()).body).toEqual({ kind: "reply", setting: "off" });
      const deleted = await limited.request.delete(`/user/${user.id}`).set(user.auth).send({ password: user.password });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect((await send()).body).toEqual({ kind: "reply", setting: "off" });
      expect(await limited.db.kysely.selectFrom("EmailPreference").select("kind").where("userId", "=", user.id).execute()).toEqual([]);
      expect((await send()).status).toBe(200);
      const refused = await send();
      expectError(refused, 429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe("over a real SMTP server", () => {
  it("delivers the reply mail with List-Unsubscribe and List-Unsubscribe-Post, and its URL's token unsubscribes", async () => {
    const server = await startSmtpServer();
    const smtpApi = await startTestApi({ publicUrl: ORIGIN, smtpUrl: server.url }, { jobs: { pollMs: 50 } });
    try {
      const author = await smtpApi.register(`nm_smtp_${process.pid}`);
      const replier = await smtpApi.register(`nm_smtp_r_${process.pid}`);
      await smtpApi.db.kysely.updateTable("User").set({ emailVerified: 1 }).where("id", "=", author.id).execute();
      const { path } = await newPost(smtpApi, author);
      const comment = await addComment(smtpApi, author, path, "First!");
      await addComment(smtpApi, replier, path, "Answer", comment.id);

      await expect.poll(() => server.messages.filter((m) => isNotificationMail(m)).length).toBe(1);
      const mail = server.messages.find((m) => isNotificationMail(m))!;
      expect(recipientOf(mail)).toBe(author.email);
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
      const url = listUnsubscribeUrl(mail);
      expect(url.startsWith(`${ORIGIN}/unsubscribe?token=${author.id}.reply.`)).toBe(true);

      const res = await smtpApi.request.post("/email-preferences/unsubscribe").send({ token: tokenOf(url) });
      expect(res.body).toEqual({ kind: "reply", setting: "off" });
      expect((await smtpApi.request.get("/me/email-preferences").set(author.auth)).body).toMatchObject({ reply: "off" });
    } finally {
      await smtpApi.close();
      await server.close();
    }
  });
});
