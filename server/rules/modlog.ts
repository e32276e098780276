// The mod logs' answers (docs/api.md "Bans, suspensions and the mod log", docs/decisions/018-governance.md). Pure: the web app takes its types from them.
import { z } from "zod";

const id = z.number().int().positive();

export const ModLogItem = z.object({
  id,
  action: z
    .string()
    .describe(
      "moderator-added, moderator-removed, removed, restored, report-dismissed, banned, unbanned (hub entries); suspended, unsuspended (site entries)",
    ),
  moderator: z.object({ id, username: z.string() }).nullable().describe("null once that account is gone"),
  subject: z.object({
    type: z.enum(["post", "comment", "chapter", "series", "hub", "user"]),
    id,
    title: z
      .string()
      .nullable()
      .describe(
        "A username, a hub's or series' name (copied when the entry was written); null for a post, comment or chapter, whose text a log never repeats (the site log, for admins: its title or first 80 characters as it is now, null once it is deleted)",
      ),
  }),
  reason: z.string(),
  createdAt: z.iso.datetime(),
});
export type ModLogItem = z.infer<typeof ModLogItem>;

/** The site log's items also say which hub an entry is about (null: a site-wide action such as a suspension). */
export const SiteModLogItem = ModLogItem.extend({
  hub: z.object({ id, name: z.string().nullable().describe("null once the hub is deleted") }).nullable(),
});
export type SiteModLogItem = z.infer<typeof SiteModLogItem>;
