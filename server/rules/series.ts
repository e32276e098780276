import { z } from "zod";
import { entityName, imageRef, text } from "./text.ts";

export const SERIES_NAME_MAX = 100;
export const SERIES_DESCRIPTION_MAX = 500;

export const SeriesBody = z.object({
  name: entityName("Series name", {
    required: "Series name is required",
    min: [3, "Series name must be at least 3 characters"],
    max: [SERIES_NAME_MAX, "Series name must be less than 100 characters"],
  }),
  description: text("Description", { max: [SERIES_DESCRIPTION_MAX, "Description must be less than 500 characters"] }),
  profileImageId: imageRef("Logo"),
  profileBannerId: imageRef("Banner"),
});
export type SeriesInput = z.infer<typeof SeriesBody>;
