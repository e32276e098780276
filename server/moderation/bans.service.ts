import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { reportWrite } from "../db/write-report.ts";
import { isAdminUser } from "../http/auth.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import type { BanInput, HubBan, HubBanState } from "../rules/bans.ts";
import type { Paging } from "../rules/paging.ts";
import { mayBanInHub, mayBeBannedFromHub, type Actor } from "../rules/permissions.ts";
import type { Page } from "../rules/api-responses.ts";
import { createBanQueries, type BanRow } from "./bans.queries.ts";

/** Finds a hub's id by name or id, 404 without it (the hub service's resolveId). */
export interface HubLookup {
  resolveId(nameOrId: string, message?: string): Promise<number>;
}

export const DAY_MS = 24 * 3600 * 1000;

/** When a ban or suspension of `days` set at `now` ends; null: no end. */
export const endOf = (now: number, days: number | null | undefined): number | null => (days ? now + days * DAY_MS : null);

const toBan = (row: BanRow): HubBan => ({
  user: { id: row.userId, username: row.username, profileImageId: row.profileImageId },
  reason: row.reason,
  expiresAt: row.expiresAt === null ? null : toIso(row.expiresAt),
  by: row.byId === null ? null : { id: row.byId, username: row.byName! },
  createdAt: toIso(row.createdAt),
});

/** Hub bans (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md): by the hub's moderators; each change logged. */
export function createBanService(db: Database, hubs: HubLookup, adminUsernames: readonly string[] = []) {
  const q = createBanQueries(db);

  /** The hub's facts when the actor moderates it: 404 without the hub, 403 for anyone else. */
  async function moderatedHub(hubId: number, actor: Actor, targetId = 0) {
    const facts = await q.facts(hubId, actor.id, targetId);
    if (!facts) throw notFound("No hub found.");
    if (!mayBanInHub(actor, { authorId: facts.authorId, actorIsModerator: facts.actorIsModerator === 1 })) {
      throw forbidden("Only the hub's moderators can ban users from it");
    }
    return facts;
  }

  /** The hub's facts and the user named, when the actor may ban or unban them there. */
  async function change(hubId: number, userId: number, actor: Actor) {
    const facts = await moderatedHub(hubId, actor, userId);
    const user = await q.user(userId);
    if (!user) throw notFound("User not found");
    return { facts, user };
  }

  async function state(hubId: number, userId: number): Promise<HubBanState> {
    const row = await q.ban(hubId, userId);
    const active = row !== undefined && (row.expiresAt === null || row.expiresAt > nowMs());
    return { banned: active, ban: row ? toBan(row) : null };
  }

  return {
    /** GET /hubs/{name}/bans: every ban row, expired ones too (until lifted or set again), newest first. */
    async list(hubName: string, paging: Paging, actor: Actor): Promise<Page<HubBan>> {
      const hubId = await hubs.resolveId(hubName);
      await moderatedHub(hubId, actor);
      const [rows, total] = await Promise.all([q.page(hubId, paging.perPage, offsetOf(paging)), q.total(hubId)]);
      return pageOf(rows.map(toBan), total, paging);
    },

    /** Bans the user, or sets their ban again (reason, end); `days` absent: no end. Logged as `banned`. */
    async ban(hubId: number, userId: number, input: BanInput, actor: Actor): Promise<HubBanState> {
      const { facts, user } = await change(hubId, userId, actor);
      if (userId === actor.id) throw badRequest("You cannot ban yourself");
      const target = { id: userId, isAdmin: isAdminUser(user, adminUsernames) };
      if (!mayBeBannedFromHub(actor, target, { authorId: facts.authorId, targetIsModerator: facts.targetIsModerator === 1 })) {
        throw badRequest("The hub's creator, its moderators and admins cannot be banned from it");
      }
      const now = nowMs();
      const c = { hubId, userId, username: user.username, actorId: actor.id, reason: input.reason, expiresAt: endOf(now, input.days), now };
      // The ban and its log entry are one write; the hub's row is locked first, as posting locks it (its post count), so
      // a post racing the ban waits for it and then sees it.
      const set = await db.kysely.transaction().execute(async (trx) => {
        if (!(await q.lockHub(trx, hubId))) return false;
        await q.set(trx, c);
        return true;
      });
      if (!set) throw notFound("No hub found.");
      return state(hubId, userId);
    },

    /** Lifts the ban; idempotent (nothing logged when there was none). Logged as `unbanned`. */
    async unban(hubId: number, userId: number, reason: string, actor: Actor): Promise<HubBanState> {
      const { user } = await change(hubId, userId, actor);
      const c = { hubId, userId, username: user.username, actorId: actor.id, reason, expiresAt: null, now: nowMs() };
      const lifted = await db.kysely.transaction().execute((trx) => q.lift(trx, c));
      // Lifting no ban changes nothing (server/db/write-report.ts).
      reportWrite(lifted);
      return { banned: false, ban: null };
    },
  };
}
