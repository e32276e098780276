// The comment section's loader and action parts, shared by the post page and the chapter page (docs/api.md §10).
import { data, redirect } from "@remix-run/node";
import { COMMENT_SORTS, type CommentSort } from "../../server/rules/comment.ts";
import type { Comment } from "../../server/rules/api-responses.ts";
import { ApiError, apiFor, type Api } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { formText } from "./forms.ts";
import { pageParam } from "./format.ts";
import { positiveId } from "./ids.ts";
import { attempt } from "./load.server.ts";
import { renderSavedMarkdown } from "./markdown.server.tsx";
import { requireUser } from "./session.server.ts";
import { SHOW_BLOCKED_PARAM } from "./blocks.ts";
import { COMMENT_PARAMS, FIRST_REPLIES, MORE_REPLIES, type CommentActionData, type CommentsData, type ShownComment } from "./comments.ts";

const isSort = (v: unknown): v is CommentSort => (COMMENT_SORTS as readonly unknown[]).includes(v);

/** A comment as the page shows it: markdown rendered here; its markdown only for its author, who may edit it. */
export function shownComment(c: Comment, viewerId: number | null, publicApiUrl: string): ShownComment {
  return {
    id: c.id,
    authorId: c.authorId,
    authorName: c.authorName,
    authorImageId: c.authorImageId,
    createdAt: c.createdAt,
    editedAt: c.editedAt,
    likes: c.likes,
    likedByMe: c.likedByMe,
    parentId: c.parentId,
    replyCount: c.replyCount,
    deleted: c.deleted,
    removed: c.removed,
    // The API leaves a removed comment's content out for everyone but its author and the moderators.
    removedHidden: c.removed !== null && c.content === "",
    // A removed comment's images load through the visitor's session: only those who may see it get them (docs/decisions/025).
    contentHtml: c.deleted ? "" : renderSavedMarkdown(c.content, publicApiUrl, { imagesThroughSession: c.removed !== null }),
    content: viewerId !== null && viewerId === c.authorId ? c.content : null,
  };
}

/** A thread's replies, oldest first: the first few, or (`all`) as many as one page holds. */
export async function loadReplies(
  api: Api,
  commentId: number,
  all: boolean,
  viewerId: number | null,
  publicApiUrl: string,
  includeBlocked = false,
) {
  const page = await api.replies(commentId, 1, all ? MORE_REPLIES : FIRST_REPLIES, includeBlocked);
  return { items: page.content.map((r) => shownComment(r, viewerId, publicApiUrl)), total: page.totalElements, hidden: page.hidden ?? 0 };
}

/**
 * One page of a post's or chapter's top-level comments with the first replies of each, from the page's query
 * (`csort`, `cpage`, and `replies`: a thread shown whole). Null when the comments could not be read (the page
 * still shows the post or the chapter).
 */
export async function loadComments(
  api: Api,
  place: string,
  url: URL,
  viewerId: number | null,
  publicApiUrl: string,
): Promise<CommentsData | null> {
  const sortParam = url.searchParams.get(COMMENT_PARAMS.sort);
  const sort: CommentSort = isSort(sortParam) ? sortParam : "top";
  const page = pageParam(url.searchParams.get(COMMENT_PARAMS.page));
  const expanded = positiveId(url.searchParams.get(COMMENT_PARAMS.replies));
  // `?showBlocked=1`: the comments of people the viewer blocks too (the "show them" link of the hidden line).
  const showBlocked = url.searchParams.get(SHOW_BLOCKED_PARAM) === "1";
  const list = await attempt(api.comments(place, sort, page, undefined, showBlocked));
  if (!list.ok) return null;
  const comments = await Promise.all(
    list.value.content.map(async (c) => {
      const shown = shownComment(c, viewerId, publicApiUrl);
      if (c.replyCount === 0) return { ...shown, replies: [], repliesTotal: 0, repliesHidden: 0 };
      const replies = await attempt(loadReplies(api, c.id, c.id === expanded, viewerId, publicApiUrl, showBlocked));
      return replies.ok
        ? { ...shown, replies: replies.value.items, repliesTotal: replies.value.total, repliesHidden: replies.value.hidden }
        : { ...shown, replies: [], repliesTotal: c.replyCount, repliesHidden: 0 };
    }),
  );
  return {
    sort,
    page: list.value.page,
    totalPages: list.value.totalPages,
    comments,
    now: Date.now(),
    hidden: list.value.hidden ?? 0,
    // Only a viewer who blocks someone gets `hidden` at all.
    showBlocked: showBlocked && list.value.hidden !== undefined,
  };
}

/** The intents of the comment section's forms. */
export const COMMENT_INTENTS = ["comment", "reply", "edit-comment", "delete-comment", "like-comment", "unlike-comment"] as const;
export const isCommentIntent = (intent: unknown) => (COMMENT_INTENTS as readonly unknown[]).includes(intent);

/** Where a form post without JavaScript goes back to: the page (its own query kept) at the comment. */
function backTo(request: Request, changes: Record<string, string | null>, anchor: string) {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  return url.pathname + url.search + anchor;
}

/**
 * The comment section's action: comment, reply, edit, delete, like and unlike through the API. Guests go to the
 * login page. With JavaScript (a fetcher) it answers data; a form post without (`noscript`) is answered with a
 * redirect back to the page at the comment, or, when the API refused, with the page and the message next to the
 * form and the text kept.
 */
export async function commentAction(request: Request, context: WebContext, place: string, form: FormData) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const intent = formText(form, "intent");
  const noscript = form.get("noscript") !== null;
  const content = formText(form, "content");
  const commentId = positiveId(form.get("commentId"));
  const formId = intent === "comment" ? "new" : `${intent}-${commentId ?? 0}`;
  try {
    let anchor = "#comments";
    let written: number | undefined;
    let changes: Record<string, string | null> = {};
    if (intent === "comment") {
      const created = await api.addComment(place, content);
      written = created.id;
      // The newest first, so the new comment is on the page the browser lands on.
      changes = { [COMMENT_PARAMS.sort]: "newest", [COMMENT_PARAMS.page]: null };
      anchor = `#comment-${created.id}`;
    } else if (commentId === null) {
      throw new ApiError(400, "commentId is required");
    } else if (intent === "reply") {
      const created = await api.addComment(place, content, commentId);
      written = created.id;
      changes = { [COMMENT_PARAMS.replies]: String(created.parentId ?? commentId) };
      anchor = `#comment-${created.id}`;
    } else if (intent === "edit-comment") {
      await api.editComment(commentId, content);
      anchor = `#comment-${commentId}`;
    } else if (intent === "delete-comment") {
      const parentId = positiveId(form.get("parentId"));
      await api.deleteComment(commentId);
      anchor = parentId !== null ? `#comment-${parentId}` : "#comments";
    } else if (intent === "like-comment" || intent === "unlike-comment") {
      await api.setCommentLike(commentId, intent === "like-comment");
      anchor = `#comment-${commentId}`;
    } else {
      throw data({ ok: false, message: "Unknown action" }, { status: 400 });
    }
    if (noscript) throw redirect(backTo(request, changes, anchor), 303);
    return data<CommentActionData>({ comment: { ok: true, formId, message: null, content: null, ...(written ? { id: written } : {}) } });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const message = err.errors[0]?.message ?? err.message;
    return data<CommentActionData>(
      { comment: { ok: false, formId, message, content } },
      { status: err.status >= 400 && err.status < 600 ? err.status : 502 },
    );
  }
}
