// Who may act on what (CONTRACT.md 12–13, docs/decisions/018-governance.md): one function per subject, pure, used
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
 * Removal (CONTRACT.md 13) as the rules see a subject: who wrote it (a chapter's is its series' author) and whether
 * the actor moderates it: a post or a comment on one, the moderators of the post's hub; a comment on a chapter, the
 * series' author; anything, an admin.
 */
export interface RemovalFacts {
  type: "post" | "comment" | "chapter" | "series" | "hub";
  authorId: number | null;
  actorModerates: boolean;
  /** Who removed it (null: not removed, or that account is gone). */
  removedById: number | null;
}

/** Whoever may delete it (a comment's author deletes instead) or moderates it. */
export const mayRemove = (actor: Actor, s: RemovalFacts): boolean =>
  actor.isAdmin || s.actorModerates || (s.type !== "comment" && s.authorId === actor.id);

/** Its moderators; an author only their own removal (an author cannot undo what a moderator removed). */
export const mayRestore = (actor: Actor, s: RemovalFacts): boolean =>
  actor.isAdmin || s.actorModerates || (mayRemove(actor, s) && s.removedById === actor.id);

/** A removed thing's content is shown to its author and to those who may restore it. */
export const maySeeRemoved = (viewer: Actor | undefined, s: RemovalFacts): boolean =>
  viewer !== undefined && (s.authorId === viewer.id || mayRestore(viewer, s));

/**
 * A report as its queues see it (CONTRACT.md 13): the hub whose moderators see it (a post, a comment on one) and the
 * series whose author sees it (a comment on a chapter), as copied when it was made; admins see every report.
 */
export interface ReportFacts {
  hub: HubFacts | null;
  seriesAuthorId: number | null;
}

/** Those who see a report in their queue resolve it. */
export const mayHandleReport = (actor: Actor, report: ReportFacts): boolean =>
  actor.isAdmin || (report.hub !== null && moderatesHub(actor, report.hub)) || report.seriesAuthorId === actor.id;

/** The queue is for admins, hub moderators and series authors; anyone else gets 403. */
export const mayReadReportQueue = (actor: Actor, moderatesSomething: boolean): boolean => actor.isAdmin || moderatesSomething;

/** Nobody reports themselves or their own work. */
export const mayReport = (actor: Actor, subject: { ownerId: number | null }): boolean => subject.ownerId !== actor.id;
