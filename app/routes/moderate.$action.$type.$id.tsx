import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { FormError, TextAreaField } from "../components/field.tsx";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { formText } from "../lib/forms.ts";
import { positiveId } from "../lib/ids.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { isRemovableType, type RemovalAction } from "../lib/removal.ts";
import { requireUser } from "../lib/session.server.ts";

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.action === "restore" ? "Restore" : "Remove"} ${params.type ?? ""} · Inkwell` },
];

/** /moderate/{remove|restore}/{type}/{id}?back=...: which thing, or null for an address that names none. */
function refOf(params: LoaderFunctionArgs["params"]) {
  const id = positiveId(params.id);
  const action: RemovalAction | null = params.action === "remove" || params.action === "restore" ? params.action : null;
  const type = params.type;
  if (id === null || action === null || !isRemovableType(type)) return null;
  return { action, type, id };
}

const backOf = (request: Request) => safeRedirect(new URL(request.url).searchParams.get("back"));

/**
 * The confirmation step of a removal or a restore (docs/api.md "Removal", docs/web.md "Removal"): a required reason, then the
 * API decides who may. A plain form: works without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const ref = refOf(params);
  if (ref === null) throw data(null, { status: 404 });
  return { ...ref, back: backOf(request) };
}

interface ActionResult {
  reasonError?: string;
  formError?: string;
  reason: string;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const ref = refOf(params);
  if (ref === null) throw data(null, { status: 404 });
  const reason = formText(await request.formData(), "reason");
  if (reason.trim() === "") return data<ActionResult>({ reasonError: "A reason is required", reason }, { status: 400 });
  try {
    await apiFor(request, context, session).setRemoved(ref.action, { type: ref.type, id: ref.id }, reason);
    return redirect(backOf(request), 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 400) {
      const fields = apiFieldErrors(err);
      return data<ActionResult>(
        { reasonError: fields.reason, formError: fields.reason ? undefined : err.message, reason },
        { status: 400 },
      );
    }
    const message =
      err.status === 403
        ? `You may not ${ref.action} this ${ref.type}.`
        : err.status === 404
          ? `This ${ref.type} no longer exists.`
          : "It failed. Try again.";
    return data<ActionResult>({ formError: message, reason }, { status: err.status === 403 || err.status === 404 ? err.status : 502 });
  }
}

export default function ModerateConfirm() {
  const { action: verb, type, back } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  // The step's own address, `back` included.
  const { pathname, search } = useLocation();
  const removing = verb === "remove";
  return (
    <div className="container page-message">
      <h1>
        {removing ? "Remove" : "Restore"} this {type}?
      </h1>
      <p>
        {removing
          ? `It keeps its place, but everyone except its author and its moderators sees only "Removed by moderators" and your reason. It can be restored.`
          : "Everyone will see it again."}{" "}
        The action and the reason are written in the moderation log.
      </p>
      <FormError>{result?.formError}</FormError>
      <Form method="post" action={pathname + search} className="form" noValidate>
        <TextAreaField
          label="Reason"
          name="reason"
          rows={3}
          maxLength={500}
          required
          defaultValue={result?.reason ?? ""}
          error={result?.reasonError}
        />
        <button type="submit" className={`button ${removing ? "button--danger" : "button--primary"}`} disabled={busy}>
          {removing ? "Remove" : "Restore"} {type}
        </button>{" "}
        <Link to={back} className="button button--ghost">
          Cancel
        </Link>
      </Form>
    </div>
  );
}
