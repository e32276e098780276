import { sql, type RawBuilder } from "kysely";
import { reportWrite } from "../db/write-report.ts";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { forbidden } from "../http/errors.ts";
import { MENTION_BLOCKER_MESSAGE, REPLY_TO_BLOCKER_MESSAGE } from "../rules/blocks.ts";

export interface BlockedUserRow {
  id: number;
  username: string;
  profileImageId: number | null;
  blockedAt: number;
}

/**
 * `NOT EXISTS` a block by `viewerId` of the author in `authorColumn`: the filter a blocker's lists add (a primary-key
 * probe per row). An author of null (a tombstone) is never hidden.
 */
export const notBlockedBy = (viewerId: unknown, authorColumn: RawBuilder<unknown>) =>
  sql`NOT EXISTS (SELECT 1 FROM "Block" bl WHERE bl."userId" = ${viewerId} AND bl."blockedId" = ${authorColumn})`;

/**
 * Which of `userIds` block `actorId`, in one query over the primary key (userId, blockedId) and the `blockedId` index;
 * on the caller's transaction.
 */
export async function blockersAmong(on: Executor, actorId: number, userIds: number[]): Promise<Set<number>> {
  const ids = [...new Set(userIds)].filter((id) => id !== actorId);
  if (ids.length === 0) return new Set();
  const rows = await on.selectFrom("Block").select("userId").where("blockedId", "=", actorId).where("userId", "in", ids).execute();
  return new Set(rows.map((r) => r.userId));
}

/**
 * A 403 when the author of the comment answered, or anyone mentioned, blocks the writer (CONTRACT.md 13); called in
 * the writing unit, so the refused write rolls back. One query.
 */
export async function refuseBlockers(
  on: Executor,
  writerId: number,
  addressees: { answeredAuthorId?: number | null; mentionedIds: number[] },
): Promise<void> {
  const answered = addressees.answeredAuthorId ?? null;
  const blockers = await blockersAmong(on, writerId, answered === null ? addressees.mentionedIds : [answered, ...addressees.mentionedIds]);
  if (blockers.size === 0) return;
  throw forbidden(answered !== null && blockers.has(answered) ? REPLY_TO_BLOCKER_MESSAGE : MENTION_BLOCKER_MESSAGE);
}

/** The (recipient, actor) pairs among these where the recipient blocks the actor: one query for any number of actors. */
export async function blockedPairs(on: Executor, pairs: { userId: number; actorId: number }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await on
    .selectFrom("Block")
    .select(["userId", "blockedId"])
    .where("blockedId", "in", [...new Set(pairs.map((p) => p.actorId))])
    .where("userId", "in", [...new Set(pairs.map((p) => p.userId))])
    .execute();
  return new Set(rows.map((r) => pairKey(r.userId, r.blockedId)));
}

export const pairKey = (userId: number, actorId: number) => `${userId}:${actorId}`;

/** Blocks (CONTRACT.md 13, docs/decisions/018-governance.md): each block or unblock moves User.blockCount in its transaction. */
/** Reports a unit that wrote nothing and answers `value`. */
const unchanged = <T>(value: T): T => {
  reportWrite(false);
  return value;
};

export function createBlockQueries({ kysely }: Database) {
  const user = prepare<{ id: number }, { id: number }>(kysely, (p) => sql`SELECT "id" FROM "User" WHERE "id" = ${p("id")}`);
  // First in both units: locks the blocker's row, so concurrent blocks by one user count (and meet the cap) one at a time.
  const lockBlocker = prepare<{ id: number }, { blockCount: number }>(
    kysely,
    (p) => sql`UPDATE "User" SET "blockCount" = "blockCount" WHERE "id" = ${p("id")} RETURNING "blockCount"`,
  );
  const moveCount = prepare<{ id: number; by: number }, { blockCount: number }>(
    kysely,
    (p) => sql`UPDATE "User" SET "blockCount" = "blockCount" + ${p("by")} WHERE "id" = ${p("id")} RETURNING "blockCount"`,
  );
  const exists = prepare<{ userId: number; blockedId: number }, { userId: number }>(
    kysely,
    (p) => sql`SELECT "userId" FROM "Block" WHERE "userId" = ${p("userId")} AND "blockedId" = ${p("blockedId")}`,
  );
  const insert = prepare<{ userId: number; blockedId: number; now: number }>(
    kysely,
    (p) => sql`INSERT INTO "Block" ("userId", "blockedId", "createdAt") VALUES (${p("userId")}, ${p("blockedId")}, ${p("now")})
                 ON CONFLICT DO NOTHING`,
  );
  const remove = prepare<{ userId: number; blockedId: number }>(
    kysely,
    (p) => sql`DELETE FROM "Block" WHERE "userId" = ${p("userId")} AND "blockedId" = ${p("blockedId")}`,
  );
  // Newest first over the (userId, createdAt DESC, blockedId DESC) index.
  const page = prepare<{ userId: number; limit: number; offset: number }, BlockedUserRow>(
    kysely,
    (p) => sql`SELECT u."id", u."username", u."profileImageId", b."createdAt" AS "blockedAt"
                 FROM "Block" b JOIN "User" u ON u."id" = b."blockedId"
                 WHERE b."userId" = ${p("userId")}
                 ORDER BY b."createdAt" DESC, b."blockedId" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}`,
  );
  const count = prepare<{ id: number }, { blockCount: number }>(
    kysely,
    (p) => sql`SELECT "blockCount" FROM "User" WHERE "id" = ${p("id")}`,
  );

  return {
    userExists: async (id: number) => (await user.first({ id })) !== undefined,

    blocks: async (userId: number, blockedId: number) => (await exists.first({ userId, blockedId })) !== undefined,

    /** Adds the block and moves blockCount, in one unit; "full" when the blocker already has `max` blocks. Answers blockCount. */
    block: (userId: number, blockedId: number, now: number, max: number): Promise<number | "full"> =>
      kysely.transaction().execute(async (trx) => {
        const { blockCount } = (await lockBlocker.first({ id: userId }, trx))!;
        // A repeated block or unblock changes nothing: the data version may stay (server/db/write-report.ts).
        if (await exists.first({ userId, blockedId }, trx)) return unchanged(Number(blockCount));
        if (Number(blockCount) >= max) return "full";
        if ((await insert.run({ userId, blockedId, now }, trx)) === 0) return unchanged(Number(blockCount));
        reportWrite(true);
        return Number((await moveCount.first({ id: userId, by: 1 }, trx))!.blockCount);
      }),

    /** Removes the block and moves blockCount, in one unit; nothing when there was none. Answers blockCount. */
    unblock: (userId: number, blockedId: number): Promise<number> =>
      kysely.transaction().execute(async (trx) => {
        const { blockCount } = (await lockBlocker.first({ id: userId }, trx))!;
        if ((await remove.run({ userId, blockedId }, trx)) === 0) return unchanged(Number(blockCount));
        reportWrite(true);
        return Number((await moveCount.first({ id: userId, by: -1 }, trx))!.blockCount);
      }),

    page: (userId: number, limit: number, offset: number) => page.all({ userId, limit, offset }),

    count: async (userId: number) => Number((await count.first({ id: userId }))?.blockCount ?? 0),
  };
}
