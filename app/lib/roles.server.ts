// The viewer's site role on the web (CONTRACT.md 13): the session holds only the id and the name, so the API's user
// answer says whether they are an admin (granted by `npm run admin` or ADMIN_USERNAMES, at any time).
import type { Api } from "./api.server.ts";
import { attempt } from "./load.server.ts";
import type { Session } from "./session.server.ts";

/**
 * Whether the signed-in viewer is an admin: one read of their own user answer. False for guests and when that read
 * fails (the page then shows no admin links; the API decides every action anyway).
 */
export async function viewerIsAdmin(api: Api, session: Session | null): Promise<boolean> {
  if (!session) return false;
  const me = await attempt(api.user(session.user.username));
  return me.ok && me.value.role === "admin";
}
