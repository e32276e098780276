/** The current query string with some parameters changed; null or "" removes one. Default values are dropped. */
export function withParams(
  search: string,
  changes: Record<string, string | number | null | undefined>,
  defaults: Record<string, string> = { page: "1" },
): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "" || defaults[key] === String(value)) params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}
