/** The site's addresses of hubs, posts, series, chapters and users; names are encoded as path segments. */
export const hubPath = (name: string) => `/hubs/${encodeURIComponent(name)}`;
export const postPath = (hubName: string, postId: number) => `${hubPath(hubName)}/${postId}`;
export const seriesPath = (name: string) => `/series/${encodeURIComponent(name)}`;
export const chapterPath = (seriesName: string, number: number) => `${seriesPath(seriesName)}/${number}`;
export const userPath = (username: string) => `/user/${encodeURIComponent(username)}`;

/** `/tags/{tag}`. */
export const tagPath = (tag: string) => `/tags/${encodeURIComponent(tag)}`;
