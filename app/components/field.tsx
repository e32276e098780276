import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";

/** The ids a field's input names in `aria-describedby`: its hint and its error, when shown, after `extra`. */
export function describedBy(
  id: string,
  { hint, error }: { hint?: string; error?: string | null },
  extra: string[] = [],
): string | undefined {
  return [...extra, hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** A field's hint and error under its input, with the ids `describedBy` names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string | null }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A labelled input with its error (announced, and tied to the input for screen readers). */
export function Field({
  label,
  name,
  error,
  hint,
  ...input
}: { label: string; name: string; error?: string | null; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = input.id ?? `field-${name}`;
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { hint, error })} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled textarea with its error, as Field (reasons and notes of the moderation forms). */
export function TextAreaField({
  label,
  name,
  error,
  hint,
  ...textarea
}: { label: string; name: string; error?: string | null; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = textarea.id ?? `field-${name}`;
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error })}
        {...textarea}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A labelled select with its hint and error like Field's. With `placeholder`, a first option (value "")
 * means "none chosen"; options are keyed by `key`, else by their value.
 */
export function SelectField({
  label,
  name,
  error,
  hint,
  defaultValue,
  placeholder,
  options,
}: {
  label: string;
  name: string;
  error?: string | null;
  hint?: string;
  defaultValue?: string;
  placeholder?: string;
  options: readonly { key?: number; value: string | number; label: string }[];
}) {
  const id = `field-${name}`;
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error })}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.key ?? o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The form-wide error (wrong password, network...). */
export function FormError({ children }: { children: React.ReactNode }) {
  if (!children) return null;
  return (
    <div className="form-error" role="alert">
      {children}
    </div>
  );
}
