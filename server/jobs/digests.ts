// Daily and weekly notification digests (docs/api.md "Digests"): each day at DIGEST_HOUR_UTC one instance makes the
// day's run (a DigestRun row and a "digests" job, exactly once); the job walks the accounts by id in batches, each batch
// one transaction: one query finds who gets what, the mails are queued, and each (account, kind) mailed remembers the
// newest notification it listed.
import type { Database } from "../db/database.ts";
import type { NotificationKind } from "../db/schema.ts";
import { DIGEST_LIST_CAP, digestMail, type DigestMailSettings } from "../mail/digest-mail.ts";
import { enqueueMails, type OutgoingMail } from "../mail/outbox.ts";
import { createDigestQueries, type DigestItemRow } from "./digests.queries.ts";
import type { JobQueries } from "./jobs.queries.ts";

/** The hour (UTC) of each day's run; the weekly digests go with Monday's. */
export const DIGEST_HOUR_UTC = 8;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The day (days since 1970-01-01) of the latest run due at `now`. */
export const digestDayAt = (now: number) => Math.floor((now - DIGEST_HOUR_UTC * HOUR_MS) / DAY_MS);
/** When a day's run is due. */
export const digestRunTime = (day: number) => day * DAY_MS + DIGEST_HOUR_UTC * HOUR_MS;
/** Monday's run makes the weekly digests too (1970-01-01, day 0, was a Thursday). */
export const isWeeklyDigestDay = (day: number) => (day + 3) % 7 === 0;

/** The mails of a batch's rows: one per (account, kind), its rows in order (newest first). */
function mailsOf(rows: DigestItemRow[], settings: DigestMailSettings) {
  const groups = new Map<string, DigestItemRow[]>();
  for (const row of rows) {
    const key = `${row.userId}:${row.kind}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const mails: OutgoingMail[] = [];
  const sent: { userId: number; kind: NotificationKind; lastNotificationId: number }[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    mails.push(digestMail(group, first.setting, settings));
    sent.push({ userId: first.userId, kind: first.kind, lastNotificationId: Number(first.lastId) });
  }
  return { mails, sent };
}

/** The "digests" job's work and the daily scheduling of its runs. */
export function createDigests(db: Database, jobs: JobQueries, settings: DigestMailSettings) {
  const digests = createDigestQueries(db);
  return {
    /** Makes the run due at `now` if no instance made it yet: whether this call made it (then a job waits). */
    scheduleDue: (now: number): Promise<boolean> => db.kysely.transaction().execute((trx) => digests.startRun(trx, digestDayAt(now), now)),

    /**
     * One batch, one transaction: the next `batchSize` accounts after the cursor; the digests of those who have
     * something get queued, and the cursor moves past the batch. The last batch finishes the run and deletes the job.
     * Answers whether the job is finished.
     */
    runBatch: (jobId: number, batchSize: number, leaseUntil: number, now: number): Promise<boolean> =>
      db.kysely.transaction().execute(async (trx) => {
        const job = await jobs.lockJob(trx, jobId, leaseUntil);
        if (!job) return true;
        const day = job.subjectId;
        const runAt = digestRunTime(day);
        const weekly = isWeeklyDigestDay(day);
        const { last, count } = await digests.batchEnd(trx, job.cursor, batchSize);
        if (count > 0) {
          const rows = await digests.items(trx, {
            after: job.cursor,
            last,
            now,
            weekly: weekly ? 1 : 0,
            dayAgo: runAt - DAY_MS,
            weekAgo: runAt - 7 * DAY_MS,
            cap: DIGEST_LIST_CAP,
          });
          const { mails, sent } = mailsOf(rows, settings);
          await enqueueMails(trx, mails);
          await digests.recordSent(
            trx,
            sent.map((s) => ({ ...s, sentAt: now })),
          );
          if (mails.length > 0) await digests.countMails(trx, day, mails.length);
        }
        if (count < batchSize) {
          await digests.finishRun(trx, day, now);
          await jobs.remove(jobId, trx);
          return true;
        }
        await jobs.setCursor(trx, jobId, last);
        return false;
      }),
  };
}

export type Digests = ReturnType<typeof createDigests>;
