import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import type { Caller } from "../http/auth.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { createChapterService } from "../chapters/chapters.service.ts";
import { createHubService } from "../hubs/hubs.service.ts";
import { createRedaction } from "../moderation/redaction.service.ts";
import { removedOf, type Within } from "../moderation/removed.ts";
import { noVerifiedEmailCheck, type VerifiedEmailCheck } from "../moderation/write-guards.service.ts";
import type { CommentSort, NewCommentInput } from "../rules/comment.ts";
import type { Paging } from "../rules/paging.ts";
import { mayDeleteComment, mayEditComment, type Actor } from "../rules/permissions.ts";
import type { Comment, CommentDeleted, Page } from "../rules/api-responses.ts";
import { createSeriesService } from "../series/series.service.ts";
import { hidingBlocksOf, withHidden, type PageHiding } from "../blocks/blocks.service.ts";
import type { FlagsOf } from "../viewer/shared-answers.ts";
import { createCommentWrites } from "./comment-writes.service.ts";
import type { NotificationMail } from "../notifications/notification-mail.ts";
import { createCommentHidingQueries } from "./comments-hiding.queries.ts";
import { createCommentQueries, type CommentAbout, type CommentRow, type Place, type PlaceRemoval } from "./comments.queries.ts";

/** Who reads a list: the removed comments they may see, the blocks whose authors it leaves out; null: a guest. */
export type Viewer = Pick<Caller, "id" | "isAdmin" | "blockCount"> | null;

/** How a list is asked for: its order and page, and `includeBlocked=true` to list blocked authors' comments too. */
export interface CommentListing {
  sort: CommentSort;
  paging: Paging;
  includeBlocked?: "true" | "false";
}

/** The removed things a comment is in, nearest first: its post or chapter, then the hub or series (docs/api.md "Removal"). */
const withinOf = (place: PlaceRemoval): Within[] => [
  { container: "post", reason: place.postRemoved },
  { container: "chapter", reason: place.chapterRemoved },
  { container: "hub", reason: place.hubRemoved },
  { container: "series", reason: place.seriesRemoved },
];

/**
 * A tombstone shows no content and no author (docs/api.md §10); `removed` is moderation's (issue 14), its own or that
 * of what it is in.
 */
const toComment = (row: CommentRow, liked: boolean, within: Within[]): Comment => ({
  id: row.id,
  content: row.deletedAt === null ? row.content : "",
  authorId: row.authorId,
  authorName: row.authorName,
  authorImageId: row.authorImageId,
  createdAt: toIso(row.createdAt),
  editedAt: row.editedAt === null ? null : toIso(row.editedAt),
  likes: row.likes,
  likedByMe: liked,
  parentId: row.parentId,
  replyCount: row.replyCount,
  deleted: row.deletedAt !== null,
  removed: removedOf(row, ...within),
});

/**
 * Who may delete a comment (server/rules/permissions.ts): its author; a moderator of the hub for comments on its
 * posts (its creator, the moderators added to it); the series' author for comments on its chapters; an admin.
 */
const mayDelete = (about: CommentAbout, actor: Actor) =>
  mayDeleteComment(
    actor,
    about,
    about.postId !== null
      ? { hub: { authorId: about.hubCreatorId!, actorIsModerator: about.viewerModerates === 1 } }
      : { seriesAuthorId: about.seriesAuthorId! },
  );

const placeOf = (about: CommentAbout): Place =>
  about.postId !== null ? { column: "postId", id: about.postId } : { column: "chapterId", id: about.chapterId! };

