import { endpointsFor } from "../http/endpoint.ts";
import { ViewerState } from "../rules/viewer.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** The caller's own state for the web app's pages (docs/api.md "The viewer's state"). */
export const viewerEndpoints = [
  endpoint({
    method: "get",
    path: "/me/state",
    tag: "Users",
    summary:
      "The caller's state in one call: their own user (role, showMature), the unread notification count and the most recently saved reading position",
    auth: "required",
    response: ViewerState,
    // The account deleted between the token's check and the read.
    errors: [404],
    handle: ({ user, deps }) => deps.viewer.state(user.id),
  }),
];
