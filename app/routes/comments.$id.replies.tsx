import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { SHOW_BLOCKED_PARAM } from "../lib/blocks.ts";
import { loadReplies } from "../lib/comments.server.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, viewerApi } from "../lib/load.server.ts";

/**
 * A thread's replies, rendered, for "load more replies" with JavaScript (without, the page's `?replies=` does it);
 * `?showBlocked=1` as on the page: the replies of people the viewer blocks too.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const { api, session } = await viewerApi(request, context);
  if (id === null) return data({ replies: null, total: 0, hidden: 0 }, { status: 404 });
  const showBlocked = new URL(request.url).searchParams.get(SHOW_BLOCKED_PARAM) === "1";
  const read = await attempt(loadReplies(api, id, true, session?.user.id ?? null, context.config.publicApiUrl, showBlocked));
  return read.ok
    ? { replies: read.value.items, total: read.value.total, hidden: read.value.hidden }
    : data({ replies: null, total: 0, hidden: 0 }, { status: read.status || 502 });
}
