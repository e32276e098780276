// The site's addresses: the paths of its pages, and the query strings of lists (paging, sorting, filters).

/** The addresses of hubs, posts, series, chapters and users; names are encoded as path segments. */
export const hubPath = (name: string) => `/hubs/${encodeURIComponent(name)}`;
export const postPath = (hubName: string, postId: number) => `${hubPath(hubName)}/${postId}`;
export const seriesPath = (name: string) => `/series/${encodeURIComponent(name)}`;
export const chapterPath = (seriesName: string, number: number) => `${seriesPath(seriesName)}/${number}`;
export const userPath = (username: string) => `/user/${encodeURIComponent(username)}`;

/** `/tags/{tag}`. */
export const tagPath = (tag: string) => `/tags/${encodeURIComponent(tag)}`;

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
