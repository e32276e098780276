import { MAX_ID } from "../../server/rules/text.ts";

/**
 * The one reading of an id (or chapter number) from a path, a query or a form field: digits with no
 * leading zero ("12", never "012", "1e3", " 1" or "-1") up to MAX_ID, the API's 32-bit range.
 * Anything else, a file or a missing value included, is null: no such thing, so no API call.
 */
export function positiveId(value: FormDataEntryValue | null | undefined): number | null {
  if (typeof value !== "string" || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}
