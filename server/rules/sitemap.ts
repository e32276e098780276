// The sitemap's pages (docs/api.md "Sitemap"): shared by the API and the web app's /sitemap.xml.
import { z } from "zod";

/** What a sitemap lists, one kind per set of pages. */
export const SITEMAP_KINDS = ["series", "chapters", "hubs", "posts", "users"] as const;
export type SitemapKind = (typeof SITEMAP_KINDS)[number];

/**
 * Ids per sitemap page: page N holds the live things with `(N-1)*50000 < id <= N*50000`, so no page lists more
 * than the protocol's 50,000 URLs, and a page is an index range scan on the primary key.
 */
export const SITEMAP_PAGE_IDS = 50_000;

/** The id range of page `page` (1-based): `after < id <= upTo`. */
export const sitemapIdRange = (page: number) => ({ after: (page - 1) * SITEMAP_PAGE_IDS, upTo: page * SITEMAP_PAGE_IDS });

export const SitemapKindParams = z.object({
  kind: z.enum(SITEMAP_KINDS, { error: `kind must be one of ${SITEMAP_KINDS.join(", ")}` }),
});

export const SitemapPageQuery = z.object({
  page: z
    .string({ error: "page must be a positive whole number" })
    .regex(/^[0-9]{1,12}$/, "page must be a positive whole number")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100_000, "page must be between 1 and 100000")
    .default(1),
});

export const SitemapIndex = z.object({
  idsPerPage: z.number().int().positive().describe("Ids per page: page N covers (N-1)*idsPerPage < id <= N*idsPerPage"),
  kinds: z.array(
    z.object({
      kind: z.enum(SITEMAP_KINDS),
      pages: z.array(z.number().int().positive()).describe("The pages that list at least one thing, ascending"),
    }),
  ),
});
export type SitemapIndex = z.infer<typeof SitemapIndex>;

export const SitemapEntry = z.object({
  parts: z
    .array(z.string())
    .describe("The path's parts: series [name], chapters [seriesName, number], hubs [name], posts [hubName, postId], users [username]"),
  lastmod: z.iso.datetime().nullable().describe("When it last changed, where known"),
});
export type SitemapEntry = z.infer<typeof SitemapEntry>;

export const SitemapPage = z.object({
  kind: z.enum(SITEMAP_KINDS),
  page: z.number().int().positive(),
  items: z.array(SitemapEntry).describe("Ascending by id; empty past the last page"),
});
export type SitemapPage = z.infer<typeof SitemapPage>;
