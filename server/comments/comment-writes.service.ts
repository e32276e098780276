import { refuseBlockers } from "../blocks/blocks.service.ts";
import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import type { Executor } from "../db/prepared.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { embeddedImageIds } from "../images/image-refs.ts";
import { useImages } from "../images/own-images.ts";
import { createHubBanChecks, refuseRemoved } from "../moderation/write-guards.service.ts";
import { mentionedUserIds } from "../notifications/mentions.ts";
import { insertNotifications, toldAbout, type NewNotification } from "../notifications/notify.ts";
import type { NotificationMail } from "../notifications/notification-mail.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { findMentions } from "../rules/mentions.ts";
import { createCommentQueries, type NewCommentFacts, type Place } from "./comments.queries.ts";

type Told = Omit<NewNotification, "createdAt">;

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

const PARENT_MESSAGE = "parentId must name a comment of the same post or chapter";
const badParent = () => badRequest(PARENT_MESSAGE, [{ field: "parentId", message: PARENT_MESSAGE }]);

export interface NewComment {
  authorId: number;
  content: string;
  parentId: number | null;
  /** The demo seed's history is dated; else now. */
  createdAt?: number;
}

/**
 * The writing units of comments (docs/decisions/017-discussion.md): each locks the post's or chapter's row first,
 * then the thread's top-level comment, and a refusal thrown inside rolls the whole unit back.
 */
export function createCommentWrites(db: Database, mail: NotificationMail) {
  const comments = createCommentQueries(db);
  const bans = createHubBanChecks(db);

  /**
   * The comment, its post's or chapter's commentCount (and threadCount), its thread's replyCount, its embedded images
   * published and its notifications (`notify` says who is told): one unit, on the caller's transaction. A `parentId`
   * naming a reply is stored in that reply's thread. 404 without the place, 403 when it (or what holds it) is removed,
   * the author is banned from its hub or the one answered or mentioned blocks them, 400 for a parent elsewhere.
   */
  async function insertWithin(
    trx: Executor,
    place: Place,
    input: NewComment,
    notify: (facts: NewCommentFacts) => Told[] = (facts) => newCommentNotifications(place, input.authorId, facts),
  ): Promise<{ id: number }> {
    const placeRow = await comments.lockPlace(trx, place, 1, input.parentId === null ? 1 : 0);
    if (!placeRow) throw notFound(place.column === "postId" ? "Post not found" : "Chapter not found");
    await refuseRemoved(trx, place.column === "postId" ? "post" : "chapter", place.id);
    // A hub ban reaches the comments on its posts (chapters are in no hub).
    if (place.column === "postId") await bans.onPost(trx, place.id, input.authorId);
    let threadId: number | null = null;
    let answeredAuthorId: number | null = null;
    if (input.parentId !== null) {
      const named = await comments.named(trx, input.parentId);
      if (!named || named[place.column] !== place.id) throw badParent();
      threadId = named.parentId ?? named.id;
      const thread = await comments.countReply(trx, threadId, 1);
      if (!thread) throw badParent();
      answeredAuthorId = named.parentId === null ? thread.authorId : named.authorId;
    }
    const createdAt = input.createdAt ?? nowMs();
    const id = await comments.insertRow(trx, place, { authorId: input.authorId, content: input.content, parentId: threadId, createdAt });
    await useImages(trx, input.authorId, "comment", id, embeddedImageIds(input.content));
    const mentionedIds = await mentionedUserIds(trx, findMentions(input.content));
    await refuseBlockers(trx, input.authorId, { answeredAuthorId, mentionedIds });
    const facts = { commentId: id, placeAuthorId: placeRow.authorId, answeredAuthorId, isReply: threadId !== null, mentionedIds };
    await insertNotifications(
      trx,
      notify(facts).map((n) => ({ ...n, createdAt })),
      mail,
    );
    return { id };
  }

  return {
    insertWithin,

    /** The insert unit in its own transaction: the new comment's id. */
    insert: async (place: Place, input: NewComment): Promise<{ id: number }> => {
      const made = await db.kysely.transaction().execute((trx) => insertWithin(trx, place, input));
      wakeJobRunners(db); // its notification mail, if any, goes now
      return made;
    },

    /**
     * The new content and `editedAt`, its newly embedded images published, and a notification to each person newly
     * mentioned: one unit. 404 when the comment is gone (deleted meanwhile, or a tombstone); 403 when someone newly
     * mentioned blocks the editor.
     */
    edit: (id: number, place: Place, editorId: number, content: string): Promise<void> =>
      editWithin(id, place, editorId, content).then(() => wakeJobRunners(db)),

    /** The delete unit (comments.queries.ts `removeWithin`) in its own transaction; undefined: it was already gone. */
    remove: (id: number, place: Place) => db.kysely.transaction().execute((trx) => comments.removeWithin(trx, id, place, nowMs())),
  };

  function editWithin(id: number, place: Place, editorId: number, content: string): Promise<void> {
    return db.kysely.transaction().execute(async (trx) => {
      const current = await comments.lockLive(trx, id);
      if (!current) throw notFound("Comment not found");
      const editedAt = nowMs();
      await comments.setContent(trx, id, content, editedAt);
      await useImages(trx, editorId, "comment", id, embeddedImageIds(content));
      const before = new Set(findMentions(current.content));
      const mentioned = await mentionedUserIds(
        trx,
        findMentions(content).filter((key) => !before.has(key)),
      );
      await refuseBlockers(trx, editorId, { mentionedIds: mentioned });
      // Someone mentioned in an earlier version (or told of this comment otherwise) is not told again.
      const told = await toldAbout(trx, { commentId: id }, mentioned);
      await insertNotifications(
        trx,
        mentioned
          .filter((userId) => !told.has(userId))
          .map((userId) => ({ userId, kind: "mention" as const, actorId: editorId, ...subjectOf(place, id), createdAt: editedAt })),
        mail,
      );
    });
  }
}
