import { sql } from "kysely";
import { createCommentWrites, newCommentNotifications } from "../server/comments/comment-writes.service.ts";
import { createCommentQueries, type Place } from "../server/comments/comments.queries.ts";
import type { Database } from "../server/db/database.ts";
import type { Executor } from "../server/db/prepared.ts";
import { insertNotifications, type NewNotification } from "../server/notifications/notify.ts";
import { noNotificationMail } from "../server/notifications/notification-mail.ts";
import { NewCommentBody } from "../server/rules/comment.ts";
import type { CommentPlace, DiscussionPlan } from "./demo-discussion-plan.ts";
import type { DemoPlan } from "./demo-plan.ts";

/** The ids the rest of the demo was written with. */
export interface WrittenIds {
  user: (username: string) => number;
  posts: Map<string, number>;
  /** Keyed `series#number`. */
  chapters: Map<string, number>;
  series: Map<string, number>;
  hubs: Map<string, number>;
}

export const chapterKey = (series: string, number: number) => `${series}#${number}`;

export interface DiscussionCounts {
  comments: number;
  commentLikes: number;
  notifications: number;
}

/**
 * Writes the demo's discussion on `trx`, the seed's one transaction: every comment through the API's own insert unit
 * (its counters, its thread's replyCount and its notifications, decided by the comment service's own rule), at the
 * plan's dates; the deleted one through the delete unit; then the likes, and the notifications of the demo's follows,
 * joins and chapters through `insertNotifications`, the one maker of notifications. Notifications made before their
 * recipient last looked are made read.
 */
export async function writeDemoDiscussion(
  trx: Executor,
  db: Database,
  plan: DemoPlan,
  discussion: DiscussionPlan,
  ids: WrittenIds,
): Promise<DiscussionCounts> {
  const comments = createCommentQueries(db);
  // The demo's history mails nobody.
  const writes = createCommentWrites(db, noNotificationMail);
  const readUntil = new Map([...discussion.readUntil].map(([username, at]) => [ids.user(username), at]));
  const withReadState = <N extends { userId: number }>(n: N, createdAt: number) => {
    const until = readUntil.get(n.userId);
    return { ...n, readAt: until !== undefined && createdAt <= until ? until : null };
  };
  const placeOf = (place: CommentPlace): Place => {
    const id = place.kind === "post" ? ids.posts.get(place.title) : ids.chapters.get(chapterKey(place.series, place.number));
    if (id === undefined) throw new Error(`The demo has no ${place.kind} for a planned comment`);
    return { column: place.kind === "post" ? "postId" : "chapterId", id };
  };

  const commentIds: number[] = [];
  for (const planned of discussion.comments) {
    const place = placeOf(planned.place);
    const authorId = ids.user(planned.author);
    const input = NewCommentBody.parse({
      content: planned.content,
      parentId: planned.answers === null ? null : commentIds[planned.answers],
    });
    const { id } = await writes.insertWithin(
      trx,
      place,
      { authorId, content: input.content, parentId: input.parentId ?? null, createdAt: planned.at },
      (facts) => newCommentNotifications(place, authorId, facts).map((n) => withReadState(n, planned.at)),
    );
    commentIds.push(id);
  }

  // Comment likes carry no date: the link rows, then each comment's count from them (createCountedToggle runs its own
  // transaction, so it cannot take part in the seed's).
  const likes = discussion.comments.flatMap((c) => c.likers.map((liker) => ({ userId: ids.user(liker), commentId: commentIds[c.key]! })));
  for (let i = 0; i < likes.length; i += 500)
    await trx
      .insertInto("CommentLike")
      .values(likes.slice(i, i + 500))
      .execute();
  await sql`UPDATE "Comment" SET "likes" = (SELECT COUNT(*) FROM "CommentLike" l WHERE l."commentId" = "Comment"."id")`.execute(trx);

  for (const planned of discussion.comments) {
    if (planned.deletedAt === undefined) continue;
    await comments.removeWithin(trx, commentIds[planned.key]!, placeOf(planned.place), planned.deletedAt);
  }

  // One call per action: insertNotifications tells each person once per action.
  const tell = (n: NewNotification) => insertNotifications(trx, [withReadState(n, n.createdAt)], noNotificationMail);
  for (const hub of plan.hubs) {
    for (const member of hub.members)
      await tell({
        userId: ids.user(hub.owner),
        kind: "join",
        actorId: ids.user(member.username),
        hubId: ids.hubs.get(hub.name)!,
        createdAt: member.at,
      });
  }
  for (const series of plan.series) {
    const authorId = ids.user(series.author);
    for (const follower of series.followers)
      await tell({
        userId: authorId,
        kind: "follow",
        actorId: ids.user(follower.username),
        seriesId: ids.series.get(series.name)!,
        createdAt: follower.at,
      });
    // As the chapter job does: the followers who followed by the chapter's date, from its author, dated the chapter's date.
    for (const chapter of series.chapters) {
      const readers = series.followers.filter((f) => f.at <= chapter.date);
      if (readers.length === 0) continue;
      await insertNotifications(
        trx,
        readers.map((f) =>
          withReadState(
            {
              userId: ids.user(f.username),
              kind: "chapter" as const,
              actorId: authorId,
              chapterId: ids.chapters.get(chapterKey(series.name, chapter.number))!,
              createdAt: chapter.date,
            },
            chapter.date,
          ),
        ),
        noNotificationMail,
      );
    }
  }

  const count = async (table: "Comment" | "CommentLike" | "Notification") =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { comments: await count("Comment"), commentLikes: await count("CommentLike"), notifications: await count("Notification") };
}
