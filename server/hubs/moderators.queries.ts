import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare, type Executor } from "../db/prepared.ts";

/** A moderator added to a hub (the creator is a moderator by being the hub's author, not by a row). */
export interface AddedModeratorRow {
  id: number;
  username: string;
  profileImageId: number | null;
  addedAt: number;
}

/** The hub as the moderator rules see it, with its creator's name and picture for the list. */
export interface ModeratedHubRow {
  id: number;
  authorId: number;
  authorName: string;
  authorImageId: number | null;
  createdAt: number;
}

export interface ModeratorChange {
  hubId: number;
  userId: number;
  username: string;
  actorId: number;
  now: number;
}

/** Hub moderators (docs/api.md §14, docs/decisions/018-governance.md): each change and its mod log entry are one write. */
export function createModeratorQueries({ kysely }: Database) {
  const hub = prepare<{ id: number }, ModeratedHubRow>(
    kysely,
    (p) => sql`SELECT h."id", h."authorId", u."username" AS "authorName", u."profileImageId" AS "authorImageId", h."createdAt"
                 FROM "Hub" h JOIN "User" u ON u."id" = h."authorId" WHERE h."id" = ${p("id")}`,
  );
  // Earliest first; the primary key (hubId, userId) reads one hub's rows.
  const added = prepare<{ hubId: number }, AddedModeratorRow>(
    kysely,
    (p) => sql`SELECT u."id", u."username", u."profileImageId", m."createdAt" AS "addedAt"
                 FROM "HubModerator" m JOIN "User" u ON u."id" = m."userId"
                 WHERE m."hubId" = ${p("hubId")} ORDER BY m."createdAt", m."userId"`,
  );
  const addedCount = prepare<{ hubId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT COUNT(*) AS "n" FROM "HubModerator" WHERE "hubId" = ${p("hubId")}`,
  );
  const user = prepare<{ id: number }, { id: number; username: string }>(kysely, (p) =>
    kysely.selectFrom("User").select(["id", "username"]).where("id", "=", p("id")),
  );
  const insert = prepare<{ hubId: number; userId: number; actorId: number; now: number }>(
    kysely,
    (p) => sql`INSERT INTO "HubModerator" ("hubId", "userId", "addedById", "createdAt")
                 VALUES (${p("hubId")}, ${p("userId")}, ${p("actorId")}, ${p("now")}) ON CONFLICT DO NOTHING`,
  );
  const remove = prepare<{ hubId: number; userId: number }>(
    kysely,
    (p) => sql`DELETE FROM "HubModerator" WHERE "hubId" = ${p("hubId")} AND "userId" = ${p("userId")}`,
  );
  const log = prepare<{ hubId: number; action: string; actorId: number; userId: number; username: string; now: number }>(
    kysely,
    (
      p,
    ) => sql`INSERT INTO "ModLogEntry" ("hubId", "action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason", "createdAt")
                 VALUES (${p("hubId")}, ${p("action")}, ${p("actorId")}, 'user', ${p("userId")}, ${p("username")}, '', ${p("now")})`,
  );

  return {
    hub: (id: number) => hub.first({ id }),
    added: (hubId: number) => added.all({ hubId }),
    user: (id: number) => user.first({ id }),

    /** How many moderators were added to the hub, read in the caller's transaction. */
    addedCount: async (trx: Executor, hubId: number) => Number((await addedCount.first({ hubId }, trx))!.n),
    /** Whether the user is one of the hub's added moderators. */
    isAdded: async (trx: Executor, hubId: number, userId: number) =>
      (await trx.selectFrom("HubModerator").select("userId").where("hubId", "=", hubId).where("userId", "=", userId).executeTakeFirst()) !==
      undefined,
    /** Adds the moderator and logs `moderator-added`, on the caller's transaction; false (nothing written) when they already are one. */
    add: async (trx: Executor, change: ModeratorChange): Promise<boolean> => {
      const added = (await insert.run(change, trx)) > 0;
      if (added) await log.run({ ...change, action: "moderator-added" }, trx);
      return added;
    },
    /** Removes the moderator and logs `moderator-removed`, on the caller's transaction; false (nothing written) when they were not one. */
    remove: async (trx: Executor, change: ModeratorChange): Promise<boolean> => {
      const removed = (await remove.run(change, trx)) > 0;
      if (removed) await log.run({ ...change, action: "moderator-removed" }, trx);
      return removed;
    },
  };
}
