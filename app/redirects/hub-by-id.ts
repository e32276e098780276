import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { hubPath } from "../lib/urls.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, failureStatus, viewerApi } from "../lib/load.server.ts";

/** /hub/{id}: a link of the first product, to the hub's page by name (docs/web.md §7). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const { api } = await viewerApi(request, context);
  const hub = await attempt(api.hubById(id));
  if (!hub.ok) throw data(null, { status: failureStatus(hub) });
  // Not permanent: a hub can be renamed.
  throw redirect(hubPath(hub.value.name), 302);
}
