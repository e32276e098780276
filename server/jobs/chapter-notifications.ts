import type { Database } from "../db/database.ts";
import { insertNotifications } from "../notifications/notify.ts";
import type { NotificationMail } from "../notifications/notification-mail.ts";
import type { JobQueries } from "./jobs.queries.ts";

/** The "chapter-notifications" job's work (docs/decisions/017-discussion.md): a new chapter tells the series' followers. */
export function createChapterNotifications(db: Database, jobs: JobQueries, mail: NotificationMail) {
  return {
    /**
     * One batch, one unit: up to `batchSize` followers after the cursor get a `chapter` notification (dated the
     * chapter's date, from its author) with their unread counts, and the cursor moves past them; the last batch deletes
     * the job. Answers whether the job is finished.
     */
    runBatch: (jobId: number, batchSize: number, leaseUntil: number): Promise<boolean> =>
      db.kysely.transaction().execute(async (trx) => {
        const job = await jobs.lockJob(trx, jobId, leaseUntil);
        if (!job) return true;
        const chapter = await jobs.chapter(trx, job.subjectId);
        const followers = chapter ? await jobs.followers(trx, chapter.seriesId, job.cursor, chapter.date, batchSize) : [];
        await insertNotifications(
          trx,
          followers.map(({ userId }) => ({
            userId,
            kind: "chapter",
            actorId: chapter!.authorId,
            chapterId: job.subjectId,
            createdAt: chapter!.date,
          })),
          // The batch's instant mail: one query for its recipients and one multi-row insert (no per-follower work).
          mail,
        );
        if (followers.length < batchSize) {
          await jobs.remove(jobId, trx);
          return true;
        }
        await jobs.setCursor(trx, jobId, followers.at(-1)!.userId);
        return false;
      }),
  };
}
