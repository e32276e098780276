import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { NewPostBody, PostEditBody } from "../rules/post.ts";
import { Post } from "../rules/responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const PostId = z.object({ id: idParam("Post id") });

export const postEndpoints = [
  endpoint({
    method: "get",
    path: "/hub-posts/{id}",
    tag: "Posts",
    summary: "A post by id",
    auth: "none",
    params: PostId,
    response: Post,
    errors: [404],
    handle: ({ params, user, deps }) => deps.posts.get(params.id, user?.id),
  }),
  endpoint({
    method: "post",
    path: "/hub-posts",
    tag: "Posts",
    summary: "Post in a hub (members only)",
    auth: "required",
    body: NewPostBody,
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
    response: Post,
    errors: [403, 404],
    handle: ({ params, body, user, deps }) => deps.posts.update(params.id, body, user.id),
  }),
];
