import { sql } from "kysely";
import type { Executor } from "../db/prepared.ts";
import { blockedPairs, pairKey } from "../blocks/blocks.queries.ts";
import type { NotificationKind } from "../db/schema.ts";
import type { NotificationMail } from "./notification-mail.ts";

/** A notification to make: its recipient, kind, actor and the subject columns its kind uses (schema.prisma, Notification). */
export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  actorId: number | null;
  commentId?: number | null;
  postId?: number | null;
  chapterId?: number | null;
  seriesId?: number | null;
  hubId?: number | null;
  createdAt: number;
  /** Made already read (the demo seed's history); unset: unread, and counted. */
  readAt?: number | null;
}

/**
 * Makes notifications on `on` (the caller's transaction, so they exist exactly when the action does) and moves
 * each recipient's unread count with them. None is made for the actor's own action, and one action tells a
 * person once: the first row for a recipient wins, so callers list the strongest kind first (a reply before a
 * mention of the same person), and none for someone who blocks the actor. docs/decisions/017-discussion.md.
 * `mail` queues the instant mail of the unread ones on the same transaction (docs/api.md "Notification mail").
 */
export async function insertNotifications(on: Executor, notifications: NewNotification[], mail: NotificationMail): Promise<void> {
  const seen = new Set<number>();
  const told = notifications.filter((n) => {
    if (n.userId === n.actorId || seen.has(n.userId)) return false;
    seen.add(n.userId);
    return true;
  });
  // Nobody is told about someone they block (docs/api.md §11, "Blocks"): one query for the whole list.
  const blocked = await blockedPairs(
    on,
    told.flatMap((n) => (n.actorId === null ? [] : [{ userId: n.userId, actorId: n.actorId }])),
  );
  const rows = blocked.size === 0 ? told : told.filter((n) => n.actorId === null || !blocked.has(pairKey(n.userId, n.actorId)));
  if (rows.length === 0) return;
  const made = await on
    .insertInto("Notification")
    .values(
      rows.map((n) => ({
        userId: n.userId,
        kind: n.kind,
        actorId: n.actorId,
        commentId: n.commentId ?? null,
        postId: n.postId ?? null,
        chapterId: n.chapterId ?? null,
        seriesId: n.seriesId ?? null,
        hubId: n.hubId ?? null,
        createdAt: n.createdAt,
        readAt: n.readAt ?? null,
      })),
    )
    .returning(["id", "readAt"])
    .execute();
  const unread = rows.filter((n) => (n.readAt ?? null) === null);
  if (unread.length === 0) return;
  await mail.queue(
    on,
    made.filter((n) => n.readAt === null).map((n) => n.id),
  );
  await on
    .updateTable("User")
    .set({ unreadNotifications: sql`"unreadNotifications" + 1` })
    .where(
      "id",
      "in",
      unread.map((n) => n.userId),
    )
    .execute();
}

/**
 * Who among `userIds` has been told about this comment already (a reply, comment or mention notification), or about
 * this post itself (a mention in its text): an edit tells only the people it mentions there for the first time, so
 * mentioning someone, editing them out and back in tells them once (docs/api.md "Notifications").
 */
export async function toldAbout(
  on: Executor,
  subject: { commentId: number } | { postId: number },
  userIds: number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const about =
    "commentId" in subject
      ? on.selectFrom("Notification").where("commentId", "=", subject.commentId)
      : on.selectFrom("Notification").where("postId", "=", subject.postId).where("commentId", "is", null);
  const rows = await about.select("userId").where("userId", "in", userIds).execute();
  return new Set(rows.map((r) => r.userId));
}

/**
 * Removes the notifications about comments that are gone (deleted, or their post or chapter deleted), moving the
 * unread counts of their recipients down, on the caller's transaction.
 */
export async function deleteCommentNotifications(on: Executor, commentIds: number[]): Promise<void> {
  if (commentIds.length === 0) return;
  const unread = await on
    .selectFrom("Notification")
    .select(["userId", (eb) => eb.fn.countAll<number>().as("n")])
    .where("commentId", "in", commentIds)
    .where("readAt", "is", null)
    .groupBy("userId")
    .execute();
  for (const { userId, n } of unread) {
    await on
      .updateTable("User")
      .set({ unreadNotifications: sql`"unreadNotifications" - ${Number(n)}` })
      .where("id", "=", userId)
      .execute();
  }
  await on.deleteFrom("Notification").where("commentId", "in", commentIds).execute();
}
