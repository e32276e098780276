import { data, type ActionFunctionArgs } from "@remix-run/node";
import { ApiError, apiFor } from "../lib/api.server.ts";
import { positiveId } from "../lib/ids.ts";
import { progressApi } from "../lib/progress.server.ts";
import { optionalUser } from "../lib/session.server.ts";

/**
 * POST /progress (form fields `seriesId`, `chapterNumber`, `page`) -> 204: the reader's background saves
 * (use-reading-progress.ts, by fetch or `navigator.sendBeacon`), forwarded to PUT /me/progress/{seriesId}. A guest's
 * save does nothing (204); bad fields are 400; the API's 4xx are passed on; a failed API call is 204 (nothing to retry:
 * the next save carries the position anyway), so a beacon never meets a 5xx.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") throw data({ message: "Use POST" }, { status: 405 });
  const session = await optionalUser(request, context).catch(() => null);
  if (!session) return new Response(null, { status: 204 });
  const form = await request.formData().catch(() => null);
  const seriesId = positiveId(form?.get("seriesId"));
  const chapterNumber = positiveId(form?.get("chapterNumber"));
  const page = positiveId(form?.get("page"));
  if (seriesId === null || chapterNumber === null || page === null) {
    return Response.json({ message: "seriesId, chapterNumber and page must be positive whole numbers" }, { status: 400 });
  }
  try {
    await progressApi(apiFor(request, context, session)).save(seriesId, { chapterNumber, page });
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500)
      return Response.json({ message: err.message }, { status: err.status });
    // The API failed or timed out, or the session ended (its redirect to the login page): a background save has
    // nowhere to go.
    if (err instanceof ApiError || err instanceof Response) return new Response(null, { status: 204 });
    throw err;
  }
  return new Response(null, { status: 204 });
}
