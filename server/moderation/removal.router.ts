import { endpointsFor } from "../http/endpoint.ts";
import { RemovalBody, RemovalState } from "../rules/removal.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

const removal = (action: "remove" | "restore", summary: string) =>
  endpoint({
    method: "post",
    path: `/moderation/${action}`,
    tag: "Moderation",
    summary,
    auth: "required",
    body: RemovalBody,
    response: RemovalState,
    reportsChanges: true,
    errors: [403, 404],
    handle: ({ body, user: { id, isAdmin }, deps }) => deps.removal[action]({ id, isAdmin }, body.subject, body.reason),
  });

// docs/api.md "Removal": the thing keeps its place; others see `removed: { reason }` and no content.
export const removalEndpoints = [
  removal("remove", "Remove a post, comment, chapter, series or hub with a reason (whoever may delete or moderate it); idempotent"),
  removal(
    "restore",
    "Restore a removed thing (whoever removed it, or its moderators with at least the remover's standing; never the author of what someone else removed); idempotent",
  ),
];
