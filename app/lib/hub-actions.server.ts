import type { ToggleRun } from "./toggle-action.server.ts";
import { positiveId } from "./ids.ts";
import { ApiError } from "./api.server.ts";

const setMembership =
  (member: boolean) =>
  async ({ api, session, form }: ToggleRun) => {
    const hubId = positiveId(form.get("hubId"));
    if (hubId === null) throw new ApiError(400, "hubId is required");
    return api.setMembership(session.user.id, hubId, member);
  };

/** Join and leave a hub, for toggleAction (hub page and post page). */
export const membershipHandlers = { join: setMembership(true), leave: setMembership(false) };
