// Removal by moderators on the web (docs/web.md "Removal"): the confirmation step's address and what others see.
// Types only from server/rules/removal.ts: its zod schemas stay out of the pages' JavaScript.
import type { RemovableType } from "../../server/rules/removal.ts";

export type RemovalAction = "remove" | "restore";

const TYPES: readonly RemovableType[] = ["post", "comment", "chapter", "series", "hub"];
export const isRemovableType = (v: unknown): v is RemovableType => (TYPES as readonly unknown[]).includes(v);

/** What everyone but the author and the moderators sees in a removed thing's place (exactly this text). */
export const removedText = (reason: string) => `Removed by moderators: ${reason}`;

/**
 * Whether the thing itself is removed, not only the hub, series, post or chapter it is in (`container`): only then is
 * there a removal of its own to restore; else it can still be removed itself.
 */
export const removedItself = (removed: { reason: string; container?: string } | null | undefined): boolean =>
  removed != null && removed.container === undefined;

/** The confirmation step of a removal or a restore, coming back to `back` (the page it was asked from). */
export const removalPath = (action: RemovalAction, type: RemovableType, id: number, back: string) =>
  `/moderate/${action}/${type}/${id}?back=${encodeURIComponent(back)}`;
