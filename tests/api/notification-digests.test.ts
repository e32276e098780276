// Daily and weekly notification digests (docs/api.md "Digests"): made by the job runners at each day's run, one mail per
// (account, kind) whose setting is daily or weekly, listing the unread notifications since its last digest; exactly
// once with two runners on one database, in batches. The runners' clock is moved by the test (no sleeping).
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, stopJobRunner } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import type { NotificationKind } from "../../server/db/schema.ts";
import { digestDayAt, digestRunTime, isWeeklyDigestDay } from "../../server/jobs/digests.ts";
import type { JobRunner } from "../../server/jobs/job-runner.ts";
import { DIGEST_LIST_CAP } from "../../server/mail/digest-mail.ts";
import { readUnsubscribeToken, unsubscribeSecret } from "../../server/mail/unsubscribe.ts";
import type { EmailSetting } from "../../server/rules/email-preferences.ts";
import { testConfig } from "../helpers/api.ts";
import { outboxMessages, recipientOf } from "../helpers/mail.ts";
import { freshTestStore, type TestStore } from "../helpers/test-data-dir.ts";

const PUBLIC_URL = "https://ink.example";
const HOUR = 3_600_000;
/** More accounts with a digest than a batch holds (batches of 40): the walk goes on by its cursor. */
const CROWD = 130;

let store: TestStore;
let dbA: Database;
let dbB: Database;
let appA: ReturnType<typeof createApp>;
let appB: ReturnType<typeof createApp>;
let clock = 0;
const runnerOf = (app: ReturnType<typeof createApp>) => app.locals.jobRunner as JobRunner;
const config = () => testConfig(store.dataDir, { s3: store.s3, responseCacheEntries: 0, publicUrl: PUBLIC_URL });

// The days of the runs: two days that are not Mondays, then the Monday after them (the weekly digests).
const today = digestDayAt(Date.now());
let monday = today + 3;
while (!isWeeklyDigestDay(monday)) monday++;
const day1 = monday - 2;
const day2 = monday - 1;

let author: { id: number; auth: { Authorization: string } };
let series: { id: number; name: string };
let chapterId: number;
let chapterNumber: number;
const ids: Record<string, number> = {};

/** Accounts written straight into the table: verified unless told otherwise. */
async function insertUsers(names: string[], fields: { emailVerified?: number; suspendedUntil?: number } = {}): Promise<number[]> {
  const rows = names.map((name) => {
    const username = `${name}_${process.pid}`;
    return {
      username,
      usernameKey: username,
      email: `${username}@example.com`,
      emailKey: `${username}@example.com`,
      passwordHash: "x",
      joinedAt: Date.now(),
      emailVerified: fields.emailVerified ?? 1,
      suspendedUntil: fields.suspendedUntil ?? null,
    };
  });
  return (await dbA.kysely.insertInto("User").values(rows).returning("id").execute()).map((r) => r.id);
}

async function user(name: string, fields?: { emailVerified?: number; suspendedUntil?: number }) {
  ids[name] = (await insertUsers([name], fields))[0]!;
  return ids[name];
}

async function setting(userId: number, kind: NotificationKind, value: EmailSetting) {
  await dbA.kysely.insertInto("EmailPreference").values({ userId, kind, setting: value }).execute();
}

