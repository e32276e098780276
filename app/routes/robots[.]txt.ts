import type { LoaderFunctionArgs } from "@remix-run/node";
import { robotsTxt } from "../lib/sitemap.server.ts";

/** /robots.txt (docs/web.md "Feeds, sitemap and cards"). */
export const loader = ({ context }: LoaderFunctionArgs) => robotsTxt(context);
