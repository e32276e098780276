import type { z } from "zod";
import { ENTITY_DESCRIPTION_MAX, ENTITY_NAME_MAX, namedEntityBodies } from "./named-entity.ts";

export const SERIES_NAME_MAX = ENTITY_NAME_MAX;
export const SERIES_DESCRIPTION_MAX = ENTITY_DESCRIPTION_MAX;

const bodies = namedEntityBodies("Series");

export const SeriesBody = bodies.create;
export type SeriesInput = z.infer<typeof SeriesBody>;

/**
 * Editing: the first product's edit form sends only `name` (docs/api.md §5), so an absent description,
 * logo or banner is kept; null clears it.
 */
export const SeriesEditBody = bodies.edit;
export type SeriesEditInput = z.infer<typeof SeriesEditBody>;
