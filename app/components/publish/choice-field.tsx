import { describedBy, FieldNotes } from "../field.tsx";

/** A labelled select of fixed choices (a series' status, rating, reading direction), with its hint and error. */
export function ChoiceField({
  label,
  name,
  options,
  defaultValue,
  error,
  hint,
}: {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  defaultValue: string;
  error?: string | null;
  hint?: string;
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
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
