import { Form, useNavigation } from "@remix-run/react";
import { Link } from "../link.tsx";
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { fieldErrors, type FieldErrors } from "../../lib/forms.ts";
import type { FormResult } from "../../lib/publish.ts";
import { focusFirstInvalid } from "../auth-card.tsx";
import { SaveStatus } from "./save-status.tsx";

export interface FormTools {
  /** The errors to show: the browser's own check first, else the server's answer. */
  errors: FieldErrors;
  /** Image pickers report an upload under way: the form waits for it. */
  setBusy: (busy: boolean) => void;
  /** True once saved (the form is then read-only until the redirect). */
  saved: boolean;
}

/**
 * The frame of every publish form: multipart post (files travel with it without JavaScript),
 * the same rules checked in the browser before sending (`check`, from server/rules), the
 * server's answer (success with redirect, or the save errors of docs/web.md §5), and one submit button
 * that waits for uploads and shows the save under way.
 */
export function PublishForm({
  result,
  check,
  submitLabel,
  savingLabel = "Saving...",
  cancelTo,
  children,
  className = "",
}: {
  result: FormResult | undefined;
  /** The rules' verdict on what the form would send; null to skip (e.g. a preview). */
  check?: (form: FormData) => z.ZodSafeParseResult<unknown> | null;
  submitLabel: string;
  savingLabel?: string;
  cancelTo: string;
  children: (tools: FormTools) => React.ReactNode;
  className?: string;
}) {
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [busyCount, setBusyCount] = useState(0);
  const saving = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const saved = result?.ok === true;

  useEffect(() => {
    setClientErrors(null);
    if (result && !result.ok && !result.preview) focusFirstInvalid(formRef.current);
  }, [result]);

  const errors = clientErrors ?? (result && !result.ok ? result.fieldErrors : {});
  return (
    <div className={`card publish-form ${className}`}>
      <SaveStatus result={result} />
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="form"
        onSubmit={(e) => {
          const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.name === "intent" && submitter.value !== "save") return;
          const verdict = check?.(new FormData(e.currentTarget));
          if (verdict && !verdict.success) {
            e.preventDefault();
            setClientErrors(fieldErrors(verdict.error));
            requestAnimationFrame(() => focusFirstInvalid(formRef.current));
          } else setClientErrors(null);
        }}
      >
        <fieldset className="publish-form__fields" disabled={saved}>
          {children({ errors, setBusy: (busy) => setBusyCount((n) => Math.max(0, n + (busy ? 1 : -1))), saved })}
        </fieldset>
        <div className="publish-form__actions">
          <button
            type="submit"
            name="intent"
            value="save"
            className="button button--primary button--large"
            disabled={saving || saved || busyCount > 0}
          >
            {saving ? savingLabel : busyCount > 0 ? "Uploading..." : submitLabel}
          </button>
          <Link to={cancelTo} className="button button--ghost button--large">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}
