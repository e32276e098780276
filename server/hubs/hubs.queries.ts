import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { createNamedEntityQueries } from "../named-entities/named-entity.queries.ts";

export interface HubRow {
  id: number;
  name: string;
  description: string;
  memberCount: number;
  postCount: number;
  profileImageId: number | null;
  profileBannerId: number | null;
  authorId: number;
  authorName: string;
  createdAt: number;
  /** Set while removed by moderators (docs/decisions/018-governance.md). */
  removedReason: string | null;
  lpId: number | null;
  lpTitle: string | null;
  lpDate: number | null;
}

/** A hub's card names its latest post; its creator is its first member, written with the hub. */
export function createHubQueries(db: Database) {
  return createNamedEntityQueries<HubRow>(db, {
    table: "Hub",
    alias: "h",
    columns: sql`h."id", h."name", h."description", h."memberCount", h."postCount", h."profileImageId", h."profileBannerId",
      h."authorId", u."username" AS "authorName", h."createdAt", h."removedReason",
      lp."id" AS "lpId", CASE WHEN lp."removedReason" IS NULL THEN lp."title" ELSE '' END AS "lpTitle", lp."date" AS "lpDate"`,
    joins: sql`LEFT JOIN "Post" lp ON lp."id" = (SELECT p."id" FROM "Post" p WHERE p."hubId" = h."id" ORDER BY p."date" DESC, p."id" DESC LIMIT 1)`,
    counter: "memberCount",
    link: { table: "Membership", column: "hubId" },
    creatorLinked: true,
  });
}
