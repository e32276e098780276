// Who may act on what (docs/api.md §14, §15, "Removal", docs/decisions/018-governance.md): one function per subject, pure, used
// by the services and by the authorization matrix test. The facts come from the caller (isAdmin, read with the token)
// and from the subject's own query (its author, its hub's author, whether the caller is one of the hub's moderators).

/** A signed-in caller as the rules see them. */
export interface Actor {
  id: number;
  /** `User.isAdmin`, or the username is in ADMIN_USERNAMES. */
  isAdmin: boolean;
}

/** A hub as its rules see it: its creator, and whether the actor is one of the moderators its creator or an admin added. */
export interface HubFacts {
  authorId: number;
  actorIsModerator: boolean;
}

/** Admins, the hub's creator and its added moderators moderate a hub. */
export const moderatesHub = (actor: Actor, hub: HubFacts): boolean => actor.isAdmin || hub.authorId === actor.id || hub.actorIsModerator;

/** The creator and admins add and remove a hub's moderators. */
export const mayManageModerators = (actor: Actor, hub: { authorId: number }): boolean => actor.isAdmin || hub.authorId === actor.id;

/** A hub's moderators (admins too) ban and unban users there and read its ban list. */
export const mayBanInHub = (actor: Actor, hub: HubFacts): boolean => moderatesHub(actor, hub);

/**
 * Who a hub ban cannot reach: the actor themselves, the hub's creator, its added moderators and admins (they moderate
 * every hub). A moderator is removed first, then banned.
 */
export const mayBeBannedFromHub = (
  actor: Actor,
  target: { id: number; isAdmin: boolean },
  hub: { authorId: number; targetIsModerator: boolean },
): boolean => target.id !== actor.id && target.id !== hub.authorId && !hub.targetIsModerator && !target.isAdmin;

/** Site suspensions and the site's mod log: admins only; an admin (themselves included) cannot be suspended. */
export const maySuspend = (actor: Actor): boolean => actor.isAdmin;
export const mayBeSuspended = (target: { isAdmin: boolean }): boolean => !target.isAdmin;
export const mayReadSiteModLog = (actor: Actor): boolean => actor.isAdmin;

/** A post: its author, a moderator of its hub, an admin. */
export const mayDeletePost = (actor: Actor, post: { authorId: number }, hub: HubFacts): boolean =>
  post.authorId === actor.id || moderatesHub(actor, hub);

/** A chapter: the series' author, an admin. */
export const mayDeleteChapter = (actor: Actor, series: { authorId: number }): boolean => actor.isAdmin || series.authorId === actor.id;

/** A series or a hub: its author, an admin. */
export const mayDeleteSeries = (actor: Actor, series: { authorId: number }): boolean => actor.isAdmin || series.authorId === actor.id;
export const mayDeleteHub = (actor: Actor, hub: { authorId: number }): boolean => actor.isAdmin || hub.authorId === actor.id;

/** An account: its owner only. Admins suspend accounts instead (docs/decisions/018-governance.md). */
export const mayDeleteAccount = (actor: Actor, account: { id: number }): boolean => account.id === actor.id;

/** A comment: its author; on a post, a moderator of the post's hub; on a chapter, the series' author; an admin. */
export const mayDeleteComment = (
  actor: Actor,
  comment: { authorId: number | null },
  place: { hub: HubFacts } | { seriesAuthorId: number },
): boolean =>
  comment.authorId === actor.id || actor.isAdmin || ("hub" in place ? moderatesHub(actor, place.hub) : place.seriesAuthorId === actor.id);

/**
 * How much say someone has over a removable thing (docs/api.md "Removal"): an admin over anything; a hub's creator over
 * its posts and their comments, as a series' author over the comments on its chapters; a hub's added moderators over
 * its posts and their comments; "none" for everyone else (an author removing their own post has no more say than that).
 */
export type Standing = "admin" | "creator" | "moderator" | "none";
const RANK: Record<Standing, number> = { admin: 3, creator: 2, moderator: 1, none: 0 };

/**
 * Removal (docs/api.md "Removal") as the rules see a subject: who wrote it (a chapter's is its series' author), the actor's
 * standing over it besides being an admin, and, while it is removed, who removed it and their standing over it now.
 */
export interface RemovalFacts {
  type: "post" | "comment" | "chapter" | "series" | "hub";
  authorId: number | null;
  /** "creator" or "moderator" when the actor moderates it (see Standing); never "admin" (that is `Actor.isAdmin`). */
  actorStanding: Standing;
  /** Null: not removed. `id` null: that account is gone, and its standing counts as an admin's (nobody knows less). */
  removedBy: { id: number | null; standing: Standing } | null;
}

const standingOf = (actor: Actor, s: RemovalFacts): Standing => (actor.isAdmin ? "admin" : s.actorStanding);

/** Whoever may delete it (a comment's author deletes instead) or moderates it. */
export const mayRemove = (actor: Actor, s: RemovalFacts): boolean =>
  actor.isAdmin || s.actorStanding !== "none" || (s.type !== "comment" && s.authorId === actor.id);

/**
 * Whoever removed it, while they still may remove it; else those who moderate it with at least the standing of
 * whoever removed it (only admins undo an admin, an added moderator not the hub's creator), but never its author: a
 * removal aimed at you is not yours to undo. Restoring what is not removed (a no-op) is for those who moderate it.
 */
