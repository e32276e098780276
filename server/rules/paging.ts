import { z } from "zod";

const PER_PAGE_DEFAULT = 10;
const PER_PAGE_MAX = 1000;
const PAGE_MAX = 100_000_000;

const wholeNumber = (label: string, max: number, rangeMessage: string) =>
  z
    .string({ error: `${label} must be a positive whole number` })
    .regex(/^[0-9]{1,12}$/, `${label} must be a positive whole number`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, rangeMessage)
    .optional();

/** `page` is 1-based; the page size is `per_page`, or its alias `size` (docs/api.md §3). */
export const PagingQuery = z.object({
  page: wholeNumber("page", PAGE_MAX, `page must be between 1 and ${PAGE_MAX}`),
  per_page: wholeNumber("per_page", PER_PAGE_MAX, `per_page must be between 1 and ${PER_PAGE_MAX}`),
  size: wholeNumber("size", PER_PAGE_MAX, `size must be between 1 and ${PER_PAGE_MAX}`),
});

export interface Paging {
  page: number;
  perPage: number;
}

export function toPaging(q: z.infer<typeof PagingQuery>): Paging {
  return { page: q.page ?? 1, perPage: q.per_page ?? q.size ?? PER_PAGE_DEFAULT };
}

export const SearchQuery = PagingQuery.extend({
  name: z.string({ error: "name must be text" }).max(200, "name must be at most 200 characters").default(""),
});
