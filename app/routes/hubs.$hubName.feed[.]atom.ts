import type { LoaderFunctionArgs } from "@remix-run/node";
import { hubFeed } from "../lib/feeds.server.ts";

/** /hubs/{name}/feed.atom: the hub's latest 20 posts as Atom 1.0 (docs/web.md "Feeds, sitemap and cards"). */
export const loader = ({ request, params, context }: LoaderFunctionArgs) => hubFeed(request, context, params.hubName ?? "");
