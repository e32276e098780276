import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { notFound } from "../http/errors.ts";
import { createRedaction } from "../moderation/redaction.service.ts";
import { removedOf } from "../moderation/removed.ts";
import { noVerifiedEmailCheck, type VerifiedEmailCheck } from "../moderation/write-guards.service.ts";
import { createNamedEntityService } from "../named-entities/named-entity.service.ts";
import type { HubEditInput, HubInput } from "../rules/hub.ts";
import type { Paging } from "../rules/paging.ts";
import type { Actor } from "../rules/permissions.ts";
import type { Hub, HubDetail } from "../rules/api-responses.ts";
import { createHubQueries, type HubRow } from "./hubs.queries.ts";
import { createModeratorService } from "./moderators.service.ts";

function toHub(row: HubRow): Hub {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    memberCount: row.memberCount,
    followersCount: row.memberCount,
    postCount: row.postCount,
    profileImageId: row.profileImageId,
    profileBannerId: row.profileBannerId,
    authorId: row.authorId,
    authorName: row.authorName,
    createdAt: toIso(row.createdAt),
    latestPost: row.lpId === null ? null : { id: row.lpId, title: row.lpTitle ?? "", date: toIso(row.lpDate ?? 0) },
    removed: removedOf(row),
  };
}

/** `verifiedEmail`: REQUIRE_VERIFIED_EMAIL's check of new hubs (off unless given). */
export function createHubService(db: Database, verifiedEmail: VerifiedEmailCheck = noVerifiedEmailCheck) {
  const redaction = createRedaction(db);
  const hubs = createNamedEntityService(db, createHubQueries(db), {
    toCard: toHub,
    toDetail: (hub, joinedByMe) => ({ ...hub, joinedByMe }),
    messages: {
      notFound: "No hub found.",
      notAuthor: "Only the hub's creator can edit it",
      nameTaken: "A hub with this name already exists",
    },
  });

  /** The hub's id, or a 404 with the given message. */
  async function resolveId(nameOrId: string, message = "No hub found."): Promise<number> {
    const id = await hubs.findId(nameOrId);
    if (id === undefined) throw notFound(message);
    return id;
  }
  const moderators = createModeratorService(db, { resolveId });

  /** The detail with its moderators and whether the viewer is one of them (docs/api.md, "Hub moderators"). */
  async function withModerators(detail: Promise<Omit<HubDetail, "moderators" | "moderatedByMe">>, viewer?: Actor): Promise<HubDetail> {
    const hub = await detail;
    return { ...hub, ...(await moderators.ofHub(hub, viewer)) };
  }
  /** A hub's detail as the viewer sees it: a removed hub's content left out unless they may see it. */
  const shown = async (detail: Promise<HubDetail>, viewer: Actor | null) => redaction.hub(await detail, viewer);
  // The creator is the only one who creates and edits a hub: a moderator of it whatever their role.
  const author = (id: number): Actor => ({ id, isAdmin: false });

  return {
    // The lists are the same for everyone: a removed hub's card is blanked for all (its creator and admins included).
    listNewest: async (paging: Paging) => redaction.hubPage(await hubs.listNewest(paging), null),

    listTop: async (paging: Paging) => redaction.hubPage(await hubs.listTop(paging), null),

    search: async (name: string, paging: Paging) => redaction.hubPage(await hubs.search(name, paging), null),

    getById: (id: number, viewer: Actor | null) => shown(withModerators(hubs.getById(id, viewer?.id), viewer ?? undefined), viewer),

    /** Hubs the user joined, most recent first. */
    listJoinedBy: hubs.listLinkedBy,

    /** Hubs the user created, newest first. */
    listCreatedBy: hubs.listCreatedBy,

    getByNameOrId: (nameOrId: string, viewer: Actor | null) =>
      shown(withModerators(hubs.getByNameOrId(nameOrId, viewer?.id), viewer ?? undefined), viewer),

    resolveId,

    /** The hub, its creator's membership and the publishing of its logo and banner are one write. */
    async create(input: HubInput, authorId: number): Promise<HubDetail> {
      await verifiedEmail(db.kysely, authorId);
      return withModerators(hubs.create(input, authorId), author(authorId));
    },

    update: (id: number, input: HubEditInput, userId: number): Promise<HubDetail> =>
      withModerators(hubs.update(id, input, userId), author(userId)),
  };
}
