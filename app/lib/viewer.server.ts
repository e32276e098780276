// The viewer's state (GET /me/state): the unread count, the role, showMature and the latest reading position, read once
// per request and shared by the root loader and the route's loaders, which Remix runs in parallel (docs/web.md §1).
import type { User } from "../../server/rules/api-responses.ts";
import type { ViewerState } from "../../server/rules/viewer.ts";
import { createApi, type Api } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { attempt, type Loaded } from "./load.server.ts";
import type { Session } from "./session.server.ts";

export type { ViewerState };

/**
 * The signed-in viewer's state, or null for a guest or when the call failed (then: no badge, no admin links, the
 * mature notice, the chapter's progress saved as usual). One call per request when the load context carries
 * `perRequest` (web/main.ts makes one per request); keyed by the token, so it is only ever this session's.
 */
export function viewerState(request: Request, context: WebContext, session: Session | null): Promise<ViewerState | null> {
  if (!session) return Promise.resolve(null);
  const key = `viewer-state\n${session.token}`;
  const kept = context.perRequest?.get(key) as Promise<ViewerState | null> | undefined;
  if (kept) return kept;
  // Without onUnauthorized: an ended session is answered by the page's own calls (a redirect to login).
  const state = createApi(context, { token: session.token, signal: request.signal })
    .call<ViewerState>("/me/state")
    .catch(() => null);
  context.perRequest?.set(key, state);
  return state;
}

/**
 * A user's card (a hub's or series' creator): the viewer's own comes with their state, anyone else's is one call.
 * The state's user is the answer GET /user/{username} gives the viewer about themselves.
 */
export async function readUser(
  request: Request,
  context: WebContext,
  api: Api,
  session: Session | null,
  username: string,
): Promise<Loaded<User>> {
  if (session && session.user.username.toLowerCase() === username.toLowerCase()) {
    const state = await viewerState(request, context, session);
    if (state) return { ok: true, value: state.user };
  }
  return attempt(api.user(username));
}
