import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { createApi } from "../lib/api.server.ts";
import { clearSession, optionalUser } from "../lib/session.server.ts";

/**
 * Logout is a POST (a link could be triggered by another site): the API revokes the session's token
 * (POST /auth/logout; a failure there does not keep the user signed in), then the cookie is cleared.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await optionalUser(request, context).catch(() => null);
  if (session)
    await createApi(context, { token: session.token, signal: request.signal })
      .logout()
      .catch(() => undefined);
  throw redirect("/", { headers: { "Set-Cookie": await clearSession(context) } });
}

export function loader() {
  throw redirect("/");
}
