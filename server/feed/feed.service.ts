import { hidingBlocksOf, withHidden, type PageHiding } from "../blocks/blocks.service.ts";
import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { linkedIds } from "../db/counted-toggle.ts";
import { chapterCards } from "../chapters/chapters.queries.ts";
import { toSummary as toChapterSummary } from "../chapters/chapters.service.ts";
import type { Caller } from "../http/auth.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { createRedaction } from "../moderation/redaction.service.ts";
import { postCards } from "../posts/posts.queries.ts";
import { toSummary as toPostSummary } from "../posts/posts.service.ts";
import { readAmong } from "../progress/progress.queries.ts";
import type { Paging } from "../rules/paging.ts";
import type { FeedItem } from "../rules/api-responses.ts";
import { createFeedQueries } from "./feed.queries.ts";

/** The feed holds the newest 1,000 items, as the peers' home timelines do (docs/decisions/017-discussion.md). */
export const FEED_MAX_ITEMS = 1000;

export function createFeedService(db: Database) {
  const feed = createFeedQueries(db);
  const { kysely } = db;
  const redaction = createRedaction(db);
  return {
    /**
     * New chapters of the series the viewer follows and new posts of the hubs they joined, newest first. A blocker's feed
     * leaves out their blocked users' posts, counted in `hidden`, unless `includeBlocked` (server/blocks).
     */
    async list(
      viewer: Pick<Caller, "id" | "isAdmin" | "blockCount">,
      paging: Paging,
      includeBlocked?: "true" | "false",
    ): Promise<PageHiding<FeedItem>> {
      const userId = viewer.id;
      const hiding = hidingBlocksOf(viewer, includeBlocked) !== undefined;
      const { total, rows, hidden } = await feed.page(userId, FEED_MAX_ITEMS, paging.perPage, offsetOf(paging), hiding);
      const chapterIds = rows.filter((r) => r.type === "chapter").map((r) => r.id);
      const postIds = rows.filter((r) => r.type === "post").map((r) => r.id);
      // The items are the chapter and post lists' own cards, read by id in one query each.
      const [chapters, posts, likedChapters, likedPosts, readChapters] = await Promise.all([
        chapterCards(kysely, chapterIds),
        postCards(kysely, postIds),
        linkedIds(kysely, { link: "ChapterLike", targetColumn: "chapterId" }, userId, chapterIds),
        linkedIds(kysely, { link: "PostLike", targetColumn: "postId" }, userId, postIds),
        readAmong(kysely, userId, chapterIds),
      ]);
      const chapterById = new Map(chapters.map((c) => [c.id, c]));
      const postById = new Map(posts.map((p) => [p.id, p]));
      const items = rows.flatMap((r): FeedItem[] => {
        const date = toIso(Number(r.date));
        if (r.type === "chapter") {
          const chapter = chapterById.get(r.id);
          return chapter
            ? [{ type: "chapter", date, chapter: toChapterSummary(chapter, likedChapters.has(r.id), readChapters.has(r.id)) }]
            : [];
        }
        const post = postById.get(r.id);
        return post ? [{ type: "post", date, post: toPostSummary(post, likedPosts.has(r.id)) }] : [];
      });
      const page = pageOf(items, total, paging);
      // Removed posts and chapters blanked unless the viewer may see them; `hidden` for a blocker (server/blocks).
      return withHidden(await redaction.feed(hidden === undefined ? page : { ...page, hidden }, viewer), viewer);
    },
  };
}
