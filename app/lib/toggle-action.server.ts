import { data, redirect } from "@remix-run/node";
import { ApiError, apiFor, type Api } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { formText } from "./forms.ts";
import { requireUser, type Session } from "./session.server.ts";

export interface ToggleRun {
  api: Api;
  session: Session;
  form: FormData;
  intent: string;
}

/**
 * The action behind like / join / follow buttons. Guests are sent to the login page (and back).
 * A failed toggle is only logged (docs/web.md §5, silent failures): the page shows the server's
 * state again. A post without JavaScript (`noscript`) is answered with a redirect back to the page.
 */
export async function toggleAction(
  request: Request,
  context: WebContext,
  handlers: Record<string, (run: ToggleRun) => Promise<unknown>>,
  /** The form, when the route has read it already (a body is read once). */
  parsedForm?: FormData,
) {
  const session = await requireUser(request, context);
  const form = parsedForm ?? (await request.formData());
  const intent = formText(form, "intent");
  const handler = handlers[intent];
  if (!handler) throw data({ ok: false, message: "Unknown action" }, { status: 400 });
  let ok = true;
  try {
    await handler({ api: apiFor(request, context, session), session, form, intent });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    console.warn(
      `[toggle] ${intent} failed for ${session.user.username} at ${new URL(request.url).pathname}: ${err.status} ${err.message}`,
    );
    ok = false;
  }
  if (form.get("noscript")) {
    const url = new URL(request.url);
    url.searchParams.delete("index"); // Remix's marker for an index route's form
    throw redirect(url.pathname + url.search, 303);
  }
  return { ok };
}
