import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { loadReplies } from "../lib/comments.server.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, viewerApi } from "../lib/load.server.ts";

/** A thread's replies, rendered, for "load more replies" with JavaScript (without, the page's `?replies=` does it). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const { api, session } = await viewerApi(request, context);
  if (id === null) return data({ replies: null, total: 0 }, { status: 404 });
  const read = await attempt(loadReplies(api, id, true, session?.user.id ?? null, context.config.publicApiUrl));
  return read.ok
    ? { replies: read.value.items, total: read.value.total }
    : data({ replies: null, total: 0 }, { status: read.status || 502 });
}
