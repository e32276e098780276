// A signed-in caller's answer built from the one everyone shares (docs/decisions/028-shared-answers-with-own-flags.md):
// the guest's answer, kept by the response cache, with the caller's own flags (likedByMe, readByMe, followedByMe) read
// for its ids in one indexed query and set in place. Where the caller's answer differs in more than those flags, it is
// computed for them as before; which cases those are is decided here, and only here.
import type { Caller } from "../http/auth.ts";

/** The caller's flags of one item, by its id: only keys every item of the answer already has (their order is kept). */
export type FlagsOf = (id: number) => Record<string, boolean>;

/** What an endpoint whose answer carries the caller's own flags declares (server/http/endpoint.ts `viewerFlags`). */
export interface ViewerFlags<D> {
  /** A list that leaves out the items of users the caller blocks and reports `hidden` (server/blocks). */
  hidesBlocked?: boolean;
  /** The caller's flags for these ids (the page's items, or the one item of a detail): one indexed read. */
  read(ids: number[], caller: Caller, deps: D): Promise<FlagsOf>;
}

interface Item {
  id: number;
  removed?: unknown;
}

/** A page's items, or the answer itself when it is one item (a post's `content` is its text, not a list). */
const itemsOf = (answer: unknown): Item[] => {
  const content = (answer as { content?: unknown }).content;
  return Array.isArray(content) ? (content as Item[]) : [answer as Item];
};

/**
 * Why this caller's answer may differ from the shared one in more than their flags, so that it is computed for them as
 * before; null when it is the shared one with their flags. The cases, from the services:
 * - a caller who blocks anyone, on a list that hides blocked users' items: other items, and `hidden`;
 * - any item of the shared answer that moderators removed (its content blanked for guests): admins, its author and the
 *   moderators of its hub (or the author of its series) see the content, decided per item by the redaction
 *   (server/moderation/redaction.service.ts), so any removed item makes the answer the caller's own.
 * The mature rule does not apply: these are details and lists inside a series or a hub, which answer everyone; the
 * series lists keep their `variant` (server/http/endpoint.ts). Admins and moderators otherwise get the shared answer.
 */
export function ownAnswerReason(caller: Pick<Caller, "blockCount">, hidesBlocked: boolean, shared: unknown): "blocks" | "removed" | null {
  if (hidesBlocked && caller.blockCount > 0) return "blocks";
  return itemsOf(shared).some((item) => item.removed != null) ? "removed" : null;
}

/** Whether the caller's answer is computed for them before the shared one is even looked at (cheap: the caller's row). */
export const ownAnswerBeforeShared = (caller: Pick<Caller, "blockCount">, hidesBlocked: boolean): boolean =>
  hidesBlocked && caller.blockCount > 0;

/** The ids whose flags the caller's answer needs. */
export const idsOf = (shared: unknown): number[] => itemsOf(shared).map((item) => item.id);

/**
 * The shared answer with the caller's flags, as new objects (the shared one is kept, frozen, for everyone): spreading
 * an item and then setting keys it has keeps their order, so the JSON is what the caller's own computation gives.
 */
export function withFlags<T>(shared: T, flagsOf: FlagsOf): T {
  const flag = (item: Item) => ({ ...item, ...flagsOf(item.id) });
  const content = (shared as { content?: unknown }).content;
  if (Array.isArray(content)) return { ...shared, content: (content as Item[]).map(flag) };
  return flag(shared as Item) as T;
}