/** A notification of the chapter (kind "chapter") or of a follow of the series (kind "follow", from `actorId`). */
async function notify(userId: number, kind: "chapter" | "follow", createdAt: number, extra: { actorId?: number; readAt?: number } = {}) {
  const row = await dbA.kysely
    .insertInto("Notification")
    .values({
      userId,
      kind,
      actorId: extra.actorId ?? author.id,
      chapterId: kind === "chapter" ? chapterId : null,
      seriesId: kind === "follow" ? series.id : null,
      createdAt,
      readAt: extra.readAt ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const queued = () => dbA.kysely.selectFrom("OutgoingMail").selectAll().where("kind", "like", "digest-%").orderBy("id").execute();

/** Moves the runners' clock just past `day`'s run, wakes both, and waits until the run is finished. */
async function runDigests(day: number) {
  clock = digestRunTime(day) + 1000;
  runnerOf(appA).wake();
  runnerOf(appB).wake();
  await vi.waitFor(
    async () => {
      const run = await dbA.kysely.selectFrom("DigestRun").selectAll().where("day", "=", day).executeTakeFirst();
      expect(run?.finishedAt ?? null).not.toBeNull();
      expect(await dbA.kysely.selectFrom("Job").select("id").where("kind", "=", "digests").execute()).toEqual([]);
    },
    { timeout: 20_000, interval: 25 },
  );
}

beforeAll(async () => {
  store = await freshTestStore();
  dbA = await store.open();
  dbB = await store.open();
  clock = digestRunTime(day1 - 1) + 1000;
  // Leases of 0 ms and batches of 40: both runners claim the day's job again and again and take turns on its row.
  // No mail transport: the digests stay in the outbox table to be read (the last test sends them).
  const jobs = { pollMs: 600_000, leaseMs: 0, digestBatchSize: 40, scheduleDigests: true, now: () => clock, mail: undefined };
  appA = createApp({ db: dbA, config: config(), jobs });
  appB = createApp({ db: dbB, config: config(), jobs });
  // Their start made the run of the day before day1 (nobody has anything yet): wait for it to end.
  await vi.waitFor(
    async () =>
      expect((await dbA.kysely.selectFrom("DigestRun").select("finishedAt").executeTakeFirst())?.finishedAt ?? null).not.toBeNull(),
    { timeout: 20_000, interval: 25 },
  );

  const a = supertest.agent(appA);
  const reg = await a
    .post("/auth/register")
    .send({ username: `dg_author_${process.pid}`, email: `dg_author_${process.pid}@example.com`, password: "secret123" });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const auth = { Authorization: `Bearer ${reg.body.accessToken as string}` };
  author = { id: (await a.get(`/user/dg_author_${process.pid}`).set(auth)).body.id as number, auth };
  const created = await a
    .post("/series")
    .set(auth)
    .send({ name: `Digest Tales ${process.pid}`, description: "Chapters for digests" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  series = created.body as { id: number; name: string };
  const chapter = await dbA.kysely
    .insertInto("Chapter")
    .values({
      seriesId: series.id,
      authorId: author.id,
      number: 1,
      title: "The First Page",
      date: Date.now(),
      coverId: null,
      removedAt: null,
      removedReason: null,
      removedById: null,
    })
    .returning(["id", "number"])
    .executeTakeFirstOrThrow();
  chapterId = chapter.id;
  chapterNumber = chapter.number;
});

afterAll(async () => {
  if (appA) await stopJobRunner(appA);
  if (appB) await stopJobRunner(appB);
  await dbA?.close();
  await dbB?.close();
  await store?.remove();
});

describe("notification digests", () => {
  const run1 = () => digestRunTime(day1);

  it("a day's run mails each account its unread notifications of each daily kind, newest first, once, in batches", async () => {
    // alice: chapter is daily by default; three unread and one read.
    const alice = await user("alice");
    const older = await notify(alice, "chapter", run1() - 5 * HOUR);
    const newest = await notify(alice, "chapter", run1() - 1 * HOUR);
    const middle = await notify(alice, "chapter", run1() - 3 * HOUR);
    await notify(alice, "chapter", run1() - 2 * HOUR, { readAt: run1() - HOUR });
    // Nothing unread: no mail.
    await user("bob");
    await notify(ids.bob!, "chapter", run1() - HOUR, { readAt: run1() - HOUR / 2 });
    // Unverified, suspended: no mail.
    await notify(await user("carol", { emailVerified: 0 }), "chapter", run1() - HOUR);
    await notify(await user("dave", { suspendedUntil: run1() + 365 * 24 * HOUR }), "chapter", run1() - HOUR);
    // Chapter set off, instant, weekly: not in a daily digest.
    for (const [name, value] of [
      ["erin", "off"],
      ["frank", "instant"],
      ["henry", "weekly"],
    ] as const) {
      await setting(await user(name), "chapter", value);
      await notify(ids[name]!, "chapter", run1() - HOUR);
    }
    // gina chose daily follow digests; one follower is someone she blocks.
    const gina = await user("gina");
    await setting(gina, "follow", "daily");
    const [fan, pest, latecomer] = await insertUsers(["fan", "pest", "latecomer"]);
    await notify(gina, "follow", run1() - 2 * HOUR, { actorId: fan });
    await notify(gina, "follow", run1() - HOUR, { actorId: pest });
    await notify(gina, "follow", run1() - HOUR / 2, { actorId: latecomer });
    await dbA.kysely.insertInto("Block").values({ userId: gina, blockedId: pest!, createdAt: Date.now() }).execute();
    // A first digest lists its period only: ivy's notification of two days ago is not in it.
    await notify(await user("ivy"), "chapter", run1() - 48 * HOUR);
    // The crowd: one unread chapter notification each, more accounts than a batch.
    const crowd = await insertUsers(Array.from({ length: CROWD }, (_, i) => `crowd${i}`));
    for (const id of crowd) await notify(id, "chapter", run1() - HOUR);

    await runDigests(day1);

    const mails = await queued();
    const to = (id: number) => mails.filter((m) => m.userId === id);
    // Exactly one mail per (account, kind), whichever runner made it.
    expect(mails.map((m) => `${m.userId}:${m.kind}`).sort()).toEqual(
      [alice, ...crowd]
        .map((id) => `${id}:digest-chapter`)
        .concat([`${gina}:digest-follow`])
        .sort(),
    );
    for (const name of ["bob", "carol", "dave", "erin", "frank", "henry", "ivy"]) expect(to(ids[name]!), name).toEqual([]);
    const run = await dbA.kysely.selectFrom("DigestRun").selectAll().where("day", "=", day1).executeTakeFirstOrThrow();
    expect(run.mails).toBe(CROWD + 2);

    const [mail] = to(alice);
    expect(mail!.toAddress).toBe(`alice_${process.pid}@example.com`);
    expect(mail!.subject).toMatch(/daily/i);
    const chapterUrl = `${PUBLIC_URL}/series/${encodeURIComponent(series.name)}/${chapterNumber}`;
    // Newest first: the three unread ones, the read one left out.
    const listed = [...mail!.text.matchAll(/^- New chapter: (.+)\n {2}(\S+)$/gm)];
    expect(listed).toHaveLength(3);
    for (const m of listed) expect(m[2]).toBe(chapterUrl);
    expect(mail!.text).toContain("3 unread");
    expect(mail!.html).toContain(`href="${chapterUrl}"`);
    const headers = JSON.parse(mail!.headers!) as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(headers["List-Unsubscribe"]!)![1]!;
    expect(link.startsWith(`${PUBLIC_URL}/unsubscribe?token=`)).toBe(true);
    const token = decodeURIComponent(new URL(link).searchParams.get("token")!);
    expect(readUnsubscribeToken(unsubscribeSecret(config().jwtSecret), token)).toEqual({ userId: alice, kind: "chapter" });
    expect(mail!.text).toContain(link);
    // The last digest remembers the newest listed notification.
    expect(await dbA.kysely.selectFrom("NotificationDigest").selectAll().where("userId", "=", alice).execute()).toEqual([
      expect.objectContaining({ kind: "chapter", lastNotificationId: Math.max(older, newest, middle) }),
    ]);

    const [follows] = to(gina);
    // Newest first, each linking to the series; nothing from the blocked follower.
    expect([...follows!.text.matchAll(/^- (.+)\n {2}(\S+)$/gm)].map((m) => [m[1], m[2]])).toEqual([
      [`latecomer_${process.pid} followed your series ${series.name}`, `${PUBLIC_URL}/series/${encodeURIComponent(series.name)}`],
      [`fan_${process.pid} followed your series ${series.name}`, `${PUBLIC_URL}/series/${encodeURIComponent(series.name)}`],
    ]);
    expect(follows!.text).not.toContain(`pest_${process.pid}`);
  });

  it("the next day's digest lists only what came since the last one, and none goes when nothing did", async () => {
    const before = (await queued()).length;
    const alice = ids.alice!;
    const fresh = await notify(alice, "chapter", digestRunTime(day2) - HOUR);

    await runDigests(day2);

    const mails = (await queued()).slice(before);
    expect(mails.map((m) => m.userId)).toEqual([alice]);
    expect([...mails[0]!.text.matchAll(/^- New chapter: /gm)]).toHaveLength(1);
    expect(mails[0]!.text).toContain("1 unread");
    const digest = await dbA.kysely
      .selectFrom("NotificationDigest")
      .select("lastNotificationId")
      .where("userId", "=", alice)
      .executeTakeFirstOrThrow();
    expect(digest.lastNotificationId).toBe(fresh);
  });

  it("Monday's run makes the weekly digests too; a long list is capped with the count of the rest", async () => {
    const before = (await queued()).length;
    const henry = ids.henry!;
    // henry (weekly) had one unread at day1 (not mailed then) and gets more than a digest lists.
    for (let i = 0; i < DIGEST_LIST_CAP + 5; i++) await notify(henry, "chapter", digestRunTime(monday) - (i + 2) * HOUR);

    await runDigests(monday);

    const mails = (await queued()).slice(before).filter((m) => m.userId === henry);
    expect(mails).toHaveLength(1);
    const total = DIGEST_LIST_CAP + 6;
    expect(mails[0]!.subject).toMatch(/weekly/i);
    expect(mails[0]!.text).toContain(`${total} unread`);
    expect([...mails[0]!.text.matchAll(/^- New chapter: /gm)]).toHaveLength(DIGEST_LIST_CAP);
    expect(mails[0]!.text).toContain(`And ${total - DIGEST_LIST_CAP} more`);
    // Two runners, several polls: one run a day.
    expect((await dbA.kysely.selectFrom("DigestRun").select("day").orderBy("day").execute()).map((r) => r.day)).toEqual([
      day1 - 1,
      day1,
      day2,
      monday,
    ]);
  });

  it("the queued digests are sent as mail with the one-click unsubscribe headers", async () => {
    await stopJobRunner(appA);
    await stopJobRunner(appB);
    // An instance with the default transport (DATA_DIR/outbox, SMTP_URL unset) sends what is queued.
    const sender = createApp({ db: dbA, config: config(), jobs: { pollMs: 600_000 } });
    try {
      const address = `alice_${process.pid}@example.com`;
      await vi.waitFor(async () => expect(await dbA.kysely.selectFrom("OutgoingMail").select("id").execute()).toEqual([]), {
        timeout: 30_000,
        interval: 50,
      });
      const received = (await outboxMessages(store.dataDir)).filter((m) => recipientOf(m) === address);
      expect(received).toHaveLength(2);
      for (const m of received) {
        const header = (key: string) => m.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, " ");
        expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
        expect(header("list-unsubscribe")).toContain(`<${PUBLIC_URL}/unsubscribe?token=`);
        expect(m.text).toContain(`${PUBLIC_URL}/series/`);
      }
    } finally {
      await stopJobRunner(sender);
    }
  });
});
