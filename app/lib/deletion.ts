/** What the web app deletes (docs/api.md §15), and the notice shown where it lived. */
export type DeletedKind = "post" | "chapter" | "series" | "hub";

/** The query parameter of the page a deletion redirects to: `?deleted=hub`. */
export const deletedNoticeParam = "deleted";

const NOTICES: Record<DeletedKind | "account", string> = {
  account: "Your account was deleted. Everything listed on the deletion page is gone.",
  post: "The post was deleted.",
  chapter: "The chapter was deleted.",
  series: "The series was deleted.",
  hub: "The hub was deleted.",
};

/** The notice for `?deleted=...`, or null for anything else. */
export const deletedNotice = (value: string | null): string | null =>
  value !== null && Object.hasOwn(NOTICES, value) ? NOTICES[value as keyof typeof NOTICES] : null;

/** The confirmation step's address of each thing. */
export const deletePath = {
  post: (id: number) => `/delete/post/${id}`,
  hub: (id: number) => `/delete/hub/${id}`,
  series: (id: number) => `/delete/series/${id}`,
  chapter: (seriesName: string, number: number) => `/delete/chapter/${encodeURIComponent(seriesName)}/${number}`,
};
