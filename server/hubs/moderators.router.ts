import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { HubModerators } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const Change = z.object({ id: idParam("Hub id"), userId: idParam("User id") });

/** Hub moderators (docs/api.md §14): mounted before the post routes, whose /hubs/{hubName}/{postId} would take the list. */
export const moderatorEndpoints = [
  endpoint({
    method: "get",
    path: "/hubs/{name}/moderators",
    tag: "Moderation",
    summary: "A hub's moderators: its creator first, then those added, earliest first",
    auth: "none",
    params: z.object({ name: z.string() }),
    response: HubModerators,
    errors: [404],
    handle: ({ params, deps }) => deps.moderators.list(params.name),
  }),
  endpoint({
    method: "put",
    path: "/hubs/{id}/moderators/{userId}",
    tag: "Moderation",
    summary: "Make a user a moderator of the hub (its creator or an admin); idempotent",
    auth: "required",
    params: Change,
    response: HubModerators,
    reportsChanges: true,
    errors: [400, 403, 404],
    handle: ({ params, user: { id, isAdmin }, deps }) => deps.moderators.add(params.id, params.userId, { id, isAdmin }),
  }),
  endpoint({
    method: "delete",
    path: "/hubs/{id}/moderators/{userId}",
    tag: "Moderation",
    summary: "Remove a moderator of the hub (its creator or an admin); idempotent; the creator cannot be removed",
    auth: "required",
    params: Change,
    response: HubModerators,
    reportsChanges: true,
    errors: [400, 403, 404],
    handle: ({ params, user: { id, isAdmin }, deps }) => deps.moderators.remove(params.id, params.userId, { id, isAdmin }),
  }),
];
