import { pino, type Logger } from "pino";
import type { Database } from "../db/database.ts";
import { createChapterNotifications } from "./chapter-notifications.ts";
import { noNotificationMail, type NotificationMail } from "../notifications/notification-mail.ts";
import { createDigests, digestDayAt } from "./digests.ts";
import type { DigestMailSettings } from "../mail/digest-mail.ts";
import { createImageRelease } from "./image-release.ts";
import type { ImageStorage } from "../images/image-storage.ts";
import { createJobQueries, type ClaimedJob } from "./jobs.queries.ts";
import { createMailSender } from "../mail/mail-sender.ts";
import type { MailTransport } from "../mail/transport.ts";

export interface JobRunnerOptions {
  /** How often to look for jobs other instances enqueued (this instance's own wake it at once); default 2 s. */
  pollMs?: number;
  /** How long a claim (and each batch) holds a job before another instance may take it over; default 60 s. */
  leaseMs?: number;
  /** Followers told per transaction; default 500. */
  batchSize?: number;
  logger?: Logger;
  /** Where image bytes live: the "image-release" job deletes unused images' files there. */
  imageStorage?: ImageStorage;
  /** Called once a chapter's notifications are all made: the readers' unread counts changed. */
  onNotified?: () => Promise<void>;
  /** Where the outbox's messages go (server/mail/): without it, messages wait for an instance that has one. */
  mail?: MailTransport;
  /** The wait after a message's first failed attempt, doubled each time; default 1 minute. */
  mailRetryMs?: number;
  /** Attempts before a message is given up on; default 8. */
  mailMaxAttempts?: number;
  /** Queues the instant mail of the chapter notifications it makes (docs/api.md "Notification mail"); without it, none. */
  notificationMail?: NotificationMail;
  /** Where digest mails link to and how their unsubscribe links are signed: without it, "digests" jobs wait for an instance that has it. */
  digestMail?: DigestMailSettings;
  /** Accounts per digest batch (server/jobs/digests.ts); default 50. */
  digestBatchSize?: number;
  /** Makes each day's digest run when its hour comes (server/jobs/digests.ts); off unless set (server/main.ts sets it). */
  scheduleDigests?: boolean;
  /** The clock of the digest runs: which run is due, suspensions, the dates recorded (tests move it); default Date.now. */
  now?: () => number;
}

export interface JobRunner {
  start(): void;
  /** Looks for due jobs now (this instance just enqueued one). */
  wake(): void;
  /** Stops polling and waits for the batch in progress; a job left unfinished is handed on at once. */
  stop(): Promise<void>;
}

/** After each digest batch the runner waits this many times as long as the batch took. */
const DIGEST_PAUSE_FACTOR = 3;

// The runners of this process by database handle: publishing wakes the runner of its own instance.
const runnersOf = new WeakMap<Database, Set<JobRunner>>();

/** Wakes this instance's runner after a job was enqueued and committed on `db`. */
export function wakeJobRunners(db: Database): void {
  for (const runner of runnersOf.get(db) ?? []) runner.wake();
}

// Kysely's answer once the database was closed: a runner whose app was dropped without stopping it stops itself.
const isClosedDatabase = (err: unknown) =>
  err instanceof Error && /has already been destroyed|not open|after calling end/i.test(err.message);

/**
 * Work done after the request, by every API instance (docs/decisions/017-discussion.md): claims due jobs with a
 * lease and works through them in batches, one transaction each, yielding between them. Its timers are unref'd:
 * it never keeps a process alive.
 */
