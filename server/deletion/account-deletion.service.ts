import type { Database } from "../db/database.ts";
import type { Executor } from "../db/prepared.ts";
import { nowMs } from "../db/dates.ts";
import type { Caller } from "../http/auth.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import type { ImageStorage } from "../images/image-storage.ts";
import { createCommentQueries } from "../comments/comments.queries.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { mayDeleteAccount } from "../rules/permissions.ts";
import type { Deleted } from "../rules/deletion.ts";
import { ACCOUNT_BATCH, createAccountDeletionQueries } from "./account-deletion.queries.ts";
import { createDeletionService } from "./deletion.service.ts";
import { createImageRelease } from "../jobs/image-release.ts";

/** What the deletion needs of the auth service: the password check (throttled) and ending every session. */
export interface AccountAuth {
  confirmPassword(caller: Caller, password: string, origin: { address: string }, field?: string): Promise<void>;
  endAllSessions(userId: number): Promise<void>;
}

const pause = () => new Promise((resolve) => setImmediate(resolve)); // other writers in between batches

/**
 * Deleting an account (docs/api.md "Deleting an account", decision 018): its series and the hubs only
 * it posts in go through the deletions of series and hubs, its other hubs pass to a successor, its posts go as
 * DELETE /hub-posts does, its comments as DELETE /comments does (a tombstone without an author where others
 * replied), then its links, the notifications it was sent, its images (files first, by the image-release work) and,
 * in one last transaction, the account row. Every step is a batch of its own transaction: a failure half way leaves
 * a consistent, partly emptied account that a second call finishes (the password still works until the end).
 */
export function createAccountDeletion(db: Database, storage: ImageStorage, auth: AccountAuth) {
  const account = createAccountDeletionQueries(db);
  const deletion = createDeletionService(db);
  const comments = createCommentQueries(db);
  const imageRelease = createImageRelease(db, storage);
  const inTransaction = <T>(work: (trx: Executor) => Promise<T>) => db.kysely.transaction().execute(work);

  async function deleteOwnContent(userId: number): Promise<void> {
    for (const seriesId of await account.seriesIds(userId)) await deletion.deleteOwned("series", seriesId);
    for (const hub of await account.hubs(userId)) {
      if (hub.shared === 1 && (await inTransaction((trx) => account.handOverHub(trx, userId, hub.id)))) continue;
      await deletion.deleteOwned("hub", hub.id);
    }
    for (;;) {
      const count = await inTransaction(async (trx) => {
        const ids = await account.postBatch(trx, userId);
        for (const id of ids) await deletion.deletePostWithin(trx, id);
        return ids.length;
      });
      if (count === 0) return;
      await pause();
    }
  }

  async function deleteComments(userId: number) {
    // By id, so a comment the unit leaves (none expected) is passed over, not read again forever.
    for (let after = 0; ;) {
      const batch = await account.commentBatch(userId, after);
      if (batch.length === 0) return;
      await inTransaction(async (trx) => {
        const at = nowMs();
        for (const c of batch) {
          const place =
            c.postId !== null ? { column: "postId" as const, id: c.postId } : { column: "chapterId" as const, id: c.chapterId! };
          await comments.removeWithin(trx, c.id, place, at);
        }
      });
      after = batch.at(-1)!.id;
      await pause();
    }
  }

  /** The user's images: released a batch at a time, their files and rows deleted by the image-release work. */
  async function deleteImages(userId: number) {
    while (await inTransaction((trx) => account.releaseImageBatch(trx, userId))) {
      while (!(await imageRelease.runBatch(ACCOUNT_BATCH.images))) await pause();
    }
  }

  return {
    async deleteAccount(id: number, password: string, caller: Caller, origin: { address: string }): Promise<Deleted> {
      if (!mayDeleteAccount(caller, { id })) throw forbidden("You can only delete your own account");
      await auth.confirmPassword(caller, password, origin, "password");
      // Every session ends first, so nothing of the account's is written while it goes.
      await auth.endAllSessions(id);

      await deleteOwnContent(id);
      await deleteComments(id);
      while ((await inTransaction((trx) => account.unlinkBatch(trx, id))) > 0) await pause();
      while ((await inTransaction((trx) => account.notificationBatch(trx, id))) > 0) await pause();
      // An image uploaded meanwhile (a session that began after the first step) is released on the next round.
      for (let round = 0; ; round++) {
        await deleteImages(id);
        const outcome = await inTransaction((trx) => account.deleteAccount(trx, id));
        if (outcome === "deleted") break;
        if (outcome === "gone") throw notFound("User not found");
        if (round === 2) throw conflict("The account is still changing; try again");
      }
      // The image-release jobs the batches enqueued (their work is mostly done here already) are picked up at once.
      wakeJobRunners(db);
      return { type: "user", id, deleted: true };
    },
  };
}
