import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DeleteConfirm } from "../components/delete-confirm.tsx";
import { deletionAction, deletionLoader, type DeletionRef } from "../lib/deletion.server.ts";
import { positiveId } from "../lib/ids.ts";

export const meta: MetaFunction = () => [{ title: "Delete chapter · Inkwell" }];

/** /delete/chapter/{series}/{number}: the confirmation step, then the deletion (docs/api.md §15). */
function refOf(params: LoaderFunctionArgs["params"]): DeletionRef | null {
  const number = positiveId(params.number);
  if (number === null || !params.seriesName) return null;
  return { kind: "chapter", seriesName: params.seriesName, number };
}

export const loader = ({ request, params, context }: LoaderFunctionArgs) => deletionLoader(request, context, refOf(params));
export const action = ({ request, params, context }: ActionFunctionArgs) => deletionAction(request, context, refOf(params));

export default DeleteConfirm;
