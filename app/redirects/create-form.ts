import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";

const FORMS = new Set(["hub", "series", "post", "chapter"]);

/** /create/hub, /create/series (and post, chapter): links of the first product, to the forms (docs/web.md §7). */
export function loader({ params, request }: LoaderFunctionArgs) {
  const kind = (params.kind ?? "").toLowerCase();
  if (!FORMS.has(kind)) throw data(null, { status: 404 });
  throw redirect(`/publish/${kind}${new URL(request.url).search}`, 301);
}
