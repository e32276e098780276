import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { postPath } from "../lib/urls.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, failureStatus, viewerApi } from "../lib/load.server.ts";

/** /hub-posts/{id}: a link of the first product, to the post's page in its hub (docs/web.md §7). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const { api } = await viewerApi(request, context);
  const post = await attempt(api.postById(id));
  if (!post.ok) throw data(null, { status: failureStatus(post) });
  // Not permanent: a hub can be renamed.
  throw redirect(postPath(post.value.hubName, post.value.id), 302);
}
