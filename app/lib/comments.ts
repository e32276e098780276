// The comment section's shapes and constants, for the server parts and the components alike.
import type { CommentSort } from "../../server/rules/comment.ts";

/** The page's query parameters the comment section owns, so the post's or the reader's own stay intact. */
export const COMMENT_PARAMS = { sort: "csort", page: "cpage", replies: "replies" } as const;

/** Replies shown under each comment at first; "load more replies" shows up to MORE_REPLIES. */
export const FIRST_REPLIES = 3;
export const MORE_REPLIES = 100;

export interface ShownComment {
  id: number;
  authorId: number | null;
  authorName: string | null;
  authorImageId: number | null;
  createdAt: string;
  editedAt: string | null;
  likes: number;
  likedByMe: boolean;
  parentId: number | null;
  replyCount: number;
  deleted: boolean;
  /** Removed by moderators: null, or their reason (docs/web.md "Removal"). */
  removed: { reason: string; container?: string } | null;
  /** Removed and its content not shown to this viewer (only its author and the moderators see it). */
  removedHidden: boolean;
  contentHtml: string;
  /** The markdown, for its author's edit form only. */
  content: string | null;
}

export interface ThreadComment extends ShownComment {
  replies: ShownComment[];
  /** How many replies the thread has (the API's count of the replies page: those shown to this viewer). */
  repliesTotal: number;
  /** Replies left out because the viewer blocks their authors (the API's `hidden`); 0 for most. */
  repliesHidden: number;
}

export interface CommentsData {
  sort: CommentSort;
  page: number;
  totalPages: number;
  comments: ThreadComment[];
  /** The server's clock, so relative dates render alike on the server and in the browser. */
  now: number;
  /** Top-level comments left out because the viewer blocks their authors (server/blocks); 0 for most. */
  hidden: number;
  /** `?showBlocked=1`: they are shown. */
  showBlocked: boolean;
}

/** What the comment action answers: which form it was, and the API's message with the text kept when refused. */
export interface CommentActionData {
  /** `id`: the comment written (new comments and replies). */
  comment: { ok: boolean; formId: string; message: string | null; content: string | null; id?: number };
}

export const isCommentActionData = (v: unknown): v is CommentActionData =>
  typeof v === "object" && v !== null && "comment" in v && typeof (v as CommentActionData).comment === "object";
