import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { DeletedKind } from "../lib/deletion.ts";
import { FailedPage, Notice } from "./notice.tsx";

interface Shown {
  kind: DeletedKind;
  title: string;
  consequence: string;
  cancelTo: string;
}

/**
 * The confirmation step of a deletion (docs/web.md): what goes with the thing, a Delete button that posts the form
 * (works without JavaScript) and a way back. Nothing is deleted until the form is sent.
 */
export function DeleteConfirm() {
  const { subject, error } = useLoaderData<{ subject: Shown | null; error: string | null }>();
  const action = useActionData<{ error: string }>();
  const busy = useNavigation().state === "submitting";
  if (!subject) return <FailedPage title="Delete" error={error} />;
  return (
    <div className="container page-message">
      <h1>Delete this {subject.kind}?</h1>
      <p>
        <strong>{subject.title}</strong>
      </p>
      <p>{subject.consequence} It cannot be undone.</p>
      {action?.error ? <Notice tone="error">{action.error}</Notice> : null}
      <Form method="post" className="delete-confirm">
        <button type="submit" className="button button--danger" disabled={busy}>
          Delete {subject.kind}
        </button>{" "}
        <Link to={subject.cancelTo} className="button button--ghost">
          Cancel
        </Link>
      </Form>
    </div>
  );
}
