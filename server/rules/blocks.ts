// Blocks (docs/api.md "Blocks", docs/decisions/018-governance.md "Blocks"): the shapes, the query and the limits. Pure (no
// Node imports), so the web app's forms and client import them too.
import { z } from "zod";
import { pageSchema } from "./api-responses.ts";

/** Users one account may block: the lists' `NOT EXISTS` and the hidden counts stay one short index read per block. */
export const MAX_BLOCKS = 1000;

/**
 * `includeBlocked=true` on a list the caller reads: the blocked users' items are listed too (the web app's "show
 * them" link); absent or `false`, they are left out and counted in `hidden`.
 */
export const IncludeBlockedQuery = z.object({
  includeBlocked: z.enum(["true", "false"], { error: "includeBlocked must be true or false" }).optional(),
});

const hidden = z
  .number()
  .int()
  .nonnegative()
  .optional()
  .describe(
    "Only for a caller who blocks someone: how many items of the whole list are left out because their authors are blocked " +
      "(totalElements does not count them); 0 with includeBlocked=true",
  );

/** A list page that may leave out blocked authors' items. */
export function pageHidingBlocked<T extends z.ZodType>(item: T) {
  return pageSchema(item).extend({ hidden });
}

export const BlockedUser = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  profileImageId: z.number().int().positive().nullable(),
  blockedAt: z.iso.datetime(),
});
export type BlockedUser = z.infer<typeof BlockedUser>;

/** What a block or an unblock answers: the new state. */
export const BlockState = z.object({
  userId: z.number().int().positive(),
  blocked: z.boolean(),
  blockCount: z.number().int().nonnegative().describe("How many users the caller blocks now"),
});
export type BlockState = z.infer<typeof BlockState>;

export const blockLimitMessage = `You can block at most ${MAX_BLOCKS} users`;
export const BLOCK_SELF_MESSAGE = "You cannot block yourself";
export const REPLY_TO_BLOCKER_MESSAGE = "You cannot reply to this comment: its author has blocked you";
export const MENTION_BLOCKER_MESSAGE = "You cannot mention a user who has blocked you";
