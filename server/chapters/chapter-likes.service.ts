import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { notFound } from "../http/errors.ts";
import { createChapterService } from "./chapters.service.ts";
import { refuseRemoved } from "../moderation/write-guards.service.ts";

/** `chapters` finds the liked chapter by its series and number (made here when not given). */
export function createChapterLikeService(
  db: Database,
  chapters: Pick<ReturnType<typeof createChapterService>, "resolveIdByName"> = createChapterService(db),
) {
  const setLiked = createCountedToggle(
    db,
    {
      link: "ChapterLike",
      targetColumn: "chapterId",
      target: "Chapter",
      counter: "likes",
      timestamped: false,
    },
    undefined,
    (trx, chapterId) => refuseRemoved(trx, "chapter", chapterId),
  );
  async function set(userId: number, seriesName: string, number: number, liked: boolean) {
    const chapterId = await chapters.resolveIdByName(seriesName, number);
    const likes = await db.kysely.transaction().execute((trx) => setLiked(trx, userId, chapterId, liked));
    if (likes === null) throw notFound("Chapter not found");
    return { liked, likes };
  }
  return {
    like: (userId: number, seriesName: string, number: number) => set(userId, seriesName, number, true),
    unlike: (userId: number, seriesName: string, number: number) => set(userId, seriesName, number, false),
  };
}
