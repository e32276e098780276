import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";

type ById = { id: number };

/**
 * What GET /user/{id}/export reads: one statement per list of account.json, each the user's own rows only,
 * in a stable order (oldest first). Every list is read by an index on its user or author column.
 */
export function createExportQueries({ kysely }: Database) {
  const profile = prepare<
    ById,
    { id: number; username: string; email: string; joinedAt: number; profileImageId: number | null; profileBannerId: number | null }
  >(kysely, (p) =>
    kysely
      .selectFrom("User")
      .select(["id", "username", "email", "joinedAt", "profileImageId", "profileBannerId"])
      .where("id", "=", p("id")),
  );
  const memberships = prepare<ById, { hubId: number; hubName: string; joinedAt: number }>(
    kysely,
    (p) => sql`SELECT m."hubId", h."name" AS "hubName", m."createdAt" AS "joinedAt"
      FROM "Membership" m JOIN "Hub" h ON h."id" = m."hubId" WHERE m."userId" = ${p("id")} ORDER BY m."createdAt", m."hubId"`,
  );
  const follows = prepare<ById, { seriesId: number; seriesName: string; followedAt: number }>(
    kysely,
    (p) => sql`SELECT f."seriesId", s."name" AS "seriesName", f."createdAt" AS "followedAt"
      FROM "Follow" f JOIN "Series" s ON s."id" = f."seriesId" WHERE f."userId" = ${p("id")} ORDER BY f."createdAt", f."seriesId"`,
  );
  const readingProgress = prepare<ById, { seriesId: number; seriesName: string; chapterNumber: number; page: number; updatedAt: number }>(
    kysely,
    (p) => sql`SELECT r."seriesId", s."name" AS "seriesName", c."number" AS "chapterNumber", r."page", r."updatedAt"
      FROM "ReadingProgress" r JOIN "Series" s ON s."id" = r."seriesId" JOIN "Chapter" c ON c."id" = r."chapterId"
      WHERE r."userId" = ${p("id")} ORDER BY r."updatedAt" DESC, r."seriesId" DESC`,
  );
  const chaptersRead = prepare<ById, { chapterId: number; seriesName: string; chapterNumber: number; readAt: number }>(
    kysely,
    (p) => sql`SELECT r."chapterId", s."name" AS "seriesName", c."number" AS "chapterNumber", r."readAt"
      FROM "ChapterRead" r JOIN "Chapter" c ON c."id" = r."chapterId" JOIN "Series" s ON s."id" = c."seriesId"
      WHERE r."userId" = ${p("id")} ORDER BY r."readAt", r."chapterId"`,
  );
  // A liked post that moderators removed (or whose hub they removed) is named without its title, unless it is the
  // user's own (docs/api.md "Removal"): the export is no way around removal.
  const postLikes = prepare<ById, { postId: number; hubName: string; title: string | null }>(
    kysely,
    (p) => sql`SELECT l."postId", h."name" AS "hubName",
        CASE WHEN (po."removedAt" IS NULL AND h."removedAt" IS NULL) OR po."authorId" = l."userId" THEN po."title" END AS "title"
      FROM "PostLike" l JOIN "Post" po ON po."id" = l."postId" JOIN "Hub" h ON h."id" = po."hubId"
      WHERE l."userId" = ${p("id")} ORDER BY l."postId"`,
  );
  const chapterLikes = prepare<ById, { chapterId: number; seriesName: string; number: number }>(
    kysely,
    (p) => sql`SELECT l."chapterId", s."name" AS "seriesName", c."number"
      FROM "ChapterLike" l JOIN "Chapter" c ON c."id" = l."chapterId" JOIN "Series" s ON s."id" = c."seriesId"
      WHERE l."userId" = ${p("id")} ORDER BY l."chapterId"`,
  );
  const commentLikes = prepare<ById, { commentId: number }>(kysely, (p) =>
    kysely.selectFrom("CommentLike").select("commentId").where("userId", "=", p("id")).orderBy("commentId"),
  );
  const posts = prepare<
    ById,
    { id: number; hubId: number; hubName: string; title: string; content: string; date: number; likes: number; commentCount: number }
  >(
    kysely,
    (p) => sql`SELECT po."id", po."hubId", h."name" AS "hubName", po."title", po."content", po."date", po."likes", po."commentCount"
      FROM "Post" po JOIN "Hub" h ON h."id" = po."hubId" WHERE po."authorId" = ${p("id")} ORDER BY po."id"`,
  );
  // Tombstones (deleted while they had replies) hold no content of the user's any more: left out.
  const comments = prepare<
    ById,
    {
      id: number;
      postId: number | null;
      chapterId: number | null;
      parentId: number | null;
      content: string;
      likes: number;
      createdAt: number;
      editedAt: number | null;
    }
  >(kysely, (p) =>
    kysely
      .selectFrom("Comment")
      .select(["id", "postId", "chapterId", "parentId", "content", "likes", "createdAt", "editedAt"])
      .where("authorId", "=", p("id"))
      .where("deletedAt", "is", null)
      .orderBy("id"),
  );
  const series = prepare<
    ById,
    {
      id: number;
      name: string;
      description: string;
      createdAt: number;
      profileImageId: number | null;
      profileBannerId: number | null;
      followersCount: number;
    }
  >(kysely, (p) =>
    kysely
      .selectFrom("Series")
      .select(["id", "name", "description", "createdAt", "profileImageId", "profileBannerId", "followersCount"])
      .where("authorId", "=", p("id"))
      .orderBy("id"),
  );
  const chapters = prepare<
    ById,
    {
      id: number;
      seriesId: number;
      number: number;
      title: string;
      description: string;
      content: string;
      date: number;
      coverId: number | null;
      likes: number;
    }
  >(kysely, (p) =>
    kysely
      .selectFrom("Chapter")
      .select(["id", "seriesId", "number", "title", "description", "content", "date", "coverId", "likes"])
      .where("authorId", "=", p("id"))
      .orderBy("id"),
  );
  const pages = prepare<ById, { chapterId: number; imageId: number }>(
    kysely,
    (p) => sql`SELECT pg."chapterId", pg."imageId" FROM "ChapterPage" pg JOIN "Chapter" c ON c."id" = pg."chapterId"
      WHERE c."authorId" = ${p("id")} ORDER BY pg."chapterId", pg."position"`,
  );
  const images = prepare<
    ById,
    {
      id: number;
      fileName: string;
      contentType: string;
      size: number;
      width: number;
      height: number;
      createdAt: number;
      fileKey: string | null;
    }
  >(kysely, (p) =>
    kysely
      .selectFrom("Image")
      .select(["id", "fileName", "contentType", "size", "width", "height", "createdAt", "fileKey"])
      .where("authorId", "=", p("id"))
      .orderBy("id"),
  );

  // The reports the user made (docs/decisions/018-governance.md): what and why, and how it ended; not who resolved it.
  const reports = prepare<
    ById,
    {
      id: number;
      subjectType: string;
      subjectId: number;
      reason: string;
      note: string;
      status: string;
      createdAt: number;
      resolution: string | null;
      resolvedAt: number | null;
    }
  >(kysely, (p) =>
    kysely
      .selectFrom("Report")
      .select(["id", "subjectType", "subjectId", "reason", "note", "status", "createdAt", "resolution", "resolvedAt"])
      .where("reporterId", "=", p("id"))
      .orderBy("createdAt")
      .orderBy("id"),
  );

  return {
    profile: (id: number) => profile.first({ id }),
    memberships: (id: number) => memberships.all({ id }),
    follows: (id: number) => follows.all({ id }),
    readingProgress: (id: number) => readingProgress.all({ id }),
    chaptersRead: (id: number) => chaptersRead.all({ id }),
    postLikes: (id: number) => postLikes.all({ id }),
    chapterLikes: (id: number) => chapterLikes.all({ id }),
    commentLikes: (id: number) => commentLikes.all({ id }),
    posts: (id: number) => posts.all({ id }),
    comments: (id: number) => comments.all({ id }),
    series: (id: number) => series.all({ id }),
    chapters: (id: number) => chapters.all({ id }),
    pages: (id: number) => pages.all({ id }),
    images: (id: number) => images.all({ id }),
    reports: (id: number) => reports.all({ id }),
  };
}
