import type { Page } from "../rules/api-responses.ts";
import type { Paging } from "../rules/paging.ts";

export const offsetOf = ({ page, perPage }: Paging) => (page - 1) * perPage;

/** The contract's paged body: totalPages is at least 1; a page past the end is empty, not 404. */
export function pageOf<T>(content: T[], totalElements: number, { page, perPage }: Paging): Page<T> {
  return { content, page, perPage, totalPages: Math.max(1, Math.ceil(totalElements / perPage)), totalElements };
}
