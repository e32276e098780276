import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapIndex } from "../lib/sitemap.server.ts";

/** /sitemap.xml: the sitemap index (CONTRACT.md 14, docs/web.md "Feeds, sitemap and cards"). */
export const loader = ({ request, context }: LoaderFunctionArgs) => sitemapIndex(request, context);
