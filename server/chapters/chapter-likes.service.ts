import type { Database } from "../db/database.ts";
import { createCountedToggle } from "../db/counted-toggle.ts";

export function createChapterLikeService(db: Database) {
  const setLiked = createCountedToggle(db.sqlite, {
    link: "ChapterLike",
    targetColumn: "chapterId",
    target: "Chapter",
    counter: "likes",
    timestamped: false,
    notFoundMessage: "Chapter not found",
  });
  return {
    like: (userId: number, chapterId: number) => ({ liked: true, likes: setLiked(userId, chapterId, true) }),
    unlike: (userId: number, chapterId: number) => ({ liked: false, likes: setLiked(userId, chapterId, false) }),
  };
}
