import type { LoaderFunctionArgs } from "@remix-run/node";
import { seriesFeed } from "../lib/feeds.server.ts";

/** /series/{name}/feed.atom: the series' latest 20 chapters as Atom 1.0 (CONTRACT.md 14, docs/web.md). */
export const loader = ({ request, params, context }: LoaderFunctionArgs) => seriesFeed(request, context, params.seriesName ?? "");
