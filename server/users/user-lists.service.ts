import type { createHubService } from "../hubs/hubs.service.ts";
import type { Redaction } from "../moderation/redaction.service.ts";
import type { createSeriesService } from "../series/series.service.ts";
import type { MatureScope } from "../series/series.queries.ts";
import type { createUserService } from "./users.service.ts";

type Hubs = Pick<ReturnType<typeof createHubService>, "listJoinedBy" | "listCreatedBy">;
type SeriesLists = Pick<ReturnType<typeof createSeriesService>, "listShownFollowedBy" | "listShownCreatedBy">;
type Users = Pick<ReturnType<typeof createUserService>, "assertExists">;

/**
 * GET /user/{id}/member-hubs, followed-series, created-series and created-hubs: 404 for no such user, then the list as
 * answered (removed things' content left out; the series lists keep the mature rule's scope, docs/api.md "Series
 * metadata and browsing").
 */
export function createUserListService(users: Users, hubs: Hubs, series: SeriesLists, redaction: Redaction) {
  return {
    async memberHubs(userId: number) {
      await users.assertExists(userId);
      return redaction.hubs(await hubs.listJoinedBy(userId), null);
    },
    async createdHubs(userId: number) {
      await users.assertExists(userId);
      return redaction.hubs(await hubs.listCreatedBy(userId), null);
    },
    async followedSeries(userId: number, scope: MatureScope) {
      await users.assertExists(userId);
      return series.listShownFollowedBy(userId, scope);
    },
    async createdSeries(userId: number, scope: MatureScope) {
      await users.assertExists(userId);
      return series.listShownCreatedBy(userId, scope);
    },
  };
}
