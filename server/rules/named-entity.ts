import { z } from "zod";
import { entityName, imageRef, text } from "./text.ts";

export const ENTITY_NAME_MAX = 100;
export const ENTITY_DESCRIPTION_MAX = 500;

/**
 * The create and edit bodies of a hub or a series, which differ only in the word in their messages.
 * Editing: an absent description, logo or banner is kept; null clears it.
 */
export function namedEntityBodies(kind: "Hub" | "Series") {
  const description = text("Description", {
    max: [ENTITY_DESCRIPTION_MAX, `Description must be less than ${ENTITY_DESCRIPTION_MAX} characters`],
  });
  const create = z.object({
    name: entityName(`${kind} name`, {
      required: `${kind} name is required`,
      min: [3, `${kind} name must be at least 3 characters`],
      max: [ENTITY_NAME_MAX, `${kind} name must be less than ${ENTITY_NAME_MAX} characters`],
    }),
    description,
    profileImageId: imageRef("Logo"),
    profileBannerId: imageRef("Banner"),
  });
  return { create, edit: create.extend({ description: description.optional() }) };
}
