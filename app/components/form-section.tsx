import type { ReactNode } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { Link } from "./link.tsx";
import { FormError } from "./field.tsx";

/** What a settings form's action answered: a success line or a problem above the form (field errors go on fields). */
export interface FormOutcome {
  ok: boolean;
  message: string | null;
}

/**
 * One form of a settings page in its card: a heading, an optional line under it, the last outcome, the fields and a
 * submit button. The form posts `intent` (works without JavaScript); the button says `busyLabel` while it is sent.
 */
export function FormSection({
  id,
  title,
  intro,
  intent,
  outcome,
  submitLabel,
  busyLabel = "Saving...",
  danger = false,
  cancelTo,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  intent: string;
  outcome: FormOutcome | null;
  submitLabel: string;
  busyLabel?: string;
  danger?: boolean;
  /** A way back next to the button (a confirmation step's Cancel). */
  cancelTo?: string;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <section className="card settings__section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro}
      {outcome?.ok ? (
        <p className="save-success save-success--inline" role="status">
          {outcome.message}
        </p>
      ) : outcome ? (
        <FormError>{outcome.message}</FormError>
      ) : null}
      <Form method="post" className="form" noValidate preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        {children}
        <div className="actions">
          <button type="submit" className={`button ${danger ? "button--danger" : "button--primary"}`} disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </button>
          {cancelTo ? (
            <Link to={cancelTo} className="button button--ghost">
              Cancel
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  );
}
