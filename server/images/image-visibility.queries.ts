import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";
import type { ImageUserType } from "../db/schema.ts";
import type { ImageRow } from "./images.queries.ts";

/** An image's row and what decides who sees it (docs/decisions/025-withdrawable-images.md). 0 or 1 on both engines. */
export interface ImageState extends ImageRow {
  /** Something that uses it is shown to everyone: not removed, nor inside a removed hub, series, post or chapter. */
  live: number;
  /** Some row uses it (ImageUse). */
  used: number;
  /** A deletion let go of it and the image-release job has not deleted it yet. */
  released: number;
}

/** One removable thing on the way from a use to the top (a comment, its post, the post's hub), as the rules see it. */
export interface UseLayer {
  type: "post" | "comment" | "chapter" | "series" | "hub";
  authorId: number | null;
  /**
   * 1 when the actor moderates it: a hub's creator and added moderators moderate its posts and their comments, a
   * series' author the comments on its chapters.
   */
  actorModerates: number;
  removed: number;
}

// Whether some use is live: its row and everything it is inside are not removed (a comment tombstone shows nothing). A user's avatar or banner is always live: accounts are suspended, never removed.
const LIVE_USE = sql`EXISTS (SELECT 1 FROM "ImageUse" u WHERE u."imageId" = i."id" AND (
    u."userType" = 'user'
    OR (u."userType" = 'hub' AND EXISTS (SELECT 1 FROM "Hub" h WHERE h."id" = u."userId" AND h."removedAt" IS NULL))
    OR (u."userType" = 'series' AND EXISTS (SELECT 1 FROM "Series" s WHERE s."id" = u."userId" AND s."removedAt" IS NULL))
    OR (u."userType" = 'chapter' AND EXISTS (SELECT 1 FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId"
          WHERE c."id" = u."userId" AND c."removedAt" IS NULL AND s."removedAt" IS NULL))
    OR (u."userType" = 'post' AND EXISTS (SELECT 1 FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId"
          WHERE p."id" = u."userId" AND p."removedAt" IS NULL AND h."removedAt" IS NULL))
    OR (u."userType" = 'comment' AND EXISTS (SELECT 1 FROM "Comment" c
          LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Hub" h ON h."id" = p."hubId"
          LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId" LEFT JOIN "Series" s ON s."id" = ch."seriesId"
          WHERE c."id" = u."userId" AND c."removedAt" IS NULL AND c."deletedAt" IS NULL
            AND ((p."id" IS NOT NULL AND p."removedAt" IS NULL AND h."removedAt" IS NULL)
              OR (ch."id" IS NOT NULL AND ch."removedAt" IS NULL AND s."removedAt" IS NULL))))))`;

const REMOVED = (alias: string) => sql.raw(`CASE WHEN ${alias}."removedAt" IS NULL THEN 0 ELSE 1 END`);

/** How many uses of one image are read to find one the viewer may see: an image is rarely used by more. */
const USES_READ = 100;

/**
 * The reads behind who sees an image. The state is one statement by primary key (its EXISTS stop at the first live
 * use); the layers are read only for a signed-in viewer of an image whose every use is removed.
 */
