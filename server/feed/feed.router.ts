import { endpointsFor } from "../http/endpoint.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { FeedItem } from "../rules/api-responses.ts";
import type { Services } from "../services.ts";
import { IncludeBlockedQuery, pageHidingBlocked } from "../rules/blocks.ts";

const endpoint = endpointsFor<Services>();

export const feedEndpoints = [
  endpoint({
    method: "get",
    path: "/me/feed",
    tag: "Feed",
    summary: "New chapters of the series the caller follows and new posts of the hubs they joined, newest first (the newest 1,000)",
    auth: "required",
    // A blocker's feed leaves out their blocked users' posts unless includeBlocked=true (server/blocks).
    query: PagingQuery.extend(IncludeBlockedQuery.shape),
    response: pageHidingBlocked(FeedItem),
    errors: [],
    handle: ({ query, user, deps }) => deps.feed.list(user, toPaging(query), query.includeBlocked),
  }),
];
