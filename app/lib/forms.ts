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

/** A form's text fields as strings ("" when missing or a file). */
export function formValues<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) {
    const v = form.get(name);
    out[name] = typeof v === "string" ? v : "";
  }
  return out;
}
