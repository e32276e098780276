import { sql, type RawBuilder } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";

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
 * Whom the writer addresses who blocks them (docs/api.md "Blocks"): "reply" when the author of the comment answered
 * does, else "mention" when anyone mentioned does, else null. On the caller's transaction, in the writing unit, so a
 * refused write rolls back. One query.
 */
export async function blockedBy(
  on: Executor,
  writerId: number,
  addressees: { answeredAuthorId?: number | null; mentionedIds: number[] },
): Promise<"reply" | "mention" | null> {
  const answered = addressees.answeredAuthorId ?? null;
  const blockers = await blockersAmong(on, writerId, answered === null ? addressees.mentionedIds : [answered, ...addressees.mentionedIds]);
  if (blockers.size === 0) return null;
  return answered !== null && blockers.has(answered) ? "reply" : "mention";
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

/** Blocks (docs/api.md "Blocks", docs/decisions/018-governance.md): the rows, and the steps of the units that write them. */
export function createBlockQueries({ kysely }: Database) {
  const user = prepare<{ id: number }, { id: number }>(kysely, (p) => sql`SELECT "id" FROM "User" WHERE "id" = ${p("id")}`);
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

    blocks: async (userId: number, blockedId: number, on?: Executor) => (await exists.first({ userId, blockedId }, on)) !== undefined,

    /** First in both units: locks the blocker's row, so concurrent blocks by one user count (and meet the cap) one at a time. */
    lockBlocker: async (trx: Executor, userId: number) => Number((await lockBlocker.first({ id: userId }, trx))!.blockCount),

    /** Adds the block (nothing when it exists): whether a row was written. */
    insert: async (trx: Executor, userId: number, blockedId: number, now: number) =>
      (await insert.run({ userId, blockedId, now }, trx)) > 0,

    /** Removes the block: whether there was one. */
    remove: async (trx: Executor, userId: number, blockedId: number) => (await remove.run({ userId, blockedId }, trx)) > 0,

    /** Moves User.blockCount by `by`: the count after. */
    moveCount: async (trx: Executor, userId: number, by: number) => Number((await moveCount.first({ id: userId, by }, trx))!.blockCount),

    page: (userId: number, limit: number, offset: number) => page.all({ userId, limit, offset }),

    count: async (userId: number) => Number((await count.first({ id: userId }))?.blockCount ?? 0),
  };
}
