import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { removedOf, type Within } from "../moderation/removed.ts";
import type { NewNotification } from "../notifications/notify.ts";
import type { CommentSort, NewCommentInput } from "../rules/comment.ts";
import type { Paging } from "../rules/paging.ts";
import { mayDeleteComment, type Actor } from "../rules/permissions.ts";
import type { Comment, CommentDeleted, Page } from "../rules/responses.ts";
import type { PageHiding } from "../blocks/blocks.service.ts";
import { createCommentHidingQueries } from "./comments-hiding.queries.ts";
import {
  createCommentQueries,
  type CommentAbout,
  type CommentRow,
  type NewCommentFacts,
  type Place,
  type PlaceRemoval,
} from "./comments.queries.ts";

type Told = Omit<NewNotification, "createdAt">;

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

/** The subject columns of a notification about a comment on this place. */
const subjectOf = (place: Place, commentId: number) => ({ commentId, [place.column]: place.id });

/**
 * Who is told about a new comment, strongest first (insertNotifications keeps one per person and none for the
 * author): the author of the comment answered, the post's or chapter's author for a top-level comment, then each
 * person mentioned.
 */
export function newCommentNotifications(place: Place, actorId: number, facts: NewCommentFacts): Told[] {
  const subject = subjectOf(place, facts.commentId);
  const told: Told[] = [];
  if (facts.answeredAuthorId !== null) told.push({ userId: facts.answeredAuthorId, kind: "reply", actorId, ...subject });
  if (!facts.isReply) told.push({ userId: facts.placeAuthorId, kind: "comment", actorId, ...subject });
  for (const userId of facts.mentionedIds) told.push({ userId, kind: "mention", actorId, ...subject });
  return told;
}

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

export function createCommentService(db: Database) {
  const comments = createCommentQueries(db);
  const hiding = createCommentHidingQueries(db);

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
   * `total`: the place's threadCount, read with the check that the place exists. `hidingBlocksOf`: the viewer whose
   * blocked users' comments are left out and counted in `hidden` (server/blocks).
   */
  async function listOn(
    place: Place,
    total: number,
    within: Within[],
    sort: CommentSort,
    paging: Paging,
    viewerId?: number,
    hidingBlocksOf?: number,
  ): Promise<PageHiding<Comment>> {
    const offset = offsetOf(paging);
    if (hidingBlocksOf !== undefined) {
      const hidden = await hiding.hiddenTopLevel(place, hidingBlocksOf);
      const shown = total - hidden;
      const rows = offset < shown ? await hiding.topLevelPageHiding(place, sort, paging.perPage, offset, hidingBlocksOf) : [];
      return { ...(await page(rows, shown, paging, within, viewerId)), hidden };
    }
    const rows = offset < total ? await comments.topLevelPage(place, sort, paging.perPage, offset, total) : [];
    return page(rows, total, paging, within, viewerId);
  }

  async function commentOn(place: Place, input: NewCommentInput, authorId: number): Promise<Comment> {
    const result = await comments.insert(place, { authorId, content: input.content, parentId: input.parentId ?? null }, (facts) =>
      newCommentNotifications(place, authorId, facts),
    );
    if ("problem" in result) {
      if (result.problem === "no-place") throw notFound(place.column === "postId" ? "Post not found" : "Chapter not found");
      throw badRequest("parentId must name a comment of the same post or chapter", [
        { field: "parentId", message: "parentId must name a comment of the same post or chapter" },
      ]);
    }
    return get(result.id, authorId);
  }

  /** The post, when it is in this hub (a post is reached under its own hub's path only). */
  async function postPlace(hubId: number, postId: number): Promise<Place & { threads: number; within: Within[] }> {
    const post = await comments.postThreads(postId, hubId);
    if (post === undefined) throw notFound("Post not found");
    return { column: "postId", id: postId, threads: post.threadCount, within: withinOf(post) };
  }

  /** The comment, live (not a tombstone), or 404. */
  async function aboutLive(id: number, viewerId: number): Promise<CommentAbout> {
    const about = await comments.about(id, viewerId);
    if (!about || about.deletedAt !== null) throw notFound("Comment not found");
    return about;
  }

  return {
    get,

    async listOnPost(hubId: number, postId: number, sort: CommentSort, paging: Paging, viewerId?: number, hidingBlocksOf?: number) {
      const post = await postPlace(hubId, postId);
      return listOn(post, post.threads, post.within, sort, paging, viewerId, hidingBlocksOf);
    },

    async listOnChapter(chapterId: number, sort: CommentSort, paging: Paging, viewerId?: number, hidingBlocksOf?: number) {
      const chapter = await comments.chapterThreads(chapterId);
      if (chapter === undefined) throw notFound("Chapter not found");
      return listOn({ column: "chapterId", id: chapterId }, chapter.threadCount, withinOf(chapter), sort, paging, viewerId, hidingBlocksOf);
    },

    /**
     * A top-level comment's replies, oldest first; a reply has none (replies of replies live in its thread).
     * `hidingBlocksOf`: as listOn.
     */
    async replies(id: number, paging: Paging, viewerId?: number, hidingBlocksOf?: number): Promise<PageHiding<Comment>> {
      const thread = await comments.thread(id);
      if (!thread) throw notFound("Comment not found");
      if (thread.parentId !== null) return pageOf([], 0, paging);
      if (hidingBlocksOf !== undefined) {
        const hidden = await hiding.hiddenReplies(id, hidingBlocksOf);
        const shown = thread.replyCount - hidden;
        const offset = offsetOf(paging);
        const rows = offset < shown ? await hiding.replyPageHiding(id, paging.perPage, offset, hidingBlocksOf) : [];
        return { ...(await page(rows, shown, paging, withinOf(thread), viewerId)), hidden };
      }
      return page(await comments.replyPage(id, paging.perPage, offsetOf(paging)), thread.replyCount, paging, withinOf(thread), viewerId);
    },

    commentOnPost: async (hubId: number, postId: number, input: NewCommentInput, authorId: number) =>
      commentOn(await postPlace(hubId, postId), input, authorId),

    commentOnChapter: (chapterId: number, input: NewCommentInput, authorId: number) =>
      commentOn({ column: "chapterId", id: chapterId }, input, authorId),

    /** The author only; sets editedAt; people newly mentioned are told. */
    async edit(id: number, content: string, userId: number): Promise<Comment> {
      const about = await aboutLive(id, userId);
      if (about.authorId !== userId) throw forbidden("Only the author can edit this comment");
      const place = placeOf(about);
      const edited = await comments.edit(id, userId, content, (mentionedIds) =>
        mentionedIds.map((mentioned) => ({ userId: mentioned, kind: "mention" as const, actorId: userId, ...subjectOf(place, id) })),
      );
      if (!edited) throw notFound("Comment not found");
      return get(id, userId);
    },

    /** Answers whether the comment stays as a tombstone (it has replies). */
    async remove(id: number, actor: Actor): Promise<CommentDeleted> {
      const about = await aboutLive(id, actor.id);
      if (!mayDelete(about, actor)) throw forbidden("You cannot delete this comment");
      const removed = await comments.remove(id, placeOf(about));
      if (!removed) throw notFound("Comment not found");
      return { id, deleted: true, tombstone: removed.tombstone };
    },
  };
}
