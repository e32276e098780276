import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { PasskeyName } from "../../server/rules/passkeys.ts";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { fieldErrors, formValues } from "../lib/forms.ts";
import { addPasskey, deletePasskey, passkeyCreationOptions } from "../lib/passkeys.server.ts";
import { requireUser } from "../lib/session.server.ts";

// The settings page's passkeys (docs/web.md "Passkeys"): the browser's calls to add one (JSON, from
// app/components/passkeys.tsx) and the plain form that deletes one (works without JavaScript). No screen of its own.

export const loader = () => redirect("/settings#passkeys");

/** The API's refusal as the browser's script reads it: a message, the field errors, and the status. */
function refused(err: unknown) {
  if (!(err instanceof ApiError)) throw err;
  const status = err.status === 0 || err.status >= 500 ? 502 : err.status;
  const message = status === 502 ? "Could not reach the server. Please try again." : err.message;
  return Response.json({ message, fieldErrors: apiFieldErrors(err) }, { status });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);

  if (!(request.headers.get("Content-Type") ?? "").startsWith("application/json")) {
    // The list's Delete button: a plain form post, back to the list either way (a passkey gone already is gone).
    const values = formValues(await request.formData(), ["intent", "id"]);
    const id = Number(values.id);
    if (values.intent === "delete" && Number.isSafeInteger(id) && id > 0) {
      try {
        await deletePasskey(api, id);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
    }
    return redirect("/settings#passkeys");
  }

  const body = (await request.json().catch(() => null)) as { intent?: unknown; name?: unknown; response?: unknown } | null;
  const name = PasskeyName.safeParse(body?.name);
  if (!name.success) {
    const errors = fieldErrors(name.error);
    const message = Object.values(errors)[0] ?? "Name is required";
    return Response.json({ message, fieldErrors: { name: message } }, { status: 400 });
  }
  try {
    if (body?.intent === "options") return Response.json({ options: await passkeyCreationOptions(api) });
    if (body?.intent === "add") {
      const added = await addPasskey(api, { name: name.data, response: body.response });
      return Response.json({ message: `Passkey "${added.name}" added. You can sign in with it from now on.` });
    }
  } catch (err) {
    return refused(err);
  }
  return Response.json({ message: "Unknown action" }, { status: 400 });
}
