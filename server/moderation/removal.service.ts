import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import type { Executor } from "../db/prepared.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { mayRemove, mayRestore, type Actor, type RemovalFacts } from "../rules/permissions.ts";
import type { RemovableType, RemovalState, RemovalSubject } from "../rules/removal.ts";
import { removalQueries as q, type RemovalRow } from "./removal.queries.ts";

const NOT_FOUND: Record<RemovableType, string> = {
  post: "Post not found",
  comment: "Comment not found",
  chapter: "Chapter not found",
  series: "No series found.",
  hub: "No hub found.",
};

/** How much of a comment the mod log copies as its title. */
const COMMENT_TITLE_CHARS = 80;

const factsOf = (type: RemovableType, row: RemovalRow): RemovalFacts => ({
  type,
  authorId: row.authorId,
  actorModerates: row.actorModerates === 1,
  removedById: row.removedById,
});

const titleOf = (type: RemovableType, row: RemovalRow) =>
  type === "comment" ? Array.from(row.title).slice(0, COMMENT_TITLE_CHARS).join("") : row.title;

async function change(trx: Executor, actor: Actor, subject: RemovalSubject, reason: string, remove: boolean): Promise<RemovalState> {
  const row = await q.lookup(trx, subject.type, subject.id, actor.id);
  if (!row) throw notFound(NOT_FOUND[subject.type]);
  const facts = factsOf(subject.type, row);
  if (remove ? !mayRemove(actor, facts) : !mayRestore(actor, facts)) {
    throw forbidden(
      remove ? "Only those who may delete or moderate this can remove it" : "Only its moderators (or whoever removed it) can restore this",
    );
  }
  const state = (removed: RemovalState["removed"]): RemovalState => ({ subject: { type: subject.type, id: subject.id }, removed });
  // Idempotent: removing what is removed (or restoring what is not) writes nothing, not even a log entry.
  if (remove === (row.removedAt !== null)) return state(row.removedAt === null ? null : { reason: row.removedReason ?? "" });
  const at = nowMs();
  await q.set(trx, { type: subject.type, id: subject.id, removed: remove ? { reason, byId: actor.id, at } : null });
  await q.log(trx, {
    hubId: row.hubId,
    action: remove ? "removed" : "restored",
    moderatorId: actor.id,
    subjectType: subject.type,
    subjectId: subject.id,
    subjectTitle: titleOf(subject.type, row),
    reason,
    createdAt: at,
  });
  return state(remove ? { reason } : null);
}

/**
 * Removes a post, comment, chapter, series or hub (CONTRACT.md 13) inside the caller's transaction, with its mod log
 * entry: 404 when there is no such thing, 403 when the actor may not. Removing what is already removed changes
 * nothing. `reason` is already validated (server/rules/removal.ts). Resolving a report with "remove" calls this.
 */
export const removeSubject = (trx: Executor, actor: Actor, subject: RemovalSubject, reason: string) =>
  change(trx, actor, subject, reason, true);

/** Restores a removed thing inside the caller's transaction, with its mod log entry; restoring what is not removed changes nothing. */
export const restoreSubject = (trx: Executor, actor: Actor, subject: RemovalSubject, reason: string) =>
  change(trx, actor, subject, reason, false);

/** POST /moderation/remove and /moderation/restore: each one transaction. */
export function createRemovalService({ kysely }: Database) {
  return {
    remove: (actor: Actor, subject: RemovalSubject, reason: string) =>
      kysely.transaction().execute((trx) => removeSubject(trx, actor, subject, reason)),
    restore: (actor: Actor, subject: RemovalSubject, reason: string) =>
      kysely.transaction().execute((trx) => restoreSubject(trx, actor, subject, reason)),
  };
}
