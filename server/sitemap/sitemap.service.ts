import type { Database } from "../db/database.ts";
import { nowMs, toIso } from "../db/dates.ts";
import {
  SITEMAP_KINDS,
  SITEMAP_PAGE_IDS,
  sitemapIdRange,
  type SitemapIndex,
  type SitemapKind,
  type SitemapPage,
} from "../rules/sitemap.ts";
import { createSitemapQueries, type SitemapRow } from "./sitemap.queries.ts";

const lastmodOf = (row: SitemapRow): string | null => {
  const at = Math.max(row.at === null ? 0 : Number(row.at), row.latest === null ? 0 : Number(row.latest));
  return at > 0 ? toIso(at) : null;
};

/**
 * The sitemap's data (docs/api.md "Sitemap"): which pages of each kind list something, and a page's live things. Pages are
 * id ranges of SITEMAP_PAGE_IDS, so each is one range scan on the primary key and lists at most 50,000 URLs.
 */
export function createSitemapService(db: Database) {
  const queries = createSitemapQueries(db);

  /** The pages of a kind holding at least one live thing: one "any row?" probe per 50,000 ids. */
  async function pagesOf(kind: SitemapKind, now: number): Promise<number[]> {
    const last = Math.ceil((await queries.maxId(kind)) / SITEMAP_PAGE_IDS);
    const pages: number[] = [];
    for (let page = 1; page <= last; page++) {
      if (await queries.hasRows(kind, { ...sitemapIdRange(page), now })) pages.push(page);
    }
    return pages;
  }

  return {
    async index(): Promise<SitemapIndex> {
      const now = nowMs();
      const kinds = await Promise.all(SITEMAP_KINDS.map(async (kind) => ({ kind, pages: await pagesOf(kind, now) })));
      return { idsPerPage: SITEMAP_PAGE_IDS, kinds };
    },

    async page(kind: SitemapKind, page: number): Promise<SitemapPage> {
      const rows = await queries.rows(kind, { ...sitemapIdRange(page), now: nowMs() });
      return {
        kind,
        page,
        items: rows.map((row) => ({ parts: row.b === null ? [String(row.a)] : [String(row.a), String(row.b)], lastmod: lastmodOf(row) })),
      };
    },
  };
}
