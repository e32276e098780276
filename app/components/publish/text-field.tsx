import { useState } from "react";
import { charCount } from "../../../server/rules/text.ts";
import { describedBy, FieldNotes } from "../field.tsx";

export interface TextFieldProps {
  label: string;
  name: string;
  /** The rules' maximum: the counter shows it, and the input stops there. */
  max: number;
  defaultValue?: string;
  error?: string | null;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
  /** Called with each new value (the markdown editor keeps its own copy). */
  onValue?: (value: string) => void;
  textareaRef?: React.Ref<HTMLTextAreaElement>;
  /** Controlled value (the markdown editor's toolbar edits it). */
  value?: string;
  inputProps?: React.InputHTMLAttributes<HTMLInputElement> & React.TextareaHTMLAttributes<HTMLTextAreaElement>;
  /** Shown between the label and the input (the markdown editor's tabs and toolbar). */
  between?: React.ReactNode;
  /** Shown after the input (the markdown preview). */
  after?: React.ReactNode;
  /** Hides the input but keeps it in the form (the preview tab). */
  hideInput?: boolean;
}

/**
 * A labelled input or textarea with a character counter ("12 / 100", docs/web.md §4), its hint
 * and its error tied to it for screen readers. Counts characters as the rules do (an emoji is one).
 */
export function TextField({
  label,
  name,
  max,
  defaultValue = "",
  error,
  hint,
  required,
  multiline,
  rows = 4,
  placeholder,
  onValue,
  textareaRef,
  value,
  inputProps,
  between,
  after,
  hideInput,
}: TextFieldProps) {
  const [own, setOwn] = useState(defaultValue);
  const text = value ?? own;
  const id = `field-${name}`;
  const count = charCount(text);
  const near = count > max * 0.9;

  const common = {
    id,
    name,
    value: text,
    placeholder,
    required,
    maxLength: max,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, { hint, error }, [`${id}-count`]),
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setOwn(e.target.value);
      onValue?.(e.target.value);
    },
  } as const;
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <div className="field__top">
        <label htmlFor={id}>
          {label}
          {required ? null : <span className="field__optional"> (optional)</span>}
        </label>
        <span id={`${id}-count`} className={`counter${count > max ? " counter--over" : near ? " counter--near" : ""}`}>
          <span aria-hidden="true">
            {count} / {max}
          </span>
          <span className="visually-hidden">
            {count} of {max} characters
          </span>
        </span>
      </div>
      {between}
      {multiline ? (
        <textarea {...common} {...inputProps} ref={textareaRef} rows={rows} hidden={hideInput} />
      ) : (
        <input {...common} {...inputProps} type="text" hidden={hideInput} />
      )}
      {after}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
