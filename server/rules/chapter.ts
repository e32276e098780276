import { z } from "zod";
import { imageRef, MAX_ID, text } from "./text.ts";

export const CHAPTER_TITLE_MAX = 200;
export const CHAPTER_DESCRIPTION_MAX = 300;
export const CHAPTER_CONTENT_MAX = 10_000;
const CHAPTER_PAGES_MAX = 500;
export const CHAPTER_NUMBER_MAX = 100_000;

/** The orders of a series' chapter list: highest number first (`/chapters`, `/chapters/latest`), or `/chapters/most-liked`. */
export type ChapterOrder = "latest" | "most-liked";

const PAGE_ID_MESSAGE = "Each page must be an image id";
const NO_PAGES_MESSAGE = "A chapter needs at least one page";

const pageIds = z
  .array(z.number({ error: PAGE_ID_MESSAGE }).int(PAGE_ID_MESSAGE).min(1, PAGE_ID_MESSAGE).max(MAX_ID, PAGE_ID_MESSAGE), {
    error: (issue) => (issue.input === undefined || issue.input === null ? NO_PAGES_MESSAGE : "Pages must be a list of image ids"),
  })
  .min(1, NO_PAGES_MESSAGE)
  .max(CHAPTER_PAGES_MAX, "A chapter can have at most 500 pages")
  .refine((ids) => new Set(ids).size === ids.length, "Each image can be used as a page only once");

const title = text("Chapter title", {
  required: "Chapter title is required",
  max: [CHAPTER_TITLE_MAX, "Chapter title must be less than 200 characters"],
  // Shown on one line ("Chapter N: title").
  singleLine: true,
});
const description = text("Description", { max: [CHAPTER_DESCRIPTION_MAX, "Description must be less than 300 characters"] });
const content = text("Notes", { max: [CHAPTER_CONTENT_MAX, "Notes must be less than 10000 characters"] });

export const NewChapterBody = z.object({
  title,
  description,
  content,
  coverId: imageRef("Cover"),
  number: z
    .number({ error: "Chapter number must be a positive whole number" })
    .int("Chapter number must be a positive whole number")
    .min(1, "Chapter number must be a positive whole number")
    .max(CHAPTER_NUMBER_MAX, "Chapter number must be at most 100000")
    .optional(),
  pages: pageIds,
});
export type NewChapterInput = z.infer<typeof NewChapterBody>;

/**
 * Editing: an absent description, notes, cover or page list is kept; null clears the text and
 * resets the cover to the first page.
 */
export const ChapterEditBody = z.object({
  title,
  description: description.optional(),
  content: content.optional(),
  coverId: imageRef("Cover"),
  pages: pageIds.optional(),
});
export type ChapterEditInput = z.infer<typeof ChapterEditBody>;
