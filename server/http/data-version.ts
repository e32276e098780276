import { z } from "zod";
import { endpointsFor } from "./endpoint.ts";
import type { ResponseCache } from "./response-cache.ts";

const endpoint = endpointsFor<unknown>();

const DataVersion = z.object({
  version: z
    .string()
    .describe(
      "Changes whenever a write through the API has been committed; different after every restart. With a token, it also changes when the caller's own writes that no shared answer shows (reading progress) are committed",
    ),
});

/**
 * GET /data-version: lets a client that keeps rendered pages (the web app's guest page cache) know
 * whether anything changed since it rendered them, for the price of one small request. A signed-in caller's
 * version also moves with their own reading progress, which changes only their pages (the web app's signed-in
 * page cache sends the visitor's token).
 */
export const dataVersionEndpoint = (cache: ResponseCache) =>
  endpoint({
    method: "get",
    path: "/data-version",
    tag: "Health",
    summary: "The current data version: every committed write changes it, nothing else does",
    auth: "none",
    response: DataVersion,
    errors: [],
    handle: async ({ user }) => ({ version: user ? await cache.refreshFor(user.id) : await cache.refresh() }),
  });
