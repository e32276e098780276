import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import type { Caller } from "../http/auth.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { BLOCK_SELF_MESSAGE, blockLimitMessage, MAX_BLOCKS, type BlockedUser, type BlockState } from "../rules/blocks.ts";
import type { Paging } from "../rules/paging.ts";
import type { Page } from "../rules/responses.ts";
import { createBlockQueries } from "./blocks.queries.ts";

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
      const blockCount = await q.block(callerId, userId, nowMs(), MAX_BLOCKS);
      if (blockCount === "full") throw badRequest(blockLimitMessage);
      return { userId, blocked: true, blockCount };
    },

    /** Idempotent; answers the new state. */
    async unblock(callerId: number, userId: number): Promise<BlockState> {
      await target(callerId, userId);
      return { userId, blocked: false, blockCount: await q.unblock(callerId, userId) };
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
