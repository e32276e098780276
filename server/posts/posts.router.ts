import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import type { WriteLimits } from "../http/user-rate-limit.ts";
import { NewPostBody, PostEditBody } from "../rules/post.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { LikeState, Post, PostSummary } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";
import { IncludeBlockedQuery, pageHidingBlocked } from "../rules/blocks.ts";
import type { ViewerFlags } from "../viewer/shared-answers.ts";

const endpoint = endpointsFor<Services>();
const PostId = z.object({ id: idParam("Post id") });
const HubName = z.object({ name: z.string() });
const PostInHub = z.object({ hubName: z.string(), postId: idParam("Post id") });
/** `likedByMe`, the caller's own part of answers otherwise the same for everyone (server/viewer/shared-answers.ts). */
const postLikes: ViewerFlags<Services> = { read: (ids, user, deps) => deps.posts.likedFlags(ids, user.id) };

const hubPosts = (order: "latest" | "by-likes", summary: string) =>
  endpoint({
    method: "get",
    path: `/hubs/{name}/posts/${order}`,
    tag: "Hubs",
    summary,
    auth: "none",
    params: HubName,
    // A blocker's lists leave out their blocked users' posts unless includeBlocked=true (server/blocks).
    query: PagingQuery.extend(IncludeBlockedQuery.shape),
    response: pageHidingBlocked(PostSummary),
    viewerFlags: { ...postLikes, hidesBlocked: true },
    errors: [404],
    handle: ({ params, query, user, deps }) => deps.posts.listHubPosts(params.name, order, toPaging(query), user, query.includeBlocked),
  });

const postLike = (method: "post" | "delete") =>
  endpoint({
    method,
    path: "/hubs/{hubName}/{postId}/like",
    tag: "Posts",
    summary: method === "post" ? "Like a post (idempotent)" : "Remove a like (idempotent)",
    auth: "required",
    params: PostInHub,
    response: LikeState,
    reportsChanges: true,
    errors: [403, 404],
    handle: ({ params, user, deps }) => deps.postLikes[method === "post" ? "like" : "unlike"](user.id, params.hubName, params.postId),
  });

// Mounted right after the hub endpoints: /hubs/id/{id} must come before /hubs/{hubName}/{postId}. New posts and edits
// are limited per user (docs/api.md "Limits").
export const postEndpoints = (limits: Pick<WriteLimits, "post" | "edit">) => [
  hubPosts("latest", "A hub's posts, newest first"),
  hubPosts("by-likes", "A hub's posts, most liked first"),
  endpoint({
    method: "get",
    path: "/hubs/{hubName}/{postId}",
    tag: "Posts",
    summary: "A post of a hub, with its markdown content",
    auth: "none",
    params: PostInHub,
    response: Post,
    viewerFlags: postLikes,
    errors: [404],
    handle: ({ params, user, deps }) => deps.posts.getInHub(params.hubName, params.postId, user),
  }),
  postLike("post"),
  postLike("delete"),
  endpoint({
    method: "get",
    path: "/hub-posts/{id}",
    tag: "Posts",
    summary: "A post by id",
    auth: "none",
    params: PostId,
    response: Post,
    viewerFlags: postLikes,
    errors: [404],
    handle: ({ params, user, deps }) => deps.posts.get(params.id, user),
  }),
  endpoint({
    method: "post",
    path: "/hub-posts",
    tag: "Posts",
    summary: "Post in a hub (members only)",
    auth: "required",
    body: NewPostBody,
    rateLimited: true,
    before: limits.post,
    status: 201,
    response: Post,
    errors: [403, 404],
    handle: ({ body, user, deps }) => deps.posts.create(body, user.id),
  }),
  endpoint({
    method: "put",
    path: "/hub-posts/{id}",
    tag: "Posts",
    summary: "Edit a post (its author only); an absent description is kept, null clears it",
    auth: "required",
    params: PostId,
    body: PostEditBody,
    rateLimited: true,
    before: limits.edit,
    response: Post,
    errors: [403, 404],
    handle: ({ params, body, user, deps }) => deps.posts.update(params.id, body, user.id),
  }),
];
