import { z } from "zod";
import { MAX_ID, text } from "./text.ts";

export const POST_TITLE_MAX = 200;
export const POST_CONTENT_MAX = 10_000;
export const POST_DESCRIPTION_MAX = 300;

/** The orders of a hub's post list: newest first, or most liked first. */
export type PostOrder = "latest" | "by-likes";

const postFields = {
  title: text("Title", {
    required: "Post title is required",
    min: [5, "Title must be at least 5 characters"],
    max: [POST_TITLE_MAX, "Title must be less than 200 characters"],
  }),
  content: text("Content", {
    required: "Post content is required",
    min: [10, "Content must be at least 10 characters"],
    max: [POST_CONTENT_MAX, "Content must be less than 10000 characters"],
  }),
  description: text("Description", { max: [POST_DESCRIPTION_MAX, "Description must be less than 300 characters"] }),
};

export const NewPostBody = z.object({
  ...postFields,
  hubId: z
    .number({ error: "Please choose a hub" })
    .int("Please choose a hub")
    .min(1, "Please choose a hub")
    .max(MAX_ID, "Please choose a hub"),
});
export type NewPostInput = z.infer<typeof NewPostBody>;

/** Editing: an absent description is kept (as for hubs, series and chapters); null clears it. */
export const PostEditBody = z.object({ ...postFields, description: postFields.description.optional() });
export type PostEditInput = z.infer<typeof PostEditBody>;
