import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import { prepare, type Executor } from "../db/prepared.ts";
import { insertModLogEntry } from "./modlog.queries.ts";

/** A ban counts while it has no end or its end is later than now: read at check time, nothing runs when one ends. */
const ACTIVE = (now: unknown) => sql`(b."expiresAt" IS NULL OR b."expiresAt" > ${now})`;

type Check = { userId: number; now: number };

/**
 * Whether a user is banned from a hub now, as the writes a hub ban refuses ask it, each in the write's own
 * transaction: posting (by the hub), commenting and liking a post (by the post), liking a comment (by the comment's
 * post; comments on chapters are in no hub). One primary key lookup each. A ban committed while a write is in flight
 * may let that one write through. The refusal is the services' (moderation/write-guards.service.ts).
 */
export function createHubBanLookups({ kysely }: Database) {
  const byHub = prepare<Check & { hubId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT 1 AS "n" FROM "HubBan" b WHERE b."hubId" = ${p("hubId")} AND b."userId" = ${p("userId")} AND ${ACTIVE(p("now"))}`,
  );
  const byPost = prepare<Check & { postId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT 1 AS "n" FROM "Post" p JOIN "HubBan" b ON b."hubId" = p."hubId" AND b."userId" = ${p("userId")}
               WHERE p."id" = ${p("postId")} AND ${ACTIVE(p("now"))}`,
  );
  const byComment = prepare<Check & { commentId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT 1 AS "n" FROM "Comment" c JOIN "Post" p ON p."id" = c."postId"
                 JOIN "HubBan" b ON b."hubId" = p."hubId" AND b."userId" = ${p("userId")}
               WHERE c."id" = ${p("commentId")} AND ${ACTIVE(p("now"))}`,
  );
  return {
    inHub: async (on: Executor, hubId: number, userId: number) => (await byHub.first({ hubId, userId, now: nowMs() }, on)) !== undefined,
    onPost: async (on: Executor, postId: number, userId: number) =>
      (await byPost.first({ postId, userId, now: nowMs() }, on)) !== undefined,
    onComment: async (on: Executor, commentId: number, userId: number) =>
      (await byComment.first({ commentId, userId, now: nowMs() }, on)) !== undefined,
  };
}

/** What the ban rules need to know: the hub's creator, and whether the actor and the target moderate it. */
export interface BanFacts {
  authorId: number;
  actorIsModerator: number;
  targetIsModerator: number;
}

export interface BanRow {
  userId: number;
  username: string;
  profileImageId: number | null;
  reason: string;
  expiresAt: number | null;
  byId: number | null;
  byName: string | null;
  createdAt: number;
}

export interface BanChange {
  hubId: number;
  userId: number;
  /** Copied into the mod log entry's title. */
  username: string;
  actorId: number;
  reason: string;
  expiresAt: number | null;
  now: number;
}

const BAN = sql`SELECT b."userId", u."username", u."profileImageId", b."reason", b."expiresAt", b."byId", m."username" AS "byName", b."createdAt"
  FROM "HubBan" b JOIN "User" u ON u."id" = b."userId" LEFT JOIN "User" m ON m."id" = b."byId"`;

/** Hub bans (docs/api.md "Bans, suspensions and the mod log"): each change and its mod log entry, on the service's transaction. */
export function createBanQueries({ kysely }: Database) {
  const facts = prepare<{ hubId: number; actorId: number; targetId: number }, BanFacts>(
    kysely,
    (p) => sql`SELECT h."authorId",
                 CASE WHEN EXISTS (SELECT 1 FROM "HubModerator" WHERE "hubId" = h."id" AND "userId" = ${p("actorId")}) THEN 1 ELSE 0 END AS "actorIsModerator",
                 CASE WHEN EXISTS (SELECT 1 FROM "HubModerator" WHERE "hubId" = h."id" AND "userId" = ${p("targetId")}) THEN 1 ELSE 0 END AS "targetIsModerator"
               FROM "Hub" h WHERE h."id" = ${p("hubId")}`,
  );
  const user = prepare<{ id: number }, { id: number; username: string; usernameKey: string; isAdmin: number }>(kysely, (p) =>
    kysely.selectFrom("User").select(["id", "username", "usernameKey", "isAdmin"]).where("id", "=", p("id")),
  );
  // Locks the hub's row as posting does (its post count), so a post racing a ban waits for it and then sees it.
  const lockHub = prepare<{ hubId: number }, { id: number }>(
    kysely,
    (p) => sql`UPDATE "Hub" SET "postCount" = "postCount" WHERE "id" = ${p("hubId")} RETURNING "id"`,
  );
  const upsert = prepare<Omit<BanChange, "username">>(
    kysely,
    (p) => sql`INSERT INTO "HubBan" ("hubId", "userId", "reason", "expiresAt", "byId", "createdAt")
               VALUES (${p("hubId")}, ${p("userId")}, ${p("reason")}, ${p("expiresAt")}, ${p("actorId")}, ${p("now")})
               ON CONFLICT ("hubId", "userId") DO UPDATE SET "reason" = excluded."reason", "expiresAt" = excluded."expiresAt",
                 "byId" = excluded."byId", "createdAt" = excluded."createdAt"`,
  );
  const remove = prepare<{ hubId: number; userId: number }>(
    kysely,
    (p) => sql`DELETE FROM "HubBan" WHERE "hubId" = ${p("hubId")} AND "userId" = ${p("userId")}`,
  );
  const one = prepare<{ hubId: number; userId: number }, BanRow>(
    kysely,
    (p) => sql`${BAN} WHERE b."hubId" = ${p("hubId")} AND b."userId" = ${p("userId")}`,
  );
  // Newest first over HubBan(hubId, createdAt, userId).
  const page = prepare<{ hubId: number; limit: number; offset: number }, BanRow>(
    kysely,
    (p) =>
      sql`${BAN} WHERE b."hubId" = ${p("hubId")} ORDER BY b."createdAt" DESC, b."userId" DESC LIMIT ${p("limit")} OFFSET ${p("offset")}`,
  );
  const total = prepare<{ hubId: number }, { n: number }>(
    kysely,
    (p) => sql`SELECT COUNT(*) AS "n" FROM "HubBan" WHERE "hubId" = ${p("hubId")}`,
  );

  const log = (trx: Executor, c: BanChange, action: "banned" | "unbanned") =>
    insertModLogEntry(trx, {
      hubId: c.hubId,
      action,
      moderatorId: c.actorId,
      subjectType: "user",
      subjectId: c.userId,
      subjectTitle: c.username,
      reason: c.reason,
      createdAt: c.now,
    });

  return {
    /** Undefined: no such hub. */
    facts: (hubId: number, actorId: number, targetId: number) => facts.first({ hubId, actorId, targetId }),
    user: (id: number) => user.first({ id }),
    ban: (hubId: number, userId: number) => one.first({ hubId, userId }),
    page: (hubId: number, limit: number, offset: number) => page.all({ hubId, limit, offset }),
    total: async (hubId: number) => (await total.first({ hubId }))!.n,

    /** Locks the hub's row, first in a ban's transaction; false: the hub went meanwhile. */
    lockHub: async (trx: Executor, hubId: number) => (await lockHub.first({ hubId }, trx)) !== undefined,
    /** Sets the ban (again) and logs `banned`, on the caller's transaction. */
    set: async (trx: Executor, c: BanChange) => {
      await upsert.run(c, trx);
      await log(trx, c, "banned");
    },
    /** Lifts the ban and logs `unbanned`, on the caller's transaction; false (nothing written) when there was none. */
    lift: async (trx: Executor, c: BanChange): Promise<boolean> => {
      const lifted = (await remove.run(c, trx)) > 0;
      if (lifted) await log(trx, c, "unbanned");
      return lifted;
    },
  };
}
