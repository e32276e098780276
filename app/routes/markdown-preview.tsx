import { data, type ActionFunctionArgs } from "@remix-run/node";
import { MARKDOWN_PREVIEW_MAX, renderMarkdown } from "../lib/markdown.server.tsx";
import { optionalUser } from "../lib/session.server.ts";

/**
 * POST /markdown-preview (form field `text`) -> { html }: the editors' Preview tab, rendered by the
 * same function as the published post (docs/web.md §9), so the browser needs no markdown parser.
 * Only for signed-in users (the editors are): rendering is work a guest could ask for in bulk.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") throw data({ message: "Use POST" }, { status: 405 });
  const session = await optionalUser(request, context).catch(() => null);
  // Response.json: a resource route's data() loses its status when the route is called directly.
  if (!session) return Response.json({ html: "", error: "Please log in to continue" }, { status: 401 });
  const text = (await request.formData()).get("text");
  if (typeof text !== "string") return Response.json({ html: "", error: "Nothing to preview" }, { status: 400 });
  if (text.length > MARKDOWN_PREVIEW_MAX) return Response.json({ html: "", error: "The text is too long to preview" }, { status: 413 });
  // The text comes back too, so the editor knows which version of its text this preview shows.
  return Response.json({ text, html: renderMarkdown(text, context.config.publicApiUrl) });
}
