import { endpointsFor } from "../http/endpoint.ts";
import { SitemapIndex, SitemapKindParams, SitemapPage, SitemapPageQuery } from "../rules/sitemap.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** What the web app's /sitemap.xml and /sitemaps/{kind}-{page}.xml list (docs/api.md "Sitemap"). */
export const sitemapEndpoints = [
  endpoint({
    method: "get",
    path: "/sitemap",
    tag: "Sitemap",
    summary: "The sitemap's pages: for each kind (series, chapters, hubs, posts, users), the pages that list something",
    auth: "none",
    response: SitemapIndex,
    errors: [],
    handle: ({ deps }) => deps.sitemap.index(),
  }),
  endpoint({
    method: "get",
    path: "/sitemap/{kind}",
    tag: "Sitemap",
    summary:
      "One sitemap page: the live things of a kind whose ids are in ((page-1)*50000, page*50000], with their path's parts and last change",
    auth: "none",
    params: SitemapKindParams,
    query: SitemapPageQuery,
    response: SitemapPage,
    errors: [],
    handle: ({ params, query, deps }) => deps.sitemap.page(params.kind, query.page),
  }),
];
