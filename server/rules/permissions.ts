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

/** A post: its author, a moderator of its hub, an admin. */
export const mayDeletePost = (actor: Actor, post: { authorId: number }, hub: HubFacts): boolean =>
  post.authorId === actor.id || moderatesHub(actor, hub);

/** A chapter: the series' author, an admin. */
export const mayDeleteChapter = (actor: Actor, series: { authorId: number }): boolean => actor.isAdmin || series.authorId === actor.id;

/** A series or a hub: its author, an admin. */
export const mayDeleteSeries = (actor: Actor, series: { authorId: number }): boolean => actor.isAdmin || series.authorId === actor.id;
export const mayDeleteHub = (actor: Actor, hub: { authorId: number }): boolean => actor.isAdmin || hub.authorId === actor.id;

/** A comment: its author; on a post, a moderator of the post's hub; on a chapter, the series' author; an admin. */
export const mayDeleteComment = (
  actor: Actor,
  comment: { authorId: number | null },
  place: { hub: HubFacts } | { seriesAuthorId: number },
): boolean =>
  comment.authorId === actor.id || actor.isAdmin || ("hub" in place ? moderatesHub(actor, place.hub) : place.seriesAuthorId === actor.id);
