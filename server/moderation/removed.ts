// How a removed thing is answered (docs/api.md "Removal"): `removed` from its row, and the content left out for
// everyone but its author and those who may restore it.
import type { RemovalContainer, Removed } from "../rules/removal.ts";

/** A removed hub, series, post or chapter that a thing is inside: its kind and its `removedReason` (null: not removed). */
export interface Within {
  container: RemovalContainer;
  reason: string | null;
}

/**
 * `removed` of an answer, from the row's `removedReason` (set exactly while it is removed), else from the first removed
 * thing it is inside (a post's hub, a chapter's series, a comment's post or chapter and its hub or series): what is
 * inside a removed thing is answered as removed with it, `container` naming it (restoring the thing itself is moot).
 */
export function removedOf(row: { removedReason: string | null }, ...within: Within[]): Removed {
  if (row.removedReason != null) return { reason: row.removedReason };
  const outer = within.find((w) => w.reason != null);
  return outer ? { reason: outer.reason!, container: outer.container } : null;
}
