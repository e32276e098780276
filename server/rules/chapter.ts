import { z } from "zod";
import { imageRef, MAX_ID, text } from "./text.ts";

export const CHAPTER_TITLE_MAX = 200;
export const CHAPTER_DESCRIPTION_MAX = 300;
export const CHAPTER_CONTENT_MAX = 10_000;
export const CHAPTER_PAGES_MAX = 500;
export const CHAPTER_NUMBER_MAX = 100_000;

const pageIds = z
  .array(
    z.number({ error: "Each page must be an image id" }).int("Each page must be an image id").min(1, "Each page must be an image id").max(MAX_ID, "Each page must be an image id"),
    { error: "Pages must be a list of image ids" },
  )
  .min(1, "A chapter needs at least one page")
  .max(CHAPTER_PAGES_MAX, "A chapter can have at most 500 pages")
  .refine((ids) => new Set(ids).size === ids.length, "Each image can be used as a page only once");

const chapterFields = {
  title: text("Chapter title", {
    required: "Chapter title is required",
    max: [CHAPTER_TITLE_MAX, "Chapter title must be less than 200 characters"],
  }),
  description: text("Description", { max: [CHAPTER_DESCRIPTION_MAX, "Description must be less than 300 characters"] }),
  content: text("Notes", { max: [CHAPTER_CONTENT_MAX, "Notes must be less than 10000 characters"] }),
  coverId: imageRef("Cover"),
};

export const NewChapterBody = z.object({
  ...chapterFields,
  number: z
    .number({ error: "Chapter number must be a positive whole number" })
    .int("Chapter number must be a positive whole number")
    .min(1, "Chapter number must be a positive whole number")
    .max(CHAPTER_NUMBER_MAX, "Chapter number must be at most 100000")
    .optional(),
  pages: pageIds,
});
export type NewChapterInput = z.infer<typeof NewChapterBody>;

/** Editing keeps the pages unless a new list is given. */
export const ChapterEditBody = z.object({ ...chapterFields, pages: pageIds.optional() });
export type ChapterEditInput = z.infer<typeof ChapterEditBody>;
