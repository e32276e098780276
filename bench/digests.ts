// Digests for the crowd series' 100,000 followers while requests come in (docs/api.md "Digests"), on a throw-away copy
// of the large set. Before the site starts, the copy's followers of "Paper Moon Saga" get verified addresses and one
// unread chapter notification each, and the day's digest run is marked done (so the site's start makes none). With the
// site running, a cached API read and a signed-in page are measured without a digest run, then again while the job
// makes a run: the job is queued by writing its rows into the copy's database, as the site's runner would at 08:00 UTC.
import { CROWD_SERIES_NAME } from "../seed/scale-counts.ts";
import { sleep } from "./common.ts";
import { withDatabase } from "./mixed.ts";

export interface DigestData {
  series: string;
  /** Followers given a verified address and an unread chapter notification: the digests a run should make. */
  followers: number;
  /** The day (days since 1970-01-01) whose run the bench queues. */
  day: number;
}

export interface DigestRunResult {
  /** Which measurement the run went with ("api" or "page"). */
  during: string;
  mails: number;
  /** From queuing the job until the run's end (or the watch's, when not done). */
  seconds: number;
  done: boolean;
  /** Whether the run was still making mails when the measured load ended: the load ran wholly during it. */
  coveredLoad: boolean;
}

export interface DigestsSummary extends DigestData {
  runs: DigestRunResult[];
}

/** Readies the copy (the site not running): verified followers, one unread notification each, no run due at start. */
export async function prepareDigestData(dataDir: string, databaseUrl: string | undefined): Promise<DigestData> {
  const { digestDayAt } = await import("../server/jobs/digests.ts");
  const { migrateDatabase } = await import("../server/db/migrate.ts");
  const { sql } = await import("kysely");
  // A data set cached by an older version gains the newer tables first, as the site's start would give them.
  await migrateDatabase(dataDir, databaseUrl);
  return withDatabase(dataDir, databaseUrl, async ({ kysely }) => {
    const series = await kysely
      .selectFrom("Series")
      .select(["id", "authorId"])
      .where("name", "=", CROWD_SERIES_NAME)
      .executeTakeFirstOrThrow();
    const chapter = await kysely
      .selectFrom("Chapter")
      .select("id")
      .where("seriesId", "=", series.id)
      .orderBy("number", "desc")
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const day = digestDayAt(now);
    await kysely.transaction().execute(async (trx) => {
      const followers = sql`SELECT "userId" FROM "Follow" WHERE "seriesId" = ${series.id} AND "userId" <> ${series.authorId}`;
      await sql`UPDATE "User" SET "emailVerified" = 1, "unreadNotifications" = "unreadNotifications" + 1 WHERE "id" IN (${followers})`.execute(
        trx,
      );
      await sql`INSERT INTO "Notification" ("userId", "kind", "actorId", "chapterId", "createdAt")
                SELECT "userId", 'chapter', ${series.authorId}, ${chapter.id}, ${now} FROM "Follow"
                WHERE "seriesId" = ${series.id} AND "userId" <> ${series.authorId}`.execute(trx);
      // Dated now: within the latest run's day (a first digest lists its last 24 hours). The day's run counts as made: the site's runner makes none at its start.
      await sql`INSERT INTO "DigestRun" ("day", "startedAt", "finishedAt", "mails") VALUES (${day}, ${now}, ${now}, 0)
                ON CONFLICT ("day") DO NOTHING`.execute(trx);
    });
    const counted = await kysely
      .selectFrom("Follow")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("seriesId", "=", series.id)
      .where("userId", "<>", series.authorId)
      .executeTakeFirstOrThrow();
    return { series: CROWD_SERIES_NAME, followers: Number(counted.n), day };
  });
}

/**
 * Queues the day's run again on the running site: the digests of the last run forgotten, its mail dropped, the run's
 * row reset and its "digests" job added. The site's runner claims it at its next poll (2 s).
 */
export async function queueDigestRun(dataDir: string, databaseUrl: string | undefined, day: number): Promise<number> {
  const { sql } = await import("kysely");
  return withDatabase(dataDir, databaseUrl, async ({ kysely }) => {
    const now = Date.now();
    await kysely.transaction().execute(async (trx) => {
      await sql`DELETE FROM "NotificationDigest"`.execute(trx);
      await sql`DELETE FROM "OutgoingMail" WHERE "kind" LIKE 'digest-%'`.execute(trx);
      await sql`UPDATE "DigestRun" SET "startedAt" = ${now}, "finishedAt" = NULL, "mails" = 0 WHERE "day" = ${day}`.execute(trx);
      await sql`INSERT INTO "Job" ("kind", "subjectId", "cursor", "runAfter", "createdAt") VALUES ('digests', ${day}, 0, ${now}, ${now})`.execute(
        trx,
      );
    });
    return now;
  });
}

/**
 * Watches the run until it ends (or `budgetMs`), then drops its queued mail (sending 100,000 messages is the mail
 * server's work, not the digests'; the site's runner starts on it at once).
 */
export async function watchDigestRun(
  dataDir: string,
  databaseUrl: string | undefined,
  day: number,
  queuedAt: number,
  budgetMs: number,
): Promise<{ mails: number; seconds: number; done: boolean; finishedAt: number | null }> {
  const { sql } = await import("kysely");
  return withDatabase(dataDir, databaseUrl, async ({ kysely }) => {
    const deadline = performance.now() + budgetMs;
    for (;;) {
      const run = await kysely.selectFrom("DigestRun").select(["mails", "finishedAt"]).where("day", "=", day).executeTakeFirstOrThrow();
      const finishedAt = run.finishedAt === null ? null : Number(run.finishedAt);
      if (finishedAt !== null || performance.now() >= deadline) {
        await sql`DELETE FROM "OutgoingMail" WHERE "kind" LIKE 'digest-%'`.execute(kysely);
        return {
          mails: Number(run.mails),
          seconds: ((finishedAt ?? Date.now()) - queuedAt) / 1000,
          done: finishedAt !== null,
          finishedAt,
        };
      }
      await sleep(100);
    }
  });
}
