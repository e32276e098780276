import { endpointsFor } from "../http/endpoint.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { FeedItem, pageSchema } from "../rules/responses.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

export const feedEndpoints = [
  endpoint({
    method: "get",
    path: "/me/feed",
    tag: "Feed",
    summary: "New chapters of the series the caller follows and new posts of the hubs they joined, newest first (the newest 1,000)",
    auth: "required",
    query: PagingQuery,
    response: pageSchema(FeedItem),
    errors: [],
    handle: ({ query, user, deps }) => deps.feed.list(user.id, toPaging(query)),
  }),
];
