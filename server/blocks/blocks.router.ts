import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { BlockedUser, BlockState } from "../rules/blocks.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { pageSchema } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const UserId = z.object({ userId: idParam("User id") });

/** Blocks (docs/api.md "Blocks"): the caller's own, so every call acts for the token's user. */
export const blockEndpoints = [
  endpoint({
    method: "get",
    path: "/me/blocks",
    tag: "Blocks",
    summary: "The users the caller blocks, most recently blocked first",
    auth: "required",
    query: PagingQuery,
    response: pageSchema(BlockedUser),
    errors: [],
    handle: ({ query, user, deps }) => deps.blocks.list(user.id, toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/me/blocks/{userId}",
    tag: "Blocks",
    summary: "Whether the caller blocks this user (a profile's Block or Unblock button)",
    auth: "required",
    params: UserId,
    response: BlockState,
    errors: [404],
    handle: ({ params, user, deps }) => deps.blocks.state(user.id, params.userId),
  }),
  endpoint({
    method: "put",
    path: "/me/blocks/{userId}",
    tag: "Blocks",
    summary:
      "Block a user (idempotent): their posts and comments leave the caller's lists, they cannot reply to or mention the caller, and make no notifications for them",
    auth: "required",
    params: UserId,
    response: BlockState,
    reportsChanges: true,
    errors: [404],
    handle: ({ params, user, deps }) => deps.blocks.block(user.id, params.userId),
  }),
  endpoint({
    method: "delete",
    path: "/me/blocks/{userId}",
    tag: "Blocks",
    summary: "Unblock a user (idempotent)",
    auth: "required",
    params: UserId,
    response: BlockState,
    reportsChanges: true,
    errors: [404],
    handle: ({ params, user, deps }) => deps.blocks.unblock(user.id, params.userId),
  }),
];
