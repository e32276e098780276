import type { RequestHandler } from "express";
import { z } from "zod";
import { memoryAttemptCounter, type AttemptCounter, type AttemptCounters } from "../http/attempt-counter.ts";
import { endpointsFor } from "../http/endpoint.ts";
import type { WriteLimits } from "../http/user-rate-limit.ts";
import { TooManyRequests } from "../http/errors.ts";
import {
  CommentEditBody,
  CommentListQuery,
  commentRateMessage,
  DEFAULT_COMMENT_RATE_PER_MINUTE,
  NewCommentBody,
} from "../rules/comment.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { Comment, CommentDeleted, LikeState } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";
import { IncludeBlockedQuery, pageHidingBlocked } from "../rules/blocks.ts";
import type { ViewerFlags } from "../viewer/shared-answers.ts";

const endpoint = endpointsFor<Services>();
const PostInHub = z.object({ hubName: z.string(), postId: idParam("Post id") });
const ChapterInSeries = z.object({ name: z.string(), chapterNumber: idParam("Chapter number") });
const CommentId = z.object({ id: idParam("Comment id") });
// A blocker's lists leave out their blocked users' comments unless includeBlocked=true (server/blocks).
const CommentListing = CommentListQuery.extend(IncludeBlockedQuery.shape);
const ReplyListing = PagingQuery.extend(IncludeBlockedQuery.shape);
/** `likedByMe`, the caller's own part of the lists otherwise the same for everyone (server/viewer/shared-answers.ts). */
const commentLikes: ViewerFlags<Services> = { hidesBlocked: true, read: (ids, user, deps) => deps.comments.likedFlags(ids, user.id) };

/** Counts a new comment per user before its body is looked at; beyond the limit, 429 with Retry-After. */
function limitCommentRate(comments: AttemptCounter, perMinute: number): RequestHandler {
  return async (_req, res, next) => {
    const wait = await comments.take(String((res.locals.user as { id: number }).id));
    next(wait === null ? undefined : new TooManyRequests(commentRateMessage(perMinute, wait), wait));
  };
}

const commentLike = (method: "post" | "delete") =>
  endpoint({
    method,
    path: "/comments/{id}/like",
    tag: "Comments",
    summary: method === "post" ? "Like a comment (idempotent)" : "Remove a like from a comment (idempotent)",
    auth: "required",
    params: CommentId,
    response: LikeState,
    reportsChanges: true,
    errors: [403, 404],
    handle: ({ params, user, deps }) =>
      method === "post" ? deps.commentLikes.like(user.id, params.id) : deps.commentLikes.unlike(user.id, params.id),
  });

export interface CommentEndpointConfig {
  /** New comments per user per minute (COMMENT_RATE_PER_MINUTE); 0 turns the limit off. */
  commentRatePerMinute?: number;
}

export function commentEndpoints(
  { commentRatePerMinute = DEFAULT_COMMENT_RATE_PER_MINUTE }: CommentEndpointConfig,
  counters: AttemptCounters = memoryAttemptCounter,
  // Edits share one count with post edits (server/http/user-rate-limit.ts).
  limits: Pick<WriteLimits, "edit"> = { edit: [] },
) {
  const rate = commentRatePerMinute > 0 ? [limitCommentRate(counters("comment", commentRatePerMinute, 60), commentRatePerMinute)] : [];
  return [
    endpoint({
      method: "get",
      path: "/hubs/{hubName}/{postId}/comments",
      tag: "Comments",
      summary: "A post's top-level comments: sort=top (most liked, then oldest; the default), oldest or newest",
      auth: "none",
      params: PostInHub,
      query: CommentListing,
      response: pageHidingBlocked(Comment),
      viewerFlags: commentLikes,
      errors: [404],
      handle: ({ params, query, user, deps }) =>
        deps.comments.listOnPost(params.hubName, params.postId, { ...query, paging: toPaging(query) }, user),
    }),
    endpoint({
      method: "post",
      path: "/hubs/{hubName}/{postId}/comments",
      tag: "Comments",
      summary: "Comment on a post (anyone signed in), or reply with parentId; a reply to a reply joins its thread",
      auth: "required",
      params: PostInHub,
      body: NewCommentBody,
      rateLimited: true,
      before: rate,
      status: 201,
      response: Comment,
      errors: [403, 404],
      handle: ({ params, body, user, deps }) => deps.comments.commentOnPost(params.hubName, params.postId, body, user.id),
    }),
    endpoint({
      method: "get",
      path: "/series/{name}/{chapterNumber}/comments",
      tag: "Comments",
      summary: "A chapter's top-level comments: sort=top (most liked, then oldest; the default), oldest or newest",
      auth: "none",
      params: ChapterInSeries,
      query: CommentListing,
      response: pageHidingBlocked(Comment),
      viewerFlags: commentLikes,
      errors: [404],
      handle: ({ params, query, user, deps }) =>
        deps.comments.listOnChapter(params.name, params.chapterNumber, { ...query, paging: toPaging(query) }, user),
    }),
    endpoint({
      method: "post",
      path: "/series/{name}/{chapterNumber}/comments",
      tag: "Comments",
      summary: "Comment on a chapter (anyone signed in), or reply with parentId; a reply to a reply joins its thread",
      auth: "required",
      params: ChapterInSeries,
      body: NewCommentBody,
      rateLimited: true,
      before: rate,
      status: 201,
      response: Comment,
      errors: [403, 404],
      handle: ({ params, body, user, deps }) => deps.comments.commentOnChapter(params.name, params.chapterNumber, body, user.id),
    }),
    endpoint({
      method: "get",
      path: "/comments/{id}/replies",
      tag: "Comments",
      summary: "The replies of a top-level comment, oldest first (a tombstone's too)",
      auth: "none",
      params: CommentId,
      query: ReplyListing,
      response: pageHidingBlocked(Comment),
      viewerFlags: commentLikes,
      errors: [404],
      handle: ({ params, query, user, deps }) => deps.comments.replies(params.id, { ...query, paging: toPaging(query) }, user),
    }),
    endpoint({
      method: "put",
      path: "/comments/{id}",
      tag: "Comments",
      summary: "Edit a comment (its author only); sets editedAt",
      auth: "required",
      params: CommentId,
      body: CommentEditBody,
      rateLimited: true,
      before: limits.edit,
      response: Comment,
      errors: [403, 404],
      handle: ({ params, body, user, deps }) => deps.comments.edit(params.id, body.content, user.id),
    }),
    endpoint({
      method: "delete",
      path: "/comments/{id}",
      tag: "Comments",
      summary:
        "Delete a comment (its author, the hub's creator, the series' author); one with replies stays as a tombstone, which goes with its last reply",
      auth: "required",
      params: CommentId,
      response: CommentDeleted,
      errors: [403, 404],
      handle: ({ params, user: { id, isAdmin }, deps }) => deps.comments.remove(params.id, { id, isAdmin }),
    }),
    commentLike("post"),
    commentLike("delete"),
  ];
}
