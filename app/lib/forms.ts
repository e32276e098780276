import type { z } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each field, in the order the rules list them (the API does the same). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join(".") || "form";
    out[field] ??= issue.message;
  }
  return out;
}

/** A text field of a form: its string, or "" when it is missing or a file. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** A form's text fields as strings ("" when missing or a file). */
export function formValues<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) out[name] = formText(form, name);
  return out;
}
