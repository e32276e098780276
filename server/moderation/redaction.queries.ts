import { sql } from "kysely";
import type { Executor } from "../db/prepared.ts";

/** Which of the removed things on a page the viewer moderates (redaction.service.ts): one query per page. */
export const redactionQueries = {
  /** The ids among `ids` of posts whose hub the viewer created or moderates. */
  postsModeratedBy: async (on: Executor, viewerId: number, ids: number[]) =>
    (
      await sql<{ id: number }>`SELECT p."id" FROM "Post" p JOIN "Hub" h ON h."id" = p."hubId"
        WHERE p."id" IN (${sql.join(ids)}) AND (h."authorId" = ${viewerId}
          OR EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = p."hubId" AND m."userId" = ${viewerId}))`.execute(on)
    ).rows,

  /** The ids among `ids` of comments whose post's hub the viewer created or moderates, or whose chapter's series they wrote. */
  commentsModeratedBy: async (on: Executor, viewerId: number, ids: number[]) =>
    (
      await sql<{ id: number }>`SELECT c."id" FROM "Comment" c
        LEFT JOIN "Post" p ON p."id" = c."postId" LEFT JOIN "Hub" h ON h."id" = p."hubId"
        LEFT JOIN "Chapter" ch ON ch."id" = c."chapterId" LEFT JOIN "Series" s ON s."id" = ch."seriesId"
        WHERE c."id" IN (${sql.join(ids)}) AND (h."authorId" = ${viewerId} OR s."authorId" = ${viewerId}
          OR EXISTS (SELECT 1 FROM "HubModerator" m WHERE m."hubId" = p."hubId" AND m."userId" = ${viewerId}))`.execute(on)
    ).rows,
};
