import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { JobTable } from "../db/schema.ts";

export type JobKind = JobTable["kind"];

export interface ClaimedJob {
  id: number;
  kind: JobKind;
  subjectId: number;
}

/** Adds a job on the caller's transaction (so it exists exactly when what asked for it does), due at once. */
export async function enqueueJob(on: Executor, kind: JobKind, subjectId: number, now: number): Promise<void> {
  await on.insertInto("Job").values({ kind, subjectId, runAfter: now, createdAt: now }).execute();
}

/** The jobs table: finding and claiming due jobs, and the statements of their batches. docs/decisions/017-discussion.md. */
export function createJobQueries({ kysely }: Database) {
  const q = {
    nextDue: prepare<{ now: number }, { id: number }>(
      kysely,
      (p) => sql`SELECT "id" FROM "Job" WHERE "runAfter" <= ${p("now")} ORDER BY "runAfter", "id" LIMIT 1`,
    ),
    // Atomic on both engines: of two instances claiming one job, the second finds its lease already moved.
    claim: prepare<{ id: number; now: number; until: number }, ClaimedJob>(
      kysely,
      (p) => sql`UPDATE "Job" SET "runAfter" = ${p("until")} WHERE "id" = ${p("id")} AND "runAfter" <= ${p("now")}
                 RETURNING "id", "kind", "subjectId"`,
    ),
    setRunAfter: prepare<{ id: number; at: number }>(kysely, (p) => sql`UPDATE "Job" SET "runAfter" = ${p("at")} WHERE "id" = ${p("id")}`),
    // First in a batch: locks the job's row (another runner's batch of the same job waits, then reads the cursor it
    // left) and renews the lease. No row: another runner finished the job.
    lockJob: prepare<{ id: number; until: number }, { cursor: number; subjectId: number }>(
      kysely,
      (p) => sql`UPDATE "Job" SET "runAfter" = ${p("until")} WHERE "id" = ${p("id")} RETURNING "cursor", "subjectId"`,
    ),
    setCursor: prepare<{ id: number; cursor: number }>(
      kysely,
      (p) => sql`UPDATE "Job" SET "cursor" = ${p("cursor")} WHERE "id" = ${p("id")}`,
    ),
    remove: prepare<{ id: number }>(kysely, (p) => sql`DELETE FROM "Job" WHERE "id" = ${p("id")}`),
    chapter: prepare<{ id: number }, { seriesId: number; date: number; authorId: number }>(
      kysely,
      (p) => sql`SELECT "seriesId", "date", "authorId" FROM "Chapter" WHERE "id" = ${p("id")}`,
    ),
    // The series' followers in id order after the cursor (index Follow(seriesId, userId)), those who followed by the chapter's date.
    followers: prepare<{ seriesId: number; after: number; date: number; limit: number }, { userId: number }>(
      kysely,
      (
        p,
      ) => sql`SELECT "userId" FROM "Follow" WHERE "seriesId" = ${p("seriesId")} AND "userId" > ${p("after")} AND "createdAt" <= ${p("date")}
                 ORDER BY "userId" LIMIT ${p("limit")}`,
    ),
  };

  return {
    /** Claims the oldest due job for `leaseMs`; undefined when none is due. */
    async claimNext(now: number, leaseMs: number): Promise<ClaimedJob | undefined> {
      for (;;) {
        const due = await q.nextDue.first({ now });
        if (!due) return undefined;
        const claimed = await q.claim.first({ id: due.id, now, until: now + leaseMs });
        if (claimed) return claimed;
        // Another instance claimed it between the two statements: look again.
      }
    },

    /** Lets the job be claimed again at `at` (a failed batch's retry, or a stopping runner's job handed on). */
    release: (id: number, at: number) => q.setRunAfter.run({ id, at }),

    /** A finished job goes (`on`: in a transaction, with its last batch). */
    remove: (id: number, on: Executor = kysely) => q.remove.run({ id }, on),

    /** The statements of a chapter's notification batch (chapter-notifications.ts), on its transaction. */
    lockJob: (trx: Executor, id: number, until: number) => q.lockJob.first({ id, until }, trx),
    chapter: (trx: Executor, id: number) => q.chapter.first({ id }, trx),
    followers: (trx: Executor, seriesId: number, after: number, date: number, limit: number) =>
      q.followers.all({ seriesId, after, date, limit }, trx),
    setCursor: (trx: Executor, id: number, cursor: number) => q.setCursor.run({ id, cursor }, trx),
  };
}

export type JobQueries = ReturnType<typeof createJobQueries>;
