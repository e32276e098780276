import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapFile } from "../lib/sitemap.server.ts";

/** /sitemaps/{kind}-{page}.xml: one sitemap of the index, at most 50,000 URLs (docs/web.md "Feeds, sitemap and cards"). */
export const loader = ({ request, params, context }: LoaderFunctionArgs) => sitemapFile(request, context, params.file ?? "");