export function createImageVisibilityQueries({ kysely }: Database) {
  const state = prepare<{ id: number }, ImageState>(
    kysely,
    (p) => sql`SELECT i."id", i."fileName", i."contentType", i."size", i."width", i."height", i."authorId", i."createdAt",
        i."publishedAt", i."fileKey",
        CASE WHEN ${LIVE_USE} THEN 1 ELSE 0 END AS "live",
        CASE WHEN EXISTS (SELECT 1 FROM "ImageUse" u WHERE u."imageId" = i."id") THEN 1 ELSE 0 END AS "used",
        CASE WHEN EXISTS (SELECT 1 FROM "ImageRelease" r WHERE r."imageId" = i."id") THEN 1 ELSE 0 END AS "released"
      FROM "Image" i WHERE i."id" = ${p("id")}`,
  );
  const uses = prepare<{ id: number; limit: number }, { userType: ImageUserType; userId: number }>(
    kysely,
    (p) => sql`SELECT "userType", "userId" FROM "ImageUse" WHERE "imageId" = ${p("id")} LIMIT ${p("limit")}`,
  );

  type Row = Omit<UseLayer, "type"> & { outerAuthorId: number; outerRemoved: number };
  // Each: the thing and the hub or series it is in (a hub or series is its own outer layer).
  const post = prepare<{ id: number; actorId: number }, Row>(
    kysely,
    (p) => sql`SELECT p."authorId", ${REMOVED("p")} AS "removed",
        h."authorId" AS "outerAuthorId", ${REMOVED("h")} AS "outerRemoved",
        CASE WHEN h."authorId" = ${p("actorId")}
               OR EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = h."id" AND m."userId" = ${p("actorId")})
          THEN 1 ELSE 0 END AS "actorModerates"
      FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId" WHERE p."id" = ${p("id")}`,
  );
  // A chapter's author, for the removal rules, is its series' author.
  const chapter = prepare<{ id: number }, Row>(
    kysely,
    (p) => sql`SELECT s."authorId", ${REMOVED("c")} AS "removed",
        s."authorId" AS "outerAuthorId", ${REMOVED("s")} AS "outerRemoved", 0 AS "actorModerates"
      FROM "Chapter" c JOIN "Series" s ON s."id" = c."seriesId" WHERE c."id" = ${p("id")}`,
  );
  const named = (table: "Hub" | "Series") =>
    prepare<{ id: number }, Omit<UseLayer, "type">>(
      kysely,
      (p) => sql`SELECT t."authorId", ${REMOVED("t")} AS "removed", 0 AS "actorModerates"
        FROM ${sql.table(table)} t WHERE t."id" = ${p("id")}`,
    );
  const hub = named("Hub");
  const series = named("Series");
  // A comment's moderators: its post's hub's (creator and added), or its chapter's series' author. A tombstone is not read.
  const comment = prepare<
    { id: number; actorId: number },
    Omit<UseLayer, "type"> & { postId: number | null; chapterId: number | null; deleted: number }
  >(
    kysely,
    (p) => sql`SELECT c."authorId", ${REMOVED("c")} AS "removed", c."postId", c."chapterId",
        CASE WHEN c."deletedAt" IS NULL THEN 0 ELSE 1 END AS "deleted",
        CASE WHEN h."authorId" = ${p("actorId")}
               OR EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = h."id" AND m."userId" = ${p("actorId")})
               OR s."authorId" = ${p("actorId")}
          THEN 1 ELSE 0 END AS "actorModerates"
      FROM "Comment" c
        LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Hub" h ON h."id" = p."hubId"
        LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId" LEFT JOIN "Series" s ON s."id" = ch."seriesId"
      WHERE c."id" = ${p("id")}`,
  );

  const split = (inner: UseLayer["type"], outer: UseLayer["type"], row: Row): UseLayer[] => [
    { type: inner, authorId: row.authorId, actorModerates: row.actorModerates, removed: row.removed },
    { type: outer, authorId: row.outerAuthorId, actorModerates: 0, removed: row.outerRemoved },
  ];

  /** The layers of one use, innermost first; null when its row is gone or shows nothing (a comment tombstone). */
  async function layersOf(type: ImageUserType, id: number, actorId: number): Promise<UseLayer[] | null> {
    switch (type) {
      case "user":
        return [];
      case "hub":
      case "series": {
        const row = await (type === "hub" ? hub : series).first({ id });
        return row ? [{ type, ...row }] : null;
      }
      case "chapter": {
        const row = await chapter.first({ id });
        return row ? split("chapter", "series", row) : null;
      }
      case "post": {
        const row = await post.first({ id, actorId });
        return row ? split("post", "hub", row) : null;
      }
      case "comment": {
        const row = await comment.first({ id, actorId });
        if (!row || row.deleted) return null;
        const place =
          row.postId !== null ? await layersOf("post", row.postId, actorId) : await layersOf("chapter", row.chapterId!, actorId);
        if (!place) return null;
        return [{ type: "comment", authorId: row.authorId, actorModerates: row.actorModerates, removed: row.removed }, ...place];
      }
    }
  }

  return {
    state: (id: number) => state.first({ id }),

    /** The layers of each use of the image (at most USES_READ uses), for a viewer who may see removed things. */
    async useLayers(id: number, actorId: number): Promise<UseLayer[][]> {
      const found: UseLayer[][] = [];
      for (const use of await uses.all({ id, limit: USES_READ })) {
        const layers = await layersOf(use.userType, use.userId, actorId);
        if (layers) found.push(layers);
      }
      return found;
    },
  };
}
