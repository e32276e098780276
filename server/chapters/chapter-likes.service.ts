import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";
import { refuseRemoved } from "../moderation/removed-guard.ts";

export function createChapterLikeService(db: Database) {
  const setLiked = createCountedToggle(
    db,
    {
      link: "ChapterLike",
      targetColumn: "chapterId",
      target: "Chapter",
      counter: "likes",
      timestamped: false,
      notFoundMessage: "Chapter not found",
    },
    undefined,
    (trx, chapterId) => refuseRemoved(trx, "chapter", chapterId),
  );
  return {
    like: async (userId: number, chapterId: number) => ({ liked: true, likes: await setLiked(userId, chapterId, true) }),
    unlike: async (userId: number, chapterId: number) => ({ liked: false, likes: await setLiked(userId, chapterId, false) }),
  };
}
