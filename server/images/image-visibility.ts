// Who sees an image (docs/api.md §9, docs/decisions/009 and 025): the rules, apart from the reads that feed them.
import type { Actor } from "../rules/permissions.ts";
import type { ImageState, UseLayer } from "./image-visibility.queries.ts";

/**
 * - `public`: anyone, and a cache in front may keep it for the bounded max-age;
 * - `private`: this viewer only (its uploader, or someone who may see the removed thing that uses it), kept by no cache;
 * - `hidden`: the 404 of a missing image.
 */
export type ImageVisibility = "public" | "private" | "hidden";

/**
 * Whether an image is public, or restricted to some viewers (see `maySeeUse` and the service's `seenBy`). Public while
 * it is published and something shown to everyone uses it. A published image nothing uses is public only
 * when no deletion let go of it: images published before uses were recorded, or published by their uploader and then
 * only used by others' deleted posts (decision 018).
 */
export function publicVisibility(state: ImageState): "public" | "restricted" {
  if (state.publishedAt === null) return "restricted";
  if (state.live || (!state.used && !state.released)) return "public";
  return "restricted";
}

/**
 * A removed thing is shown to its author, those who moderate it and admins (docs/api.md "Removal", as the redaction of
 * answers does: server/moderation/redaction.service.ts); a use, to whoever may see each of its removed layers (the
 * thing, the hub or series it is in).
 */
export const maySeeUse = (viewer: Actor, layers: UseLayer[]): boolean =>
  layers.every((layer) => !layer.removed || viewer.isAdmin || layer.authorId === viewer.id || layer.actorModerates === 1);
