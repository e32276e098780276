import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import type { Caller } from "../http/auth.ts";
import type { Executor } from "../db/prepared.ts";
import { reportWrite } from "../db/write-report.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import {
  BLOCK_SELF_MESSAGE,
  blockLimitMessage,
  MAX_BLOCKS,
  MENTION_BLOCKER_MESSAGE,
  REPLY_TO_BLOCKER_MESSAGE,
  type BlockedUser,
  type BlockState,
} from "../rules/blocks.ts";
import type { Paging } from "../rules/paging.ts";
import type { Page } from "../rules/api-responses.ts";
import { blockedBy, createBlockQueries } from "./blocks.queries.ts";

/**
 * Whose blocks a list leaves out: the caller's id when they block anyone and did not ask for `includeBlocked=true`;
 * undefined (guests, and the usual caller without blocks) runs the list's plain query.
 */
export function hidingBlocksOf(caller: Pick<Caller, "id" | "blockCount"> | null, includeBlocked?: "true" | "false"): number | undefined {
  return caller && caller.blockCount > 0 && includeBlocked !== "true" ? caller.id : undefined;
}

/** A page that may have left out blocked authors' items: `hidden` says how many (the list services set it). */
export type PageHiding<T> = Page<T> & { hidden?: number };

/**
 * A list page as a caller who blocks someone gets it: always with `hidden` (0 when nothing was left out, as with
 * includeBlocked=true); guests and callers without blocks get the page without it.
 */
export function withHidden<T>(page: PageHiding<T>, caller: Pick<Caller, "blockCount"> | null): PageHiding<T> {
  if (!caller || caller.blockCount === 0) return page;
  return { ...page, hidden: page.hidden ?? 0 };
}

/**
 * A 403 when the author of the comment answered, or anyone mentioned, blocks the writer (docs/api.md "Blocks"); called
 * in the writing unit, so the refused write rolls back.
 */
export async function refuseBlockers(
  on: Executor,
  writerId: number,
  addressees: { answeredAuthorId?: number | null; mentionedIds: number[] },
): Promise<void> {
  const blocked = await blockedBy(on, writerId, addressees);
  if (blocked !== null) throw forbidden(blocked === "reply" ? REPLY_TO_BLOCKER_MESSAGE : MENTION_BLOCKER_MESSAGE);
}

/** Reports a unit that wrote nothing and answers `value`. */
const unchanged = <T>(value: T): T => {
  reportWrite(false);
  return value;
};

export function createBlockService(db: Database) {
  const q = createBlockQueries(db);

  async function target(callerId: number, userId: number) {
    if (userId === callerId) throw badRequest(BLOCK_SELF_MESSAGE, [{ field: "userId", message: BLOCK_SELF_MESSAGE }]);
    if (!(await q.userExists(userId))) throw notFound("User not found");
  }

  return {
    /** Idempotent; answers the new state. Admins and moderators may be blocked too: a block only hides. */
    async block(callerId: number, userId: number): Promise<BlockState> {
      await target(callerId, userId);
      // One unit: the block and User.blockCount move together; the blocker's row is locked first.
      const blockCount = await db.kysely.transaction().execute(async (trx): Promise<number | "full"> => {
        const before = await q.lockBlocker(trx, callerId);
        // A repeated block or unblock changes nothing: the data version may stay (server/db/write-report.ts).
        if (await q.blocks(callerId, userId, trx)) return unchanged(before);
        if (before >= MAX_BLOCKS) return "full";
        if (!(await q.insert(trx, callerId, userId, nowMs()))) return unchanged(before);
        reportWrite(true);
        return q.moveCount(trx, callerId, 1);
      });
      if (blockCount === "full") throw badRequest(blockLimitMessage);
      return { userId, blocked: true, blockCount };
    },

    /** Idempotent; answers the new state. */
    async unblock(callerId: number, userId: number): Promise<BlockState> {
      await target(callerId, userId);
      const blockCount = await db.kysely.transaction().execute(async (trx) => {
        const before = await q.lockBlocker(trx, callerId);
        if (!(await q.remove(trx, callerId, userId))) return unchanged(before);
        reportWrite(true);
        return q.moveCount(trx, callerId, -1);
      });
      return { userId, blocked: false, blockCount };
    },

    /** Whether the caller blocks the user (the profile's Block/Unblock button). */
    async state(callerId: number, userId: number): Promise<BlockState> {
      if (!(await q.userExists(userId))) throw notFound("User not found");
      return { userId, blocked: await q.blocks(callerId, userId), blockCount: await q.count(callerId) };
    },

    /** The users the caller blocks, newest block first. */
    async list(callerId: number, paging: Paging): Promise<Page<BlockedUser>> {
      const total = await q.count(callerId);
      const offset = offsetOf(paging);
      const rows = offset < total ? await q.page(callerId, paging.perPage, offset) : [];
      return pageOf(
        rows.map((r) => ({ id: r.id, username: r.username, profileImageId: r.profileImageId, blockedAt: toIso(Number(r.blockedAt)) })),
        total,
        paging,
      );
    },
  };
}
