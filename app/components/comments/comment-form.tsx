import { useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { isCommentActionData, type CommentActionData } from "../../lib/comments.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { describedBy, FieldNotes } from "../field.tsx";

/** The fetcher of one comment form, shared by the form and whoever shows its pending state (optimistic UI). */
export const commentFetcherKey = (formId: string) => `comment-${formId}`;

/** The outcome of form `formId`: the fetcher's (with JavaScript) or the page's action data (a post without). */
export function useCommentResult(formId: string, fetcherData: CommentActionData | undefined) {
  const actionData = useActionData<unknown>();
  if (fetcherData?.comment.formId === formId) return fetcherData.comment;
  if (isCommentActionData(actionData) && actionData.comment.formId === formId) return actionData.comment;
  return null;
}

/**
 * A comment's text form (new comment, reply, edit): a form post to the route's action, through a fetcher with
 * JavaScript. The API's message shows under the text, and the text typed is kept; a success empties it.
 */
export function CommentForm({
  formId,
  intent,
  commentId,
  label,
  submit,
  defaultValue = "",
  onDone,
}: {
  formId: string;
  intent: "comment" | "reply" | "edit-comment";
  commentId?: number;
  label: string;
  submit: string;
  defaultValue?: string;
  onDone?: () => void;
}) {
  const fetcher = useFetcher<CommentActionData>({ key: commentFetcherKey(formId) });
  const hydrated = useHydrated();
  const result = useCommentResult(formId, fetcher.data);
  const formRef = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  const error = !busy && result && !result.ok ? result.message : null;
  const id = `comment-text-${formId}`;

  const done = fetcher.state === "idle" && fetcher.data?.comment.ok === true;
  const doneData = fetcher.data;
  useEffect(() => {
    if (!done) return;
    if (intent !== "edit-comment") formRef.current?.reset();
    onDone?.();
    // Once per answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done, doneData]);

  return (
    <fetcher.Form method="post" className="comment-form" ref={formRef} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {commentId !== undefined ? <input type="hidden" name="commentId" value={commentId} /> : null}
      {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
      <div className={`field${error ? " field--invalid" : ""}`}>
        <label htmlFor={id}>{label}</label>
        <textarea
          id={id}
          name="content"
          rows={intent === "comment" ? 4 : 3}
          defaultValue={result && !result.ok && result.content !== null ? result.content : defaultValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { error })}
        />
        <FieldNotes id={id} error={error} />
      </div>
      <div className="comment-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={busy}>
          {submit}
        </button>
      </div>
    </fetcher.Form>
  );
}
