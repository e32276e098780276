import { z } from "zod";
import { entityName, imageRef, text } from "./text.ts";

export const SERIES_NAME_MAX = 100;
export const SERIES_DESCRIPTION_MAX = 500;

const description = text("Description", { max: [SERIES_DESCRIPTION_MAX, "Description must be less than 500 characters"] });

export const SeriesBody = z.object({
  name: entityName("Series name", {
    required: "Series name is required",
    min: [3, "Series name must be at least 3 characters"],
    max: [SERIES_NAME_MAX, "Series name must be less than 100 characters"],
  }),
  description,
  profileImageId: imageRef("Logo"),
  profileBannerId: imageRef("Banner"),
});
export type SeriesInput = z.infer<typeof SeriesBody>;

/**
 * Editing: the first product's edit form sends only `name` (docs/api.md §5), so an absent description,
 * logo or banner is kept; null clears it.
 */
export const SeriesEditBody = SeriesBody.extend({ description: description.optional() });
export type SeriesEditInput = z.infer<typeof SeriesEditBody>;
