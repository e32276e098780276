import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { acknowledgeMature } from "../lib/mature.server.ts";
import { safeRedirect } from "../lib/redirects.ts";

/**
 * The mature notice's Continue (docs/web.md §12): remembers the choice for this browser session and
 * goes on to `?next=` (a path on this site only). A link, so it works without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const next = safeRedirect(new URL(request.url).searchParams.get("next"), "/series");
  throw redirect(next, { status: 303, headers: { "Set-Cookie": await acknowledgeMature(context), "Cache-Control": "no-store" } });
}
