import type { LoaderFunctionArgs } from "@remix-run/node";
import { positiveId } from "../lib/ids.ts";
import { optionalUser } from "../lib/session.server.ts";

const PRIVATE = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };
const notFound = () =>
  new Response("Image not found", { status: 404, headers: { ...PRIVATE, "Content-Type": "text/plain; charset=utf-8" } });
/** Widths the API could be asked for: at most 4 digits. */
const WIDTH_MAX = 9999;

/**
 * GET /uploads/{id}?w=: the signed-in user's own image, fetched from the API with the session's
 * token (the browser cannot send it to the API origin) and passed on with `private, no-store`.
 * It lets the publish forms and the image page show uploads that nothing published yet, which the
 * API shows to their uploader only (docs/decisions/009-image-safety.md), and the images of a removed thing on the pages
 * of those who may see it (docs/decisions/025-withdrawable-images.md). Whoever the API answers 404 gets a 404.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  if (id === null) return notFound();
  const session = await optionalUser(request, context).catch(() => null);
  if (!session) return notFound();
  const width = positiveId(new URL(request.url).searchParams.get("w"));
  const url = `${context.config.apiUrl}/images/${id}${width !== null && width <= WIDTH_MAX ? `?w=${width}` : ""}`;
  const headers: Record<string, string> = { Authorization: `Bearer ${session.token}` };
  if (context.clientAddress) headers["X-Forwarded-For"] = context.clientAddress;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.any([request.signal, AbortSignal.timeout(context.config.apiTimeoutMs)]) });
  } catch {
    return new Response("The image could not be loaded", {
      status: 502,
      headers: { ...PRIVATE, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return res.status === 404 || res.status === 401
      ? notFound()
      : new Response("The image could not be loaded", { status: 502, headers: PRIVATE });
  }
  return new Response(res.body, {
    status: 200,
    headers: {
      ...PRIVATE,
      "Content-Type": res.headers.get("Content-Type") ?? "application/octet-stream",
      ...(res.headers.get("Content-Length") ? { "Content-Length": res.headers.get("Content-Length")! } : {}),
    },
  });
}
