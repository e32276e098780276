import type { LoaderFunctionArgs } from "@remix-run/node";
import { seriesFeed } from "../lib/feeds.server.ts";

/** /series/{name}/feed.atom: the series' latest 20 chapters as Atom 1.0 (docs/web.md "Feeds, sitemap and cards"). */
export const loader = ({ request, params, context }: LoaderFunctionArgs) => seriesFeed(request, context, params.seriesName ?? "");
