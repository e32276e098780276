import type { z } from "zod";
import { ENTITY_DESCRIPTION_MAX, ENTITY_NAME_MAX, namedEntityBodies } from "./named-entity.ts";

export const HUB_NAME_MAX = ENTITY_NAME_MAX;
export const HUB_DESCRIPTION_MAX = ENTITY_DESCRIPTION_MAX;

const bodies = namedEntityBodies("Hub");

export const HubBody = bodies.create;
export type HubInput = z.infer<typeof HubBody>;

/** Editing: an absent description, logo or banner is kept (as for series); null clears it. */
export const HubEditBody = bodies.edit;
export type HubEditInput = z.infer<typeof HubEditBody>;
