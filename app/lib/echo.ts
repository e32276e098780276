/**
 * The longest value a failed form shows back to its user, in UTF-16 units: the longest field holds
 * 10,000 characters (at most two units each). Anything longer fails its check anyway; sending the
 * whole of it back (twice: in the HTML and in Remix's data) would cost more than reading it.
 */
export const ECHO_MAX = 20_000;

/** What the user typed, each value cut to ECHO_MAX, to show back on a failed form. */
export function echoed<T extends Record<string, string>>(values: T): T {
  const out: Record<string, string> = { ...values };
  for (const [key, value] of Object.entries(out)) if (value.length > ECHO_MAX) out[key] = value.slice(0, ECHO_MAX);
  return out as T;
}
