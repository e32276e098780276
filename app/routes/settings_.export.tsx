import type { LoaderFunctionArgs } from "@remix-run/node";
import { sessionEnded, requireUser } from "../lib/session.server.ts";

/**
 * /settings/export: "Download my data". Streams the API's zip (GET /user/{id}/export, docs/api.md §12) to the
 * browser as it arrives, with the user's token; nothing is kept here. A session the API refuses ends as on
 * every page; another failure is a short plain-text answer.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const headers: Record<string, string> = { Authorization: `Bearer ${session.token}` };
  if (context.clientAddress) headers["X-Forwarded-For"] = context.clientAddress;
  let res: Response;
  try {
    // No timeout: a large account's zip takes as long as it takes; the browser leaving aborts it.
    res = await fetch(`${context.config.apiUrl}/user/${session.user.id}/export`, { headers, signal: request.signal });
  } catch {
    return new Response("The server could not be reached. Please try again.", { status: 502, headers: { "Content-Type": "text/plain" } });
  }
  if (res.status === 401) throw await sessionEnded(request, context);
  if (res.status === 429) {
    // The hourly limit (docs/api.md §12): the API's sentence says when to come back.
    const { message } = (await res.json().catch(() => ({}))) as { message?: string };
    return new Response(message ?? "Your data could not be exported. Please try again later.", {
      status: 429,
      headers: { "Content-Type": "text/plain", "Retry-After": res.headers.get("Retry-After") ?? "3600" },
    });
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return new Response("Your data could not be exported. Please try again.", {
      status: 502,
      headers: { "Content-Type": "text/plain" },
    });
  }
  return new Response(res.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": res.headers.get("Content-Disposition") ?? 'attachment; filename="inkwell-export.zip"',
      "Cache-Control": "private, no-store",
    },
  });
}
