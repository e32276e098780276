import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import type { Executor } from "../db/prepared.ts";
import { isAdminUser } from "../http/auth.ts";
import { reportWrite } from "../db/write-report.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { mayRemove, mayRestore, takesOverRemoval, type Actor, type RemovalFacts } from "../rules/permissions.ts";
import type { RemovableType, RemovalState, RemovalSubject } from "../rules/removal.ts";
import { removalQueries as q, type RemovalRow } from "./removal.queries.ts";

const NOT_FOUND: Record<RemovableType, string> = {
  post: "Post not found",
  comment: "Comment not found",
  chapter: "Chapter not found",
  series: "No series found.",
  hub: "No hub found.",
};

/** The rules' facts from the locked row: the remover's standing is an admin's when that account is an admin now. */
const factsOf = (type: RemovableType, row: RemovalRow, adminUsernames: readonly string[]): RemovalFacts => {
  const removerIsAdmin =
    row.removerUsernameKey !== null &&
    isAdminUser({ usernameKey: row.removerUsernameKey, isAdmin: Number(row.removerIsAdmin) }, adminUsernames);
  return {
    type,
    authorId: row.authorId,
    actorStanding: row.actorStanding,
    removedBy:
      row.removedAt === null
        ? null
        : { id: row.removedById, standing: row.removedById === null || removerIsAdmin ? "admin" : row.removerStanding },
  };
};

async function change(
  trx: Executor,
  actor: Actor,
  subject: RemovalSubject,
  reason: string,
  remove: boolean,
  adminUsernames: readonly string[],
): Promise<RemovalState> {
  const row = await q.lookup(trx, subject.type, subject.id, actor.id);
  if (!row) throw notFound(NOT_FOUND[subject.type]);
  const facts = factsOf(subject.type, row, adminUsernames);
  if (remove ? !mayRemove(actor, facts) : !mayRestore(actor, facts)) {
    throw forbidden(
      remove
        ? "Only those who may delete or moderate this can remove it"
        : "Only its moderators (or whoever removed it) can restore this; a removal of your own content, or by someone above you, is not yours to undo",
    );
  }
  const state = (removed: RemovalState["removed"]): RemovalState => ({ subject: { type: subject.type, id: subject.id }, removed });
  // Unless the write below happens, nothing changed: the data version may stay (server/db/write-report.ts).
  reportWrite(false);
  // Idempotent: removing what is removed (or restoring what is not) writes nothing, not even a log entry; except that
  // a removal its own author made is taken over by someone else's, so the author can no longer undo it.
  const takeOver = remove && takesOverRemoval(actor, facts);
  if (remove === (row.removedAt !== null) && !takeOver) return state(row.removedAt === null ? null : { reason: row.removedReason ?? "" });
  reportWrite(true);
  const at = nowMs();
  await q.set(trx, { type: subject.type, id: subject.id, removed: remove ? { reason, byId: actor.id, at } : null });
  await q.log(trx, {
    hubId: row.hubId,
    action: remove ? "removed" : "restored",
    moderatorId: actor.id,
    subjectType: subject.type,
    subjectId: subject.id,
    // A post's, comment's or chapter's text is not copied (""): the public log must not keep what was removed.
    subjectTitle: row.title,
    reason,
    createdAt: at,
  });
  return state(remove ? { reason } : null);
}

/**
 * Removes a post, comment, chapter, series or hub (docs/api.md "Removal") inside the caller's transaction, with its mod log
 * entry: 404 when there is no such thing, 403 when the actor may not. Removing what is already removed changes
 * nothing. `reason` is already validated (server/rules/removal.ts). Resolving a report with "remove" calls this.
 */
export const removeSubject = (
  trx: Executor,
  actor: Actor,
  subject: RemovalSubject,
  reason: string,
  adminUsernames: readonly string[] = [],
) => change(trx, actor, subject, reason, true, adminUsernames);

/** Restores a removed thing inside the caller's transaction, with its mod log entry; restoring what is not removed changes nothing. */
export const restoreSubject = (
  trx: Executor,
  actor: Actor,
  subject: RemovalSubject,
  reason: string,
  adminUsernames: readonly string[] = [],
) => change(trx, actor, subject, reason, false, adminUsernames);

/** POST /moderation/remove and /moderation/restore: each one transaction. */
export function createRemovalService({ kysely }: Database, adminUsernames: readonly string[] = []) {
  return {
    remove: (actor: Actor, subject: RemovalSubject, reason: string) =>
      kysely.transaction().execute((trx) => removeSubject(trx, actor, subject, reason, adminUsernames)),
    restore: (actor: Actor, subject: RemovalSubject, reason: string) =>
      kysely.transaction().execute((trx) => restoreSubject(trx, actor, subject, reason, adminUsernames)),
  };
}
