import { z } from "zod";
import type { ContentRating, ReadingDirection, SeriesStatus } from "./series-meta.ts";

/** Hubs and series share one form: name, description, logo and banner. */
export type EntityKind = "hub" | "series";

export interface EntityValues {
  id: number;
  name: string;
  description: string;
  profileImageId: number | null;
  profileBannerId: number | null;
  /** A series' metadata (docs/api.md "Series metadata and browsing"); hubs have none. */
  meta?: SeriesMeta;
}

export interface SeriesMeta {
  tags: string[];
  status: SeriesStatus;
  contentRating: ContentRating;
  readingDirection: ReadingDirection;
}

/**
 * A rules check with each issue on its field's name (`tags.3` → `tags`), so a bad tag shows under
 * the tag field like any other field error.
 */
export function onFields<T>(result: z.ZodSafeParseResult<T>): z.ZodSafeParseResult<T> {
  if (result.success) return result;
  const issues = result.error.issues.map((i) => ({ ...i, path: i.path.slice(0, 1) }));
  return { success: false, error: new z.ZodError(issues) } as z.ZodSafeParseResult<T>;
}
