import { pageParam } from "./format.ts";

/** The two orders of a hub's posts and of a series' chapters: 'Latest' or 'Most Liked' (`?sort=likes`). */
export const LIST_ORDERS = [
  { value: "latest", label: "Latest" },
  { value: "likes", label: "Most Liked" },
];

/** `?sort=` and `?page=` of a hub's or a series' page: the latest first unless `likes`, page 1 unless a whole number. */
export function listOrderAndPage(request: Request): { sort: "latest" | "likes"; page: number } {
  const { searchParams } = new URL(request.url);
  return { sort: searchParams.get("sort") === "likes" ? "likes" : "latest", page: pageParam(searchParams.get("page")) };
}
