import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DeleteConfirm } from "../components/delete-confirm.tsx";
import { deletionAction, deletionLoader, type DeletionRef } from "../lib/deletion.server.ts";
import { positiveId } from "../lib/ids.ts";

export const meta: MetaFunction = ({ params }) => [{ title: `Delete ${params.kind ?? ""} · Inkwell` }];

/** /delete/post/{id}, /delete/series/{id}, /delete/hub/{id}: the confirmation step, then the deletion (docs/api.md §15). */
function refOf(params: LoaderFunctionArgs["params"]): DeletionRef | null {
  const id = positiveId(params.id);
  const kind = params.kind;
  if (id === null || (kind !== "post" && kind !== "series" && kind !== "hub")) return null;
  return { kind, id };
}

export const loader = ({ request, params, context }: LoaderFunctionArgs) => deletionLoader(request, context, refOf(params));
export const action = ({ request, params, context }: ActionFunctionArgs) => deletionAction(request, context, refOf(params));

export default DeleteConfirm;
