import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import type { OutgoingMailTable } from "../db/schema.ts";

export type QueuedMail = Selectable<OutgoingMailTable>;

/** Adds a message on the caller's transaction, so it exists exactly when what caused it does. */
export async function insertOutgoingMail(on: Executor, row: Insertable<OutgoingMailTable>): Promise<void> {
  await on.insertInto("OutgoingMail").values(row).execute();
}

/** The outbox's statements: claiming due messages with a lease, as jobs are claimed (jobs.queries.ts). */
export function createOutboxQueries({ kysely }: Database) {
  const q = {
    nextDue: prepare<{ now: number }, { id: number }>(
      kysely,
      (p) => sql`SELECT "id" FROM "OutgoingMail" WHERE "runAfter" <= ${p("now")} ORDER BY "runAfter", "id" LIMIT 1`,
    ),
    // Atomic on both engines: of two instances claiming one message, the second finds its lease already moved.
    claim: prepare<{ id: number; now: number; until: number }, QueuedMail>(
      kysely,
      (p) => sql`UPDATE "OutgoingMail" SET "runAfter" = ${p("until")} WHERE "id" = ${p("id")} AND "runAfter" <= ${p("now")}
                 RETURNING "id", "kind", "userId", "toAddress", "subject", "text", "html", "headers", "attempts", "runAfter", "createdAt"`,
    ),
    retryAt: prepare<{ id: number; at: number }>(
      kysely,
      (p) => sql`UPDATE "OutgoingMail" SET "runAfter" = ${p("at")}, "attempts" = "attempts" + 1 WHERE "id" = ${p("id")}`,
    ),
    remove: prepare<{ id: number }>(kysely, (p) => sql`DELETE FROM "OutgoingMail" WHERE "id" = ${p("id")}`),
  };

  return {
    /** Claims the oldest due message for `leaseMs`; undefined when none is due. */
    async claimNext(now: number, leaseMs: number): Promise<QueuedMail | undefined> {
      for (;;) {
        const due = await q.nextDue.first({ now });
        if (!due) return undefined;
        const claimed = await q.claim.first({ id: due.id, now, until: now + leaseMs });
        if (claimed) return claimed;
        // Another instance claimed it between the two statements: look again.
      }
    },
    /** A failed attempt: counted, and the message waits until `at`. */
    retryAt: (id: number, at: number) => q.retryAt.run({ id, at }),
    /** Sent, or given up on: no message body is kept. */
    remove: (id: number) => q.remove.run({ id }),
  };
}
