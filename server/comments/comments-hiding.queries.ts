import { sql } from "kysely";
import { notBlockedBy } from "../blocks/blocks.queries.ts";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";
import type { CommentSort } from "../rules/comment.ts";
import { COMMENT, ORDER, perPlace, type CommentRow, type Place } from "./comments.queries.ts";

/**
 * A blocker's comment lists (docs/decisions/018-governance.md "Blocks"): the pages of comments.queries.ts without the
 * blocked authors' comments, and how many those are (from the blocks: one index read per blocked author). Callers
 * without blocks never run these.
 */
export function createCommentHidingQueries(db: Database) {
  const { kysely } = db;
  type PageParams = { placeId: number; limit: number; offset: number };
  type Hiding = { viewerId: number };

  const topLevelHiding = (column: Place["column"], sort: CommentSort) =>
    prepare<PageParams & Hiding, CommentRow>(
      kysely,
      (p) => sql`${COMMENT}
        WHERE c."id" IN (SELECT x."id" FROM "Comment" x WHERE x.${sql.ref(column)} = ${p("placeId")} AND x."parentId" IS NULL
                           AND ${notBlockedBy(p("viewerId"), sql.ref("x.authorId"))}
                         ORDER BY ${ORDER[sort].inner} LIMIT ${p("limit")} OFFSET ${p("offset")})
        ORDER BY ${ORDER[sort].outer}`,
    );
  const hiding = {
    topLevel: perPlace((column) => ({
      top: topLevelHiding(column, "top"),
      oldest: topLevelHiding(column, "oldest"),
      newest: topLevelHiding(column, "newest"),
    })),
    hiddenTopLevel: perPlace((column) =>
      prepare<{ placeId: number } & Hiding, { n: number }>(
        kysely,
        // A correlated count per block, not a join, so the blocks stay the outer loop (as posts.queries.ts's `hidden`).
        (p) => sql`SELECT COALESCE(SUM((SELECT COUNT(*) FROM "Comment" x WHERE x."authorId" = b."blockedId"
                     AND x.${sql.ref(column)} = ${p("placeId")} AND x."parentId" IS NULL)), 0) AS "n"
                   FROM "Block" b WHERE b."userId" = ${p("viewerId")}`,
      ),
    ),
    replies: prepare<{ parentId: number; limit: number; offset: number } & Hiding, CommentRow>(
      kysely,
      (p) => sql`${COMMENT}
        WHERE c."id" IN (SELECT x."id" FROM "Comment" x WHERE x."parentId" = ${p("parentId")} AND ${notBlockedBy(p("viewerId"), sql.ref("x.authorId"))}
                         ORDER BY x."createdAt", x."id" LIMIT ${p("limit")} OFFSET ${p("offset")})
        ORDER BY c."createdAt", c."id"`,
    ),
    hiddenReplies: prepare<{ parentId: number } & Hiding, { n: number }>(
      kysely,
      (p) => sql`SELECT COALESCE(SUM((SELECT COUNT(*) FROM "Comment" x
                   WHERE x."authorId" = b."blockedId" AND x."parentId" = ${p("parentId")})), 0) AS "n"
                 FROM "Block" b WHERE b."userId" = ${p("viewerId")}`,
    ),
  };

  return {
    /** How many of the place's top-level comments are by users `viewerId` blocks. */
    hiddenTopLevel: async (place: Place, viewerId: number) =>
      Number((await hiding.hiddenTopLevel[place.column].first({ placeId: place.id, viewerId }))!.n),

    /** A page of the place's top-level comments without those by users `viewerId` blocks. */
    topLevelPageHiding: (place: Place, sort: CommentSort, limit: number, offset: number, viewerId: number) =>
      hiding.topLevel[place.column][sort].all({ placeId: place.id, limit, offset, viewerId }),

    /** How many of the thread's replies are by users `viewerId` blocks. */
    hiddenReplies: async (parentId: number, viewerId: number) => Number((await hiding.hiddenReplies.first({ parentId, viewerId }))!.n),

    /** A page of the thread's replies without those by users `viewerId` blocks. */
    replyPageHiding: (parentId: number, limit: number, offset: number, viewerId: number) =>
      hiding.replies.all({ parentId, limit, offset, viewerId }),
  };
}
