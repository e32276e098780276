import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../db/prepared.ts";
import type { Standing } from "../rules/permissions.ts";
import type { RemovableType } from "../rules/removal.ts";

/** A removable thing as removal needs it, read with its row locked. */
export interface RemovalRow {
  authorId: number | null;
  /** What the log names it by: a series' or hub's name (its address); "" for a post, comment or chapter (no copies). */
  title: string;
  /** The hub the log entry belongs to: a post's, a comment's on a post, a hub's own; null otherwise. */
  hubId: number | null;
  removedAt: number | null;
  removedReason: string | null;
  removedById: number | null;
  /** The actor's standing over the subject besides being an admin (Standing in server/rules/permissions.ts). */
  actorStanding: Standing;
  /** The same for whoever removed it (while removed), and what makes that account an admin (isAdminUser). */
  removerStanding: Standing;
  removerIsAdmin: number | null;
  removerUsernameKey: string | null;
}

type Lookup = (id: number, actorId: number) => RawBuilder<unknown>;

const REMOVAL = sql`"removedAt", "removedReason", "removedById"`;
const TABLE: Record<RemovableType, string> = { post: "Post", comment: "Comment", chapter: "Chapter", series: "Series", hub: "Hub" };

/** The remover's admin facts, from the row being read (`table`). */
const remover = (table: string) => sql`(SELECT "isAdmin" FROM "User" WHERE "id" = ${sql.table(table)}."removedById") AS "removerIsAdmin",
  (SELECT "usernameKey" FROM "User" WHERE "id" = ${sql.table(table)}."removedById") AS "removerUsernameKey"`;

// A user's standing over a post, or over a comment (on a post: its hub's; on a chapter: its series' author is its
// "creator"). `user` is the actor's id or the row's "removedById".
const postStanding = (user: RawBuilder<unknown>) => sql`CASE
  WHEN (SELECT "authorId" FROM "Hub" WHERE "id" = "Post"."hubId") = ${user} THEN 'creator'
  WHEN EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = "Post"."hubId" AND m."userId" = ${user}) THEN 'moderator'
  ELSE 'none' END`;
const commentStanding = (user: RawBuilder<unknown>) => sql`CASE
  WHEN (SELECT h."authorId" FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId" WHERE p."id" = "Comment"."postId") = ${user}
    OR (SELECT s."authorId" FROM "Chapter" ch JOIN "Series" s ON s."id" = ch."seriesId" WHERE ch."id" = "Comment"."chapterId") = ${user}
    THEN 'creator'
  WHEN EXISTS (SELECT 1 FROM "Post" p JOIN "HubModerator" m ON m."hubId" = p."hubId"
               WHERE p."id" = "Comment"."postId" AND m."userId" = ${user}) THEN 'moderator'
  ELSE 'none' END`;
// Chapters, series and hubs are moderated by admins only.
const NO_STANDING = sql`'none' AS "actorStanding", 'none' AS "removerStanding"`;

// Each lookup is a no-op write first: on PostgreSQL it locks the row, so two removals of one thing, or a removal and a
// deletion, run one after the other (SQLite has one writer anyway). A comment tombstone (deleted) is not found.
const LOOKUP: Record<RemovableType, Lookup> = {
  post: (id, actorId) => sql`UPDATE "Post" SET "title" = "title" WHERE "id" = ${id}
    RETURNING "authorId", '' AS "title", "hubId", ${REMOVAL}, ${remover("Post")},
      ${postStanding(sql`${actorId}`)} AS "actorStanding", ${postStanding(sql`"Post"."removedById"`)} AS "removerStanding"`,
  comment: (id, actorId) => sql`UPDATE "Comment" SET "likes" = "likes" WHERE "id" = ${id} AND "deletedAt" IS NULL
    RETURNING "authorId", '' AS "title", (SELECT "hubId" FROM "Post" WHERE "id" = "Comment"."postId") AS "hubId", ${REMOVAL},
      ${remover("Comment")},
      ${commentStanding(sql`${actorId}`)} AS "actorStanding", ${commentStanding(sql`"Comment"."removedById"`)} AS "removerStanding"`,
  // A chapter's author, for these rules, is its series' author (who may delete it).
  chapter: (id) => sql`UPDATE "Chapter" SET "title" = "title" WHERE "id" = ${id}
    RETURNING (SELECT "authorId" FROM "Series" WHERE "id" = "Chapter"."seriesId") AS "authorId", '' AS "title",
      NULL AS "hubId", ${REMOVAL}, ${remover("Chapter")}, ${NO_STANDING}`,
  series: (id) => sql`UPDATE "Series" SET "name" = "name" WHERE "id" = ${id}
    RETURNING "authorId", "name" AS "title", NULL AS "hubId", ${REMOVAL}, ${remover("Series")}, ${NO_STANDING}`,
  hub: (id) => sql`UPDATE "Hub" SET "name" = "name" WHERE "id" = ${id}
    RETURNING "authorId", "name" AS "title", "id" AS "hubId", ${REMOVAL}, ${remover("Hub")}, ${NO_STANDING}`,
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

/** What may hold a removal: a thing, or anything it is inside. */
export type RemovedKind = "post" | "chapter" | "comment" | "hub" | "series";

// The thing's own removal and that of every thing it is in, one row by primary keys: a post and its hub, a chapter
// and its series, a comment and its post and hub or its chapter and series.
const CHAIN: Record<RemovedKind, (id: number) => RawBuilder<Partial<Record<RemovedKind, string | null>>>> = {
  hub: (id) => sql`SELECT "removedReason" AS "hub" FROM "Hub" WHERE "id" = ${id}`,
  series: (id) => sql`SELECT "removedReason" AS "series" FROM "Series" WHERE "id" = ${id}`,
  post: (id) => sql`SELECT p."removedReason" AS "post", h."removedReason" AS "hub"
    FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId" WHERE p."id" = ${id}`,
  chapter: (id) => sql`SELECT c."removedReason" AS "chapter", s."removedReason" AS "series"
    FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId" WHERE c."id" = ${id}`,
  comment: (id) => sql`SELECT c."removedReason" AS "comment", p."removedReason" AS "post", h."removedReason" AS "hub",
      ch."removedReason" AS "chapter", s."removedReason" AS "series"
    FROM "Comment" c LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Hub" h ON h."id" = p."hubId"
      LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId" LEFT JOIN "Series" s ON s."id" = ch."seriesId"
    WHERE c."id" = ${id}`,
};
// The nearest removed thing is the one named.
const NEAREST_FIRST: RemovedKind[] = ["comment", "post", "chapter", "hub", "series"];

/**
 * The nearest removed thing among the thing itself and everything it is in (a comment, then its post or chapter,
 * then their hub or series); null when none is removed, or when there is no such thing.
 */
export async function removedContainerOf(on: Executor, type: RemovedKind, id: number): Promise<RemovedKind | null> {
  const row = (await CHAIN[type](id).execute(on)).rows[0];
  if (!row) return null;
  return NEAREST_FIRST.find((kind) => row[kind] != null) ?? null;
}
