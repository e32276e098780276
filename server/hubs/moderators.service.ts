import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { reportWrite } from "../db/write-report.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { mayManageModerators, moderatesHub, type Actor } from "../rules/permissions.ts";
import type { HubLookup } from "../moderation/bans.service.ts";
import type { HubModerator, HubModerators } from "../rules/api-responses.ts";
import { createModeratorQueries, type AddedModeratorRow, type ModeratedHubRow } from "./moderators.queries.ts";

/** Moderators a hub's creator may add (the detail of a hub lists them all). */
export const MAX_ADDED_MODERATORS = 50;

const NO_HUB = "No hub found.";

/** The creator first, then the added moderators, earliest first. */
function moderatorList(hub: ModeratedHubRow, added: AddedModeratorRow[]): HubModerators {
  const creator: HubModerator = {
    id: hub.authorId,
    username: hub.authorName,
    profileImageId: hub.authorImageId,
    creator: true,
    addedAt: toIso(hub.createdAt),
  };
  return { items: [creator, ...added.map((m) => ({ ...m, creator: false, addedAt: toIso(m.addedAt) }))] };
}

export function createModeratorService(db: Database, hubs: HubLookup) {
  const q = createModeratorQueries(db);

  async function hubOr404(id: number): Promise<ModeratedHubRow> {
    const hub = await q.hub(id);
    if (!hub) throw notFound(NO_HUB);
    return hub;
  }

  /** The hub, when the actor may change its moderators, and the user named: 404 for either missing, 403 for the rest. */
  async function change(hubId: number, userId: number, actor: Actor) {
    const hub = await hubOr404(hubId);
    if (!mayManageModerators(actor, hub)) throw forbidden("Only the hub's creator or an admin can change its moderators");
    const user = await q.user(userId);
    if (!user) throw notFound("User not found");
    return { hub, change: { hubId, userId, username: user.username, actorId: actor.id, now: nowMs() } };
  }

  const list = async (hub: ModeratedHubRow) => moderatorList(hub, await q.added(hub.id));

  return {
    /** GET /hubs/{name}/moderators. */
    list: async (hubName: string) => list(await hubOr404(await hubs.resolveId(hubName))),

    /**
     * What a hub's detail says about its moderators: their ids and names (the creator first) and whether the
     * viewer moderates it (admins do).
     */
    async ofHub(hub: { id: number; authorId: number; authorName: string }, viewer: Actor | undefined) {
      const added = await q.added(hub.id);
      const moderators = [{ id: hub.authorId, username: hub.authorName }, ...added.map((m) => ({ id: m.id, username: m.username }))];
      const moderatedByMe =
        viewer !== undefined && moderatesHub(viewer, { authorId: hub.authorId, actorIsModerator: added.some((m) => m.id === viewer.id) });
      return { moderators, moderatedByMe };
    },

    /** Idempotent; the creator is already a moderator (nothing written). Answers the list. */
    async add(hubId: number, userId: number, actor: Actor): Promise<HubModerators> {
      const { hub, change: c } = await change(hubId, userId, actor);
      if (userId !== hub.authorId) {
        const added = await db.kysely.transaction().execute(async (trx): Promise<boolean | "full"> => {
          // A hub full of moderators refuses a new one; adding one again is still the no-op it always is.
          if ((await q.addedCount(trx, hubId)) >= MAX_ADDED_MODERATORS) return (await q.isAdded(trx, hubId, userId)) ? false : "full";
          return q.add(trx, c);
        });
        if (added === "full") throw badRequest(`A hub can have at most ${MAX_ADDED_MODERATORS} moderators besides its creator`);
        // Adding a moderator again changes nothing (server/db/write-report.ts).
        reportWrite(added);
      }
      return list(hub);
    },

    /** Idempotent; the creator cannot be removed (400). Answers the list. */
    async remove(hubId: number, userId: number, actor: Actor): Promise<HubModerators> {
      const { hub, change: c } = await change(hubId, userId, actor);
      if (userId === hub.authorId) throw badRequest("The hub's creator is always its moderator and cannot be removed");
      reportWrite(await db.kysely.transaction().execute((trx) => q.remove(trx, c)));
      return list(hub);
    },
  };
}
