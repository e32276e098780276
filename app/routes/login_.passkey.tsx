import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { ApiError, createApi } from "../lib/api.server.ts";
import { passkeyRequestOptions, passkeySignIn } from "../lib/passkeys.server.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { signedInHeaders } from "../lib/session.server.ts";

// Signing in with a passkey (docs/web.md "Passkeys"): the browser's calls from the sign-in page's button
// (app/components/passkeys.tsx), through the web app so that the session cookie is set as the password login sets it.

export const loader = () => redirect("/login");

function refused(err: unknown) {
  if (!(err instanceof ApiError)) throw err;
  const status = err.status === 0 || err.status >= 500 ? 502 : err.status;
  const message = status === 502 ? "Could not reach the server. Please try again." : err.message;
  return Response.json({ message }, { status });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const body = (await request.json().catch(() => null)) as {
    intent?: unknown;
    challengeId?: unknown;
    response?: unknown;
    redirectTo?: unknown;
  } | null;
  const api = createApi(context, { signal: request.signal });
  try {
    if (body?.intent === "options") return Response.json({ options: await passkeyRequestOptions(api) });
    if (body?.intent === "sign-in") {
      const signedIn = await passkeySignIn(api, {
        challengeId: typeof body.challengeId === "string" ? body.challengeId : "",
        response: body.response,
      });
      const redirectTo = safeRedirect(typeof body.redirectTo === "string" ? body.redirectTo : null);
      return Response.json({ redirectTo }, { headers: await signedInHeaders(context, signedIn) });
    }
  } catch (err) {
    return refused(err);
  }
  return Response.json({ message: "Unknown action" }, { status: 400 });
}
