import type { MetaDescriptor } from "@remix-run/node";

/**
 * A public page's <head> tags as its loader built them (`meta` in the loader's data, made with app/lib/social-meta.ts):
 * the card builder then runs on the server only and stays out of every page's JavaScript. `fallback` when the page
 * failed to load.
 */
export const metaFromLoader = (data: unknown, fallback: MetaDescriptor[]): MetaDescriptor[] =>
  (data as { meta?: MetaDescriptor[] } | undefined)?.meta ?? fallback;
