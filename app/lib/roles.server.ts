// The viewer's site role on the web (docs/api.md §14): the session holds only the id and the name, so the viewer's state
// (GET /me/state, read once per request) says whether they are an admin (granted by `npm run admin` or ADMIN_USERNAMES,
// at any time).
import type { WebContext } from "./context.ts";
import type { Session } from "./session.server.ts";
import { viewerState } from "./viewer.server.ts";

/**
 * Whether the signed-in viewer is an admin. False for guests and when the state's read fails (the page then shows no
 * admin links; the API decides every action anyway).
 */
export async function viewerIsAdmin(request: Request, context: WebContext, session: Session | null): Promise<boolean> {
  return (await viewerState(request, context, session))?.user.role === "admin";
}
