import { hidingBlocksOf, refuseBlockers, withHidden, type PageHiding } from "../blocks/blocks.service.ts";
import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import type { Executor } from "../db/prepared.ts";
import type { Caller } from "../http/auth.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { embeddedImageIds } from "../images/image-refs.ts";
import { useImages } from "../images/own-images.ts";
import { createRedaction } from "../moderation/redaction.service.ts";
import { removedOf } from "../moderation/removed.ts";
import { createHubBanChecks, noVerifiedEmailCheck, refuseRemoved, type VerifiedEmailCheck } from "../moderation/write-guards.service.ts";
import { mentionedUserIds } from "../notifications/mentions.ts";
import { insertNotifications, toldAbout } from "../notifications/notify.ts";
import type { NotificationMail } from "../notifications/notification-mail.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import type { Post, PostSummary } from "../rules/api-responses.ts";
import { findMentions } from "../rules/mentions.ts";
import type { Paging } from "../rules/paging.ts";
import { mayEditPost, mayPostInHub, type Actor } from "../rules/permissions.ts";
import type { NewPostInput, PostEditInput } from "../rules/post.ts";
import type { HubLookup } from "../moderation/bans.service.ts";
import type { FlagsOf } from "../viewer/shared-answers.ts";
import type { PostOrder } from "./post-page-keys.ts";
import { createPostQueries, type PostRow } from "./posts.queries.ts";

export const toSummary = (row: PostRow, liked: boolean): PostSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  date: toIso(row.date),
  likes: row.likes,
  commentCount: row.commentCount,
  authorId: row.authorId,
  authorName: row.authorName,
  hubId: row.hubId,
  hubName: row.hubName,
  likedByMe: liked,
  removed: removedOf(row, { container: "hub", reason: row.hubRemovedReason }),
});