export const mayRestore = (actor: Actor, s: RemovalFacts): boolean => {
  if (!mayRemove(actor, s)) return false;
  if (s.removedBy === null) return standingOf(actor, s) !== "none";
  if (s.removedBy.id === actor.id) return true;
  if (s.authorId === actor.id) return false;
  return standingOf(actor, s) !== "none" && RANK[standingOf(actor, s)] >= RANK[s.removedBy.standing];
};

/**
 * A removal made by the thing's own author (who then could restore it at will) is taken over by anyone else who
 * removes it: their reason, their name, their log entry. Any other removal stays the first one (removing is idempotent).
 */
export const takesOverRemoval = (actor: Actor, s: RemovalFacts): boolean =>
  s.removedBy !== null && s.removedBy.id !== null && s.removedBy.id === s.authorId && actor.id !== s.authorId;

/**
 * A report as its queues see it (docs/api.md "Reports"): the hub whose moderators see it (a post, a comment on one) and the
 * series whose author sees it (a comment on a chapter), as copied when it was made, and whose the reported thing is
 * (a user is their own); admins see every report.
 */
export interface ReportFacts {
  hub: HubFacts | null;
  seriesAuthorId: number | null;
  ownerId: number | null;
}

/**
 * Those who see a report in their queue resolve it, except reports about their own content or themselves: those go
 * to the others (an admin sees them in the queue, another admin resolves them).
 */
export const mayHandleReport = (actor: Actor, report: ReportFacts): boolean =>
  report.ownerId !== actor.id &&
  (actor.isAdmin || (report.hub !== null && moderatesHub(actor, report.hub)) || report.seriesAuthorId === actor.id);

/** The queue is for admins, hub moderators and series authors; anyone else gets 403. */
export const mayReadReportQueue = (actor: Actor, moderatesSomething: boolean): boolean => actor.isAdmin || moderatesSomething;

/** Nobody reports themselves or their own work. */
export const mayReport = (actor: Actor, subject: { ownerId: number | null }): boolean => subject.ownerId !== actor.id;

/** A series' chapters are published and edited by its author only (admins delete or remove them instead). */
export const mayWriteChapters = (actor: Pick<Actor, "id">, series: { authorId: number }): boolean => series.authorId === actor.id;

/** A hub or a series is edited by its author only. */
export const mayEditNamedEntity = (actor: Pick<Actor, "id">, entity: { authorId: number }): boolean => entity.authorId === actor.id;

/**
 * What is a user's own: their profile, their data export, and the joins and follows made under /user/{id}/...
 * (docs/api.md §5): that user only.
 */
export const mayActAsUser = (actor: Pick<Actor, "id">, user: { id: number }): boolean => user.id === actor.id;

/** An account's email and mature-content setting are shown to that user only (docs/api.md §5); a guest sees neither. */
export const maySeePrivateSettings = (viewerId: number | undefined, user: { id: number }): boolean => user.id === viewerId;

/** Whether an account's address is verified: that user and admins see it (docs/api.md "Verified email addresses"). */
export const maySeeEmailVerified = (viewer: Actor | undefined, user: { id: number }): boolean =>
  viewer !== undefined && (viewer.isAdmin || viewer.id === user.id);

/** A comment is edited by its author only (moderators delete or remove it instead); a tombstone has none. */
export const mayEditComment = (actor: Pick<Actor, "id">, comment: { authorId: number | null }): boolean => comment.authorId === actor.id;

/** A post is edited by its author only (moderators delete or remove it instead). */
export const mayEditPost = (actor: Pick<Actor, "id">, post: { authorId: number }): boolean => post.authorId === actor.id;

/** Posting in a hub: its members (docs/api.md §5). */
export const mayPostInHub = (hub: { isMember: boolean }): boolean => hub.isMember;

/**
 * Who sees a removed thing's content (docs/api.md "Removal"): its author, those who moderate it (a hub's creator and
 * added moderators for its posts and their comments, a series' author for the comments on its chapters) and admins;
 * everyone else, guests included, gets `removed` and no content. `viewerModerates`: read only when needed (one query
 * per page), so it may be false for a viewer this answers true for anyway.
 */
export const maySeeRemoved = (viewer: Actor | null | undefined, thing: { authorId: number | null; viewerModerates: boolean }): boolean =>
  viewer != null && (viewer.isAdmin || thing.authorId === viewer.id || thing.viewerModerates);

/**
 * REQUIRE_VERIFIED_EMAIL (docs/api.md "Verified email addresses"): on a site that asks for it, posting, commenting,
 * publishing (hubs, series, chapters) and uploading need a verified address; signing in, reading, likes, follows,
 * joins and edits of what one already wrote do not. Off, everyone may.
 */
export const mayPublishContent = (actor: { emailVerified: boolean }, site: { requireVerifiedEmail: boolean }): boolean =>
  !site.requireVerifiedEmail || actor.emailVerified;

/**
 * ADMIN_REQUIRE_2FA (docs/api.md "Second factors"): on a site that asks for it, an admin uses admin powers only with a
 * second factor on (TOTP, or at least one passkey); until then they act as a member, and every 403 they get says to set
 * one up. Off, every admin does. `hasSecondFactor` is read only for admins on such a site.
 */
export const adminNeedsSecondFactor = (user: { isAdmin: boolean }, site: { adminRequire2fa: boolean }): boolean =>
  user.isAdmin && site.adminRequire2fa;
export const holdsAdminPowers = (user: { isAdmin: boolean; hasSecondFactor: boolean }, site: { adminRequire2fa: boolean }): boolean =>
  user.isAdmin && (!site.adminRequire2fa || user.hasSecondFactor);