export function createJobRunner(db: Database, options: JobRunnerOptions = {}): JobRunner {
  const { pollMs = 2000, leaseMs = 60_000, batchSize = 500, digestBatchSize = 50, logger = pino({ level: "silent" }) } = options;
  const jobs = createJobQueries(db);
  const chapterNotifications = createChapterNotifications(db, jobs, options.notificationMail ?? noNotificationMail);
  const imageRelease = options.imageStorage ? createImageRelease(db, options.imageStorage) : undefined;
  const digests = options.digestMail ? createDigests(db, jobs, options.digestMail) : undefined;
  const clock = options.now ?? Date.now;
  /** The latest day whose run this instance knows exists: one write a day, not one a poll. */
  let scheduledDay = -1;
  const mailSender = options.mail
    ? createMailSender(db, options.mail, { leaseMs, retryMs: options.mailRetryMs, maxAttempts: options.mailMaxAttempts, logger })
    : undefined;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wokenWhileRunning = false;
  /** The job being worked on, handed on when the runner stops. */
  let current: ClaimedJob | undefined;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  const tick = () => {
    if (stopped) return;
    if (running) {
      wokenWhileRunning = true;
      return;
    }
    running = work()
      .catch((err: unknown) => {
        if (isClosedDatabase(err)) stopped = true;
        else logger.error({ err }, "job runner failed");
      })
      .finally(() => {
        running = undefined;
        const again = wokenWhileRunning;
        wokenWhileRunning = false;
        schedule(again ? 0 : pollMs);
      });
  };

  async function work() {
    if (options.scheduleDigests && digests && digestDayAt(clock()) > scheduledDay) {
      const day = digestDayAt(clock());
      await digests.scheduleDue(clock());
      scheduledDay = day;
    }
    while (!stopped) {
      // One message, then one job: a long job does not hold mail back, nor the other way round.
      const sentMail = (await mailSender?.sendNext()) ?? false;
      if (stopped) return;
      const job = await jobs.claimNext(Date.now(), leaseMs);
      if (!job) {
        if (sentMail) continue;
        return;
      }
      current = job;
      try {
        await runJob(job);
      } catch (err) {
        if (isClosedDatabase(err)) throw err;
        // The failed batch rolled back (its cursor too): the job is tried again after a poll.
        logger.warn({ err, jobId: job.id }, "job batch failed; retrying later");
        await jobs.release(job.id, Date.now() + pollMs);
      } finally {
        current = undefined;
      }
    }
  }

  async function runJob(job: ClaimedJob) {
    switch (job.kind) {
      case "chapter-notifications":
        while (!(await chapterNotifications.runBatch(job.id, batchSize, Date.now() + leaseMs))) {
          if (stopped) return;
          await new Promise((resolve) => setImmediate(resolve)); // let requests in between batches
        }
        await options.onNotified?.().catch((err: unknown) => logger.warn({ err }, "could not move the data version"));
        return;
      case "image-release":
        // Without a store (a runner made without one) the job waits for an instance that has it.
        if (!imageRelease) {
          await jobs.release(job.id, Date.now() + leaseMs);
          return;
        }
        while (!(await imageRelease.runBatch(batchSize))) {
          if (stopped) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
        await jobs.remove(job.id);
        return;
      case "digests":
        if (!digests) {
          await jobs.release(job.id, Date.now() + leaseMs);
          return;
        }
        for (;;) {
          const started = performance.now();
          if (await digests.runBatch(job.id, digestBatchSize, Date.now() + leaseMs, clock())) return;
          if (stopped) return;
          // A batch holds the event loop while it works (SQLite answers synchronously): waiting three times as long
          // as it took leaves requests at least three quarters of the process while digests are made.
          await new Promise((resolve) => setTimeout(resolve, (performance.now() - started) * DIGEST_PAUSE_FACTOR));
        }
    }
  }

  const runner: JobRunner = {
    start() {
      if (!stopped) return;
      stopped = false;
      if (!runnersOf.has(db)) runnersOf.set(db, new Set());
      runnersOf.get(db)!.add(runner);
      schedule(0);
    },
    wake() {
      if (!stopped) schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      runnersOf.get(db)?.delete(runner);
      const stopping = current;
      await running;
      // Unfinished: another instance (or the next start) takes it from its cursor without waiting for the lease.
      if (stopping) await jobs.release(stopping.id, Date.now()).catch(() => undefined);
    },
  };
  return runner;
}
