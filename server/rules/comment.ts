import { z } from "zod";
import { PagingQuery } from "./paging.ts";
import { MAX_ID, text } from "./text.ts";

export const COMMENT_CONTENT_MAX = 5000;

/** Markdown, rendered like a post's (docs/api.md §10). */
const content = text("Comment", {
  required: "Comment cannot be empty",
  max: [COMMENT_CONTENT_MAX, "Comment must be less than 5000 characters"],
});

export const NewCommentBody = z.object({
  content,
  /** The comment answered; a reply to a reply is stored in the same thread. Absent or null: a top-level comment. */
  parentId: z
    .number({ error: "parentId must be a comment id" })
    .int("parentId must be a comment id")
    .min(1, "parentId must be a comment id")
    .max(MAX_ID, "parentId must be a comment id")
    .nullable()
    .optional(),
});
export type NewCommentInput = z.infer<typeof NewCommentBody>;

export const CommentEditBody = z.object({ content });

export const COMMENT_SORTS = ["top", "oldest", "newest"] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];

/** `sort`: top (most liked, then oldest; the default), oldest or newest; with the usual paging. */
export const CommentListQuery = PagingQuery.extend({
  sort: z.enum(COMMENT_SORTS, { error: "sort must be top, oldest or newest" }).default("top"),
});

/** New comments per user per minute unless COMMENT_RATE_PER_MINUTE says otherwise (0 turns the limit off). */
export const DEFAULT_COMMENT_RATE_PER_MINUTE = 10;

export function commentRateMessage(perMinute: number, retryAfterSeconds: number): string {
  return `You can post at most ${perMinute} comments a minute. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`;
}
