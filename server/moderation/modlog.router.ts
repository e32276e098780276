import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { ModLogItem, SiteModLogItem } from "../rules/modlog.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { pageSchema } from "../rules/api-responses.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** The mod logs (docs/api.md "Bans, suspensions and the mod log"): the hub's is mounted before the post routes, whose /hubs/{hubName}/{postId} would take it. */
export const modLogEndpoints = [
  endpoint({
    method: "get",
    path: "/hubs/{name}/modlog",
    tag: "Moderation",
    summary: "What the hub's moderators did (bans, removals, moderator changes, ...), newest first; public",
    auth: "none",
    params: z.object({ name: z.string() }),
    query: PagingQuery,
    response: pageSchema(ModLogItem),
    errors: [404],
    handle: ({ params, query, deps }) => deps.modLog.ofHub(params.name, toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/modlog",
    tag: "Moderation",
    summary: "Every mod log entry, the hubs' and the site's (suspensions), newest first (admins)",
    auth: "required",
    query: PagingQuery,
    response: pageSchema(SiteModLogItem),
    errors: [403],
    handle: ({ query, user: { id, isAdmin }, deps }) => deps.modLog.ofSite(toPaging(query), { id, isAdmin }),
  }),
];
