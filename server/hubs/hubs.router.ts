import { z } from "zod";
import type { Caller } from "../http/auth.ts";
import { endpointsFor } from "../http/endpoint.ts";
import { HubBody, HubEditBody } from "../rules/hub.ts";
import type { Actor } from "../rules/permissions.ts";
import { PagingQuery, SearchQuery, toPaging } from "../rules/paging.ts";
import { Hub, HubDetail, pageSchema } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const HubName = z.object({ name: z.string() });
/** What the moderator rules need of the caller (server/rules/permissions.ts). */
const actorOf = (user: Caller | null): Actor | null => (user ? { id: user.id, isAdmin: user.isAdmin } : null);

// Order matters: fixed paths before /hubs/{name}.
export const hubEndpoints = [
  endpoint({
    method: "get",
    path: "/hubs",
    tag: "Hubs",
    summary: "All hubs, newest first",
    auth: "none",
    query: PagingQuery,
    response: pageSchema(Hub),
    errors: [],
    handle: ({ query, deps }) => deps.hubs.listNewest(toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/hubs/top",
    tag: "Hubs",
    summary: "Hubs with the most members",
    auth: "none",
    query: PagingQuery,
    response: pageSchema(Hub),
    errors: [],
    handle: ({ query, deps }) => deps.hubs.listTop(toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/hubs/search",
    tag: "Hubs",
    summary: "Hubs whose name contains the text (case-insensitive), newest first",
    auth: "none",
    query: SearchQuery,
    response: pageSchema(Hub),
    errors: [],
    handle: ({ query, deps }) => deps.hubs.search(query.name, toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/hubs/id/{id}",
    tag: "Hubs",
    summary: "A hub by id",
    auth: "none",
    params: z.object({ id: idParam("Hub id") }),
    response: HubDetail,
    errors: [404],
    handle: ({ params, user, deps }) => deps.hubs.getById(params.id, actorOf(user)),
  }),
  endpoint({
    method: "post",
    path: "/hubs",
    tag: "Hubs",
    summary: "Create a hub; its creator becomes its first member",
    auth: "required",
    body: HubBody,
    status: 201,
    response: HubDetail,
    // 403: REQUIRE_VERIFIED_EMAIL and an unverified address (docs/api.md "Verified email addresses").
    errors: [403, 409],
    handle: ({ body, user, deps }) => deps.hubs.create(body, user.id),
  }),
  endpoint({
    method: "put",
    path: "/hubs/{id}",
    tag: "Hubs",
    summary: "Edit a hub (its creator only); an absent description, logo or banner is kept, null clears it",
    auth: "required",
    params: z.object({ id: idParam("Hub id") }),
    body: HubEditBody,
    response: HubDetail,
    errors: [403, 404, 409],
    handle: ({ params, body, user, deps }) => deps.hubs.update(params.id, body, user.id),
  }),
  endpoint({
    method: "get",
    path: "/hubs/{name}",
    tag: "Hubs",
    summary: "A hub by name (case-insensitive), or by id when the name is all digits and no hub has it",
    auth: "none",
    params: HubName,
    response: HubDetail,
    errors: [404],
    handle: ({ params, user, deps }) => deps.hubs.getByNameOrId(params.name, actorOf(user)),
  }),
];
