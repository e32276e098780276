// How a removed thing is answered (docs/api.md "Removal"): `removed` from its row, and the content left out for
// everyone but its author and those who may restore it.
import type { Removed } from "../rules/removal.ts";

/** `removed` of an answer, from the row's `removedReason` (set exactly while it is removed). */
export const removedOf = (row: { removedReason: string | null }): Removed =>
  row.removedReason == null ? null : { reason: row.removedReason };