/** `verifiedEmail`: REQUIRE_VERIFIED_EMAIL's check of new comments and replies (off unless given). */
export function createCommentService(db: Database, mail: NotificationMail, verifiedEmail: VerifiedEmailCheck = noVerifiedEmailCheck) {
  const comments = createCommentQueries(db);
  const hiding = createCommentHidingQueries(db);
  const writes = createCommentWrites(db, mail);
  const hubs = createHubService(db);
  const series = createSeriesService(db);
  const chapters = createChapterService(db);
  const redaction = createRedaction(db);

  async function get(id: number, viewerId?: number): Promise<Comment> {
    const found = await comments.byId(id, viewerId);
    if (!found) throw notFound("Comment not found");
    return toComment(found.row, found.liked, withinOf(found.place));
  }

  /** `within`: the removal of the page's post or chapter and its hub or series, read once for the page. */
  async function page(rows: CommentRow[], total: number, paging: Paging, within: Within[], viewerId?: number): Promise<Page<Comment>> {
    const liked = await comments.likedBy(
      viewerId,
      rows.map((r) => r.id),
    );
    return pageOf(
      rows.map((r) => toComment(r, liked.has(r.id), within)),
      total,
      paging,
    );
  }

  /**
   * A page as the viewer gets it: removed comments' content left out unless they may see it (the redaction), and
   * `hidden` for a viewer who blocks someone (server/blocks).
   */
  const shown = async (list: PageHiding<Comment>, viewer: Viewer) => withHidden(await redaction.commentPage(list, viewer), viewer);

  /**
   * `total`: the place's threadCount, read with the check that the place exists. `hidingBlocksOf`: the viewer whose
   * blocked users' comments are left out and counted in `hidden` (server/blocks).
   */
  async function listOn(place: Place, total: number, within: Within[], listing: CommentListing, viewer: Viewer) {
    const { sort, paging } = listing;
    const viewerId = viewer?.id;
    const hidingOf = hidingBlocksOf(viewer, listing.includeBlocked);
    const offset = offsetOf(paging);
    if (hidingOf !== undefined) {
      const hidden = await hiding.hiddenTopLevel(place, hidingOf);
      const count = total - hidden;
      const rows = offset < count ? await hiding.topLevelPageHiding(place, sort, paging.perPage, offset, hidingOf) : [];
      return shown({ ...(await page(rows, count, paging, within, viewerId)), hidden }, viewer);
    }
    const rows = offset < total ? await comments.topLevelPage(place, sort, paging.perPage, offset, total) : [];
    return shown(await page(rows, total, paging, within, viewerId), viewer);
  }

  /** The post, when it is in this hub (a post is reached under its own hub's path only). */
  async function postPlace(hubName: string, postId: number): Promise<Place & { threads: number; within: Within[] }> {
    const post = await comments.postThreads(postId, await hubs.resolveId(hubName, "Post not found"));
    if (post === undefined) throw notFound("Post not found");
    return { column: "postId", id: postId, threads: post.threadCount, within: withinOf(post) };
  }

  /** The chapter by its series' name (or id) and number. */
  async function chapterId(seriesName: string, chapterNumber: number): Promise<number> {
    return chapters.resolveId(await series.resolveRef(seriesName, "Chapter not found"), chapterNumber);
  }

  /** The comment, live (not a tombstone), or 404. */
  async function aboutLive(id: number, viewerId: number): Promise<CommentAbout> {
    const about = await comments.about(id, viewerId);
    if (!about || about.deletedAt !== null) throw notFound("Comment not found");
    return about;
  }

  async function commentOn(place: Place, input: NewCommentInput, authorId: number): Promise<Comment> {
    await verifiedEmail(db.kysely, authorId);
    const { id } = await writes.insert(place, { authorId, content: input.content, parentId: input.parentId ?? null });
    return get(id, authorId);
  }

  return {
    get,

    /** The viewer's `likedByMe` of these comments, for an answer shared by everyone (server/viewer/shared-answers.ts): one read. */
    async likedFlags(ids: number[], viewerId: number): Promise<FlagsOf> {
      const liked = await comments.likedBy(viewerId, ids);
      return (id) => ({ likedByMe: liked.has(id) });
    },

    /** A post's top-level comments (tombstones included), as `viewer` sees them. */
    async listOnPost(hubName: string, postId: number, listing: CommentListing, viewer: Viewer): Promise<PageHiding<Comment>> {
      const post = await postPlace(hubName, postId);
      return listOn(post, post.threads, post.within, listing, viewer);
    },

    /** A chapter's top-level comments (tombstones included), as `viewer` sees them. */
    async listOnChapter(seriesName: string, chapterNumber: number, listing: CommentListing, viewer: Viewer): Promise<PageHiding<Comment>> {
      const id = await chapterId(seriesName, chapterNumber);
      const chapter = await comments.chapterThreads(id);
      if (chapter === undefined) throw notFound("Chapter not found");
      return listOn({ column: "chapterId", id }, chapter.threadCount, withinOf(chapter), listing, viewer);
    },

    /** A top-level comment's replies, oldest first; a reply has none (replies of replies live in its thread). */
    async replies(id: number, listing: Omit<CommentListing, "sort">, viewer: Viewer): Promise<PageHiding<Comment>> {
      const { paging } = listing;
      const thread = await comments.thread(id);
      if (!thread) throw notFound("Comment not found");
      if (thread.parentId !== null) return shown(pageOf([], 0, paging), viewer);
      const hidingOf = hidingBlocksOf(viewer, listing.includeBlocked);
      if (hidingOf !== undefined) {
        const hidden = await hiding.hiddenReplies(id, hidingOf);
        const count = thread.replyCount - hidden;
        const offset = offsetOf(paging);
        const rows = offset < count ? await hiding.replyPageHiding(id, paging.perPage, offset, hidingOf) : [];
        return shown({ ...(await page(rows, count, paging, withinOf(thread), viewer?.id)), hidden }, viewer);
      }
      const rows = await comments.replyPage(id, paging.perPage, offsetOf(paging));
      return shown(await page(rows, thread.replyCount, paging, withinOf(thread), viewer?.id), viewer);
    },

    commentOnPost: async (hubName: string, postId: number, input: NewCommentInput, authorId: number) =>
      commentOn(await postPlace(hubName, postId), input, authorId),

    commentOnChapter: async (seriesName: string, chapterNumber: number, input: NewCommentInput, authorId: number) =>
      commentOn({ column: "chapterId", id: await chapterId(seriesName, chapterNumber) }, input, authorId),

    /** The author only; sets editedAt; people newly mentioned are told. */
    async edit(id: number, content: string, userId: number): Promise<Comment> {
      const about = await aboutLive(id, userId);
      if (!mayEditComment({ id: userId }, about)) throw forbidden("Only the author can edit this comment");
      await writes.edit(id, placeOf(about), userId, content);
      return get(id, userId);
    },

    /** Answers whether the comment stays as a tombstone (it has replies). */
    async remove(id: number, actor: Actor): Promise<CommentDeleted> {
      const about = await aboutLive(id, actor.id);
      if (!mayDelete(about, actor)) throw forbidden("You cannot delete this comment");
      const removed = await writes.remove(id, placeOf(about));
      if (!removed) throw notFound("Comment not found");
      return { id, deleted: true, tombstone: removed.tombstone };
    },
  };
}
