import { Form } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { ReactNode } from "react";

interface Props {
  /** The page's own class for the section (spacing). */
  className: string;
  title: ReactNode;
  /** What happens when confirmed. */
  children: ReactNode;
  /** The form's target: the page itself. */
  action: string;
  /** Hidden fields sent with the confirmation (intent, ids). */
  fields: Record<string, string | number>;
  submitLabel: string;
  busy: boolean;
}

/**
 * The confirmation step of a destructive action on a management page (docs/web.md): a section that says what will
 * happen, a button that posts the form (works without JavaScript) and Cancel back to the page.
 */
export function ConfirmSection({ className, title, children, action, fields, submitLabel, busy }: Props) {
  return (
    <section className={`section ${className}`} aria-labelledby="confirm-title">
      <h2 id="confirm-title" className="section__title">
        {title}
      </h2>
      {children}
      <Form method="post" action={action}>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="button button--danger" disabled={busy}>
          {submitLabel}
        </button>{" "}
        <Link to={action} className="button button--ghost">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
