import { z } from "zod";
import { entityName, imageRef, text } from "./text.ts";

export const HUB_NAME_MAX = 100;
export const HUB_DESCRIPTION_MAX = 500;

const description = text("Description", { max: [HUB_DESCRIPTION_MAX, "Description must be less than 500 characters"] });

export const HubBody = z.object({
  name: entityName("Hub name", {
    required: "Hub name is required",
    min: [3, "Hub name must be at least 3 characters"],
    max: [HUB_NAME_MAX, "Hub name must be less than 100 characters"],
  }),
  description,
  profileImageId: imageRef("Logo"),
  profileBannerId: imageRef("Banner"),
});
export type HubInput = z.infer<typeof HubBody>;

/** Editing: an absent description, logo or banner is kept (as for series); null clears it. */
export const HubEditBody = HubBody.extend({ description: description.optional() });
export type HubEditInput = z.infer<typeof HubEditBody>;