/** `verifiedEmail`: REQUIRE_VERIFIED_EMAIL's check of new posts (off unless given). */
export function createPostService(
  db: Database,
  hubs: HubLookup,
  mail: NotificationMail,
  verifiedEmail: VerifiedEmailCheck = noVerifiedEmailCheck,
) {
  const posts = createPostQueries(db);
  const bans = createHubBanChecks(db);
  const redaction = createRedaction(db);

  async function detail(id: number, viewerId: number | undefined): Promise<Post> {
    const row = await posts.detail(id, viewerId);
    if (!row) throw notFound("Post not found");
    return { ...toSummary(row, row.liked === 1), content: row.content, authorProfileImageID: row.authorProfileImageId };
  }

  /** `hidingBlocksOf`: the viewer whose blocked users' posts are left out and counted in `hidden` (server/blocks). */
  async function listByHub(
    hubId: number,
    order: PostOrder,
    paging: Paging,
    viewerId?: number,
    hidingBlocksOf?: number,
  ): Promise<PageHiding<PostSummary>> {
    if (hidingBlocksOf !== undefined) {
      const { total, rows, hidden } = await posts.pageHidingBlocked(hubId, order, paging.perPage, offsetOf(paging), hidingBlocksOf);
      const liked = await posts.likedBy(
        viewerId,
        rows.map((r) => r.id),
      );
      return {
        ...pageOf(
          rows.map((r) => toSummary(r, liked.has(r.id))),
          total,
          paging,
        ),
        hidden,
      };
    }
    const { total, rows } = await posts.page(hubId, order, paging.perPage, offsetOf(paging));
    const liked = await posts.likedBy(
      viewerId,
      rows.map((r) => r.id),
    );
    return pageOf(
      rows.map((r) => toSummary(r, liked.has(r.id))),
      total,
      paging,
    );
  }

  /**
   * A `mention` notification about the post to each existing user among the usernames, on the unit's transaction
   * (403 when one of them blocks the author); none to someone told of this post before (mentioned in an earlier version).
   */
  async function tellMentioned(trx: Executor, postId: number, authorId: number, usernameKeys: string[]) {
    const createdAt = nowMs();
    const ids = await mentionedUserIds(trx, usernameKeys);
    await refuseBlockers(trx, authorId, { mentionedIds: ids });
    const told = await toldAbout(trx, { postId }, ids);
    await insertNotifications(
      trx,
      ids
        .filter((userId) => !told.has(userId))
        .map((userId) => ({ userId, kind: "mention" as const, actorId: authorId, postId, createdAt })),
      mail,
    );
  }

  return {
    /**
     * GET /hubs/{name}/posts/{order}: a page of the hub's posts as the viewer sees them (removed ones blanked unless they
     * may see them); a blocker's page leaves out their blocked users' posts unless `includeBlocked` (server/blocks).
     */
    async listHubPosts(
      hubName: string,
      order: PostOrder,
      paging: Paging,
      viewer: Pick<Caller, "id" | "isAdmin" | "blockCount"> | null,
      includeBlocked?: "true" | "false",
    ): Promise<PageHiding<PostSummary>> {
      const hubId = await hubs.resolveId(hubName);
      const page = await listByHub(hubId, order, paging, viewer?.id, hidingBlocksOf(viewer, includeBlocked));
      return withHidden(await redaction.postPage(page, viewer), viewer);
    },

    /** The viewer's `likedByMe` of these posts, for an answer shared by everyone (server/viewer/shared-answers.ts): one read. */
    async likedFlags(ids: number[], viewerId: number): Promise<FlagsOf> {
      const liked = await posts.likedBy(viewerId, ids);
      return (id) => ({ likedByMe: liked.has(id) });
    },

    /** GET /hub-posts/{id}. */
    get: async (id: number, viewer: Actor | null): Promise<Post> => redaction.post(await detail(id, viewer?.id), viewer),

    /** GET /hubs/{hubName}/{postId}: the post must belong to that hub. */
    async getInHub(hubName: string, postId: number, viewer: Actor | null): Promise<Post> {
      const hubId = await hubs.resolveId(hubName, "Post not found");
      const post = await detail(postId, viewer?.id);
      if (post.hubId !== hubId) throw notFound("Post not found");
      return redaction.post(post, viewer);
    },

    /**
     * Posting in a hub requires membership (docs/api.md §5). The post, the hub's count and order versions, its embedded
     * images published and the people it mentions told: one unit.
     */
    async create(input: NewPostInput, authorId: number): Promise<Post> {
      await verifiedEmail(db.kysely, authorId);
      const member = await posts.isMember(input.hubId, authorId);
      if (member === undefined) throw notFound("Hub not found");
      if (!mayPostInHub({ isMember: member })) {
        // A non-member hears that the hub was removed or that they are banned (they cannot join either); members are
        // checked in the unit.
        await refuseRemoved(db.kysely, "hub", input.hubId);
        await bans.inHub(db.kysely, input.hubId, authorId);
        throw forbidden("You do not have permission to post in this hub");
      }
      const id = await db.kysely.transaction().execute(async (trx) => {
        // First: locks the hub's row.
        if (!(await posts.countNewPost(trx, input.hubId))) return undefined;
        await refuseRemoved(trx, "hub", input.hubId);
        await bans.inHub(trx, input.hubId, authorId);
        const id = await posts.insert(trx, input, authorId, nowMs());
        await useImages(trx, authorId, "post", id, embeddedImageIds(input.content));
        await tellMentioned(trx, id, authorId, findMentions(input.content));
        return id;
      });
      if (id === undefined) throw notFound("Hub not found");
      wakeJobRunners(db); // the mentions' mail, if any, goes now
      return detail(id, authorId);
    },

    /** The edit, its newly embedded images published and the people newly mentioned told: one unit. */
    async update(id: number, input: PostEditInput, userId: number): Promise<Post> {
      const authorId = await posts.authorOf(id);
      if (authorId === undefined) throw notFound("Post not found");
      if (!mayEditPost({ id: userId }, { authorId })) throw forbidden("Only the author can edit this post");
      await db.kysely.transaction().execute(async (trx) => {
        const before = await posts.lockForEdit(trx, id);
        await posts.update(trx, id, input);
        await useImages(trx, userId, "post", id, embeddedImageIds(input.content));
        const mentionedBefore = new Set(findMentions(before ?? ""));
        await tellMentioned(
          trx,
          id,
          userId,
          findMentions(input.content).filter((key) => !mentionedBefore.has(key)),
        );
      });
      wakeJobRunners(db);
      return detail(id, userId);
    },
  };
}
