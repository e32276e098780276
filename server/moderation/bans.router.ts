import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { BanBody, HubBan, HubBanState, LiftBody } from "../rules/bans.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { pageSchema } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const Change = z.object({ id: idParam("Hub id"), userId: idParam("User id") });

/** Hub bans (docs/api.md "Bans, suspensions and the mod log"): mounted before the post routes, whose /hubs/{hubName}/{postId} would take the list. */
export const banEndpoints = [
  endpoint({
    method: "get",
    path: "/hubs/{name}/bans",
    tag: "Moderation",
    summary: "A hub's bans, newest first (its moderators and admins); ended ones stay listed until lifted or set again",
    auth: "required",
    params: z.object({ name: z.string() }),
    query: PagingQuery,
    response: pageSchema(HubBan),
    errors: [403, 404],
    handle: ({ params, query, user: { id, isAdmin }, deps }) => deps.bans.list(params.name, toPaging(query), { id, isAdmin }),
  }),
  endpoint({
    method: "put",
    path: "/hubs/{id}/bans/{userId}",
    tag: "Moderation",
    summary:
      "Ban a user from the hub (its moderators, admins): no posting, commenting, liking or joining there; days absent: no end. Setting it again replaces reason and end",
    auth: "required",
    params: Change,
    body: BanBody,
    response: HubBanState,
    errors: [400, 403, 404],
    handle: ({ params, body, user: { id, isAdmin }, deps }) => deps.bans.ban(params.id, params.userId, body, { id, isAdmin }),
  }),
  endpoint({
    method: "delete",
    path: "/hubs/{id}/bans/{userId}",
    tag: "Moderation",
    summary: "Lift a user's ban from the hub (its moderators, admins); idempotent; an optional reason goes to the mod log",
    auth: "required",
    params: Change,
    body: LiftBody,
    response: HubBanState,
    reportsChanges: true,
    errors: [403, 404],
    handle: ({ params, body, user: { id, isAdmin }, deps }) => deps.bans.unban(params.id, params.userId, body.reason, { id, isAdmin }),
  }),
];
