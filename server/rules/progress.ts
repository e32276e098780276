// Reading progress (docs/api.md "Reading progress"): the body of a save and the shapes answered. Pure
// (no Node imports), so the web app imports them too.
import { z } from "zod";
import { CHAPTER_NUMBER_MAX } from "./chapter.ts";
import { Series } from "./api-responses.ts";
import { MAX_ID } from "./text.ts";

/** A chapter has at most 500 pages (rules/chapter.ts); the exact bound is the chapter's own page count. */
const PAGE_MESSAGE = "Page must be a positive whole number";
const CHAPTER_MESSAGE = "Chapter number must be a positive whole number";

export const ProgressBody = z.object({
  chapterNumber: z
    .number({ error: CHAPTER_MESSAGE })
    .int(CHAPTER_MESSAGE)
    .min(1, CHAPTER_MESSAGE)
    .max(Math.min(CHAPTER_NUMBER_MAX, MAX_ID), CHAPTER_MESSAGE),
  page: z.number({ error: PAGE_MESSAGE }).int(PAGE_MESSAGE).min(1, PAGE_MESSAGE).max(MAX_ID, PAGE_MESSAGE),
  opened: z
    .boolean({ error: "opened must be true or false" })
    .optional()
    .describe(
      "A chapter-level save when a chapter is opened (the web app's loader): a stored position further into the same chapter is kept",
    ),
});
export type ProgressInput = z.infer<typeof ProgressBody>;

/** The message of a page past the chapter's last. */
export const pageRangeMessage = (pageCount: number) => `Page must be between 1 and ${pageCount}`;

/** What a save answers: the position now stored. */
export const ProgressState = z.object({
  seriesId: z.number().int().positive(),
  chapterNumber: z.number().int().positive(),
  page: z.number().int().positive(),
  updatedAt: z.iso.datetime(),
});
export type ProgressState = z.infer<typeof ProgressState>;

/** One item of the continue-reading list. */
export const ContinueReading = z.object({
  series: Series,
  chapterNumber: z.number().int().positive(),
  page: z.number().int().positive(),
  updatedAt: z.iso.datetime(),
  unreadChapters: z
    .number()
    .int()
    .nonnegative()
    .describe("The series' chapters numbered after the one in progress that are not removed by moderators"),
});
export type ContinueReading = z.infer<typeof ContinueReading>;
