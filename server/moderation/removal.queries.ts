import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../db/prepared.ts";
import type { RemovableType } from "../rules/removal.ts";

/** A removable thing as removal needs it, read with its row locked. */
export interface RemovalRow {
  authorId: number | null;
  /** The log's copy of the subject's title. */
  title: string;
  /** The hub the log entry belongs to: a post's, a comment's on a post, a hub's own; null otherwise. */
  hubId: number | null;
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
  /** 1 when the actor moderates the subject besides being an admin (see mayRemove in server/rules/permissions.ts). */
  actorModerates: number;
}

type Lookup = (id: number, actorId: number) => RawBuilder<unknown>;

const REMOVAL = sql`"removedAt", "removedReason", "removedById"`;
const TABLE: Record<RemovableType, string> = { post: "Post", comment: "Comment", chapter: "Chapter", series: "Series", hub: "Hub" };

// Each lookup is a no-op write first: on PostgreSQL it locks the row, so two removals of one thing, or a removal and a
// deletion, run one after the other (SQLite has one writer anyway). A comment tombstone (deleted) is not found.
const LOOKUP: Record<RemovableType, Lookup> = {
  post: (id, actorId) => sql`UPDATE "Post" SET "title" = "title" WHERE "id" = ${id}
    RETURNING "authorId", "title", "hubId", ${REMOVAL},
      CASE WHEN (SELECT "authorId" FROM "Hub" WHERE "id" = "Post"."hubId") = ${actorId}
             OR EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = "Post"."hubId" AND m."userId" = ${actorId})
        THEN 1 ELSE 0 END AS "actorModerates"`,
  comment: (id, actorId) => sql`UPDATE "Comment" SET "likes" = "likes" WHERE "id" = ${id} AND "deletedAt" IS NULL
    RETURNING "authorId", "content" AS "title", (SELECT "hubId" FROM "Post" WHERE "id" = "Comment"."postId") AS "hubId", ${REMOVAL},
      CASE WHEN (SELECT h."authorId" FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId" WHERE p."id" = "Comment"."postId") = ${actorId}
             OR EXISTS (SELECT 1 FROM "Post" p JOIN "HubModerator" m ON m."hubId" = p."hubId"
                        WHERE p."id" = "Comment"."postId" AND m."userId" = ${actorId})
             OR (SELECT s."authorId" FROM "Chapter" ch JOIN "Series" s ON s."id" = ch."seriesId" WHERE ch."id" = "Comment"."chapterId") = ${actorId}
        THEN 1 ELSE 0 END AS "actorModerates"`,
  // A chapter's author, for these rules, is its series' author (who may delete it).
  chapter: (id) => sql`UPDATE "Chapter" SET "title" = "title" WHERE "id" = ${id}
    RETURNING (SELECT "authorId" FROM "Series" WHERE "id" = "Chapter"."seriesId") AS "authorId",
      (SELECT "name" FROM "Series" WHERE "id" = "Chapter"."seriesId") || ' — Chapter ' || CAST("number" AS TEXT) || ': ' || "title" AS "title",
      NULL AS "hubId", ${REMOVAL}, 0 AS "actorModerates"`,
  series: (id) => sql`UPDATE "Series" SET "name" = "name" WHERE "id" = ${id}
    RETURNING "authorId", "name" AS "title", NULL AS "hubId", ${REMOVAL}, 0 AS "actorModerates"`,
  hub: (id) => sql`UPDATE "Hub" SET "name" = "name" WHERE "id" = ${id}
    RETURNING "authorId", "name" AS "title", "id" AS "hubId", ${REMOVAL}, 0 AS "actorModerates"`,
};

export interface RemovalChange {
  type: RemovableType;
  id: number;
  /** null: restore. */
  removed: { reason: string; byId: number; at: number } | null;
}

export interface LogEntry {
  hubId: number | null;
  action: "removed" | "restored";
  moderatorId: number;
  subjectType: RemovableType;
  subjectId: number;
  subjectTitle: string;
  reason: string;
  createdAt: number;
}

/** Removal's statements, run on the caller's transaction (a report's resolution removes in its own). */
export const removalQueries = {
  lookup: async (trx: Executor, type: RemovableType, id: number, actorId: number): Promise<RemovalRow | undefined> =>
    (await LOOKUP[type](id, actorId).execute(trx)).rows[0] as RemovalRow | undefined,

  /** Sets (or clears, for a restore) the three removal columns. */
  set: async (trx: Executor, { type, id, removed }: RemovalChange): Promise<void> => {
    await sql`UPDATE ${sql.table(TABLE[type])}
      SET "removedAt" = ${removed?.at ?? null}, "removedReason" = ${removed?.reason ?? null}, "removedById" = ${removed?.byId ?? null}
      WHERE "id" = ${id}`.execute(trx);
  },

  log: async (trx: Executor, e: LogEntry): Promise<void> => {
    await sql`INSERT INTO "ModLogEntry" ("hubId", "action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason", "createdAt")
      VALUES (${e.hubId}, ${e.action}, ${e.moderatorId}, ${e.subjectType}, ${e.subjectId}, ${e.subjectTitle}, ${e.reason}, ${e.createdAt})`.execute(
      trx,
    );
  },
};
