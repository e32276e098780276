import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapIndex } from "../lib/sitemap.server.ts";

/** /sitemap.xml: the sitemap index (docs/api.md "Sitemap", docs/web.md "Feeds, sitemap and cards"). */
export const loader = ({ request, context }: LoaderFunctionArgs) => sitemapIndex(request, context);
