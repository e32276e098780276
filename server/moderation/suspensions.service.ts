import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { isAdminUser } from "../http/auth.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import type { BanInput, Suspension } from "../rules/bans.ts";
import { mayBeSuspended, maySuspend, type Actor } from "../rules/permissions.ts";
import { endOf } from "./bans.service.ts";
import { createSuspensionQueries, SUSPENDED_FOREVER, type SuspendedUserRow } from "./suspensions.queries.ts";

/** Whether the account is suspended at `now` (read at check time: nothing runs when a suspension ends). */
export const isSuspended = (suspendedUntil: number | null, now = nowMs()): boolean => suspendedUntil !== null && suspendedUntil > now;

const toSuspension = (u: Pick<SuspendedUserRow, "id" | "suspendedUntil" | "suspendedReason">): Suspension => {
  const suspended = isSuspended(u.suspendedUntil);
  return {
    userId: u.id,
    suspended,
    until: suspended && u.suspendedUntil !== SUSPENDED_FOREVER ? toIso(u.suspendedUntil!) : null,
    reason: suspended ? u.suspendedReason : null,
  };
};

/**
 * Site suspensions by admins (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md): the account's tokens stop working
 * at once and login answers 403 while it lasts. Each change logged in the site's mod log.
 */
export function createSuspensionService(db: Database, adminUsernames: readonly string[] = []) {
  const q = createSuspensionQueries(db);

  async function target(userId: number, actor: Actor): Promise<SuspendedUserRow> {
    if (!maySuspend(actor)) throw forbidden("Only admins can suspend accounts");
    const user = await q.user(userId);
    if (!user) throw notFound("User not found");
    return user;
  }

  return {
    /** GET /admin/users/{id}/ban: the account's suspension now. */
    get: async (userId: number, actor: Actor): Promise<Suspension> => toSuspension(await target(userId, actor)),

    /** Suspends the account, or sets its suspension again; `days` absent: no end. */
    async suspend(userId: number, input: BanInput, actor: Actor): Promise<Suspension> {
      const user = await target(userId, actor);
      if (userId === actor.id) throw badRequest("You cannot suspend yourself");
      if (!mayBeSuspended({ isAdmin: isAdminUser(user, adminUsernames) })) throw badRequest("Admins cannot be suspended");
      const now = nowMs();
      const until = endOf(now, input.days) ?? SUSPENDED_FOREVER;
      const change = { userId, username: user.username, actorId: actor.id, reason: input.reason, until, now };
      // The suspension and its log entry are one write.
      if (!(await db.kysely.transaction().execute((trx) => q.suspend(trx, change)))) throw notFound("User not found");
      return toSuspension({ id: userId, suspendedUntil: until, suspendedReason: input.reason });
    },

    /** Lifts the suspension; idempotent. The account signs in again (its old tokens stay ended). */
    async lift(userId: number, reason: string, actor: Actor): Promise<Suspension> {
      const user = await target(userId, actor);
      const change = { userId, username: user.username, actorId: actor.id, reason, now: nowMs() };
      await db.kysely.transaction().execute((trx) => q.lift(trx, change));
      return { userId, suspended: false, until: null, reason: null };
    },
  };
}
