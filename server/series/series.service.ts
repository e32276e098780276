import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { notFound } from "../http/errors.ts";
import { offsetOf, pageOf } from "../http/paging.ts";
import { createRedaction, type Redaction } from "../moderation/redaction.service.ts";
import { removedOf } from "../moderation/removed.ts";
import { noVerifiedEmailCheck, type VerifiedEmailCheck } from "../moderation/write-guards.service.ts";
import { createNamedEntityService } from "../named-entities/named-entity.service.ts";
import type { Paging } from "../rules/paging.ts";
import type { Actor } from "../rules/permissions.ts";
import type { Page, Series, SeriesDetail, TagCount } from "../rules/api-responses.ts";
import type {
  ContentRating,
  ReadingDirection,
  SeriesEditInput,
  SeriesFilters,
  SeriesInput,
  SeriesSort,
  SeriesStatus,
} from "../rules/series.ts";
import { cannotBeAName, nameKey } from "../rules/text.ts";
import type { FlagsOf } from "../viewer/shared-answers.ts";
import { createSeriesQueries, tagsOf, type MatureScope, type SeriesMetadata, type SeriesRow } from "./series.queries.ts";

function toSeries(row: SeriesRow): Series {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    author: row.authorId,
    authorName: row.authorName,
    followersCount: row.followersCount,
    chapterCount: row.chapterCount,
    profileImageId: row.profileImageId,
    profileBannerId: row.profileBannerId,
    createdAt: toIso(row.createdAt),
    latestChapter:
      row.lcId === null
        ? null
        : { id: row.lcId, number: row.lcNumber ?? 1, title: row.lcTitle ?? "", date: toIso(row.lcDate ?? 0), coverId: row.lcCoverId },
    removed: removedOf(row),
    tags: tagsOf(row),
    status: row.status as SeriesStatus,
    contentRating: row.contentRating as ContentRating,
    readingDirection: row.readingDirection as ReadingDirection,
    lastChapterAt: row.lastChapterAt === null ? null : toIso(row.lastChapterAt),
  };
}

/** What chapters need of their series: which one, who may publish in it, its name for answers. */
export interface SeriesRef {
  id: number;
  authorId: number;
  name: string;
}

/** The mature rule's scope as the response cache keys it (server/http/endpoint.ts `variant`): "safe", "all" or "own:<id>". */
export function scopeOf(variant: string): MatureScope {
  if (variant === "all") return { show: true };
  if (variant.startsWith("own:")) return { show: false, ownerId: Number(variant.slice(4)) };
  return { show: false, ownerId: null };
}

const metadataOf = (input: SeriesMetadata): SeriesMetadata => ({
  tags: input.tags,
  status: input.status,
  contentRating: input.contentRating,
  readingDirection: input.readingDirection,
});

/**
 * `redaction`: leaves removed series' content out of answers (made here when not given). `verifiedEmail`:
 * REQUIRE_VERIFIED_EMAIL's check of new series (off unless given).
 */
export function createSeriesService(
  db: Database,
  redaction: Redaction = createRedaction(db),
  verifiedEmail: VerifiedEmailCheck = noVerifiedEmailCheck,
) {
  const q = createSeriesQueries(db);
  const series = createNamedEntityService(db, q, {
    toCard: toSeries,
    toDetail: (card, followedByMe): SeriesDetail => ({ ...card, followedByMe }),
    messages: {
      notFound: "No series found.",
      notAuthor: "Only the series' author can edit it",
      nameTaken: "A series with this name already exists",
    },
  });

  /** Whether a card is in the scope's lists. */
  const visible = (scope: MatureScope) => (s: Series) =>
    scope.show || s.contentRating !== "mature" || (scope.ownerId !== null && s.author === scope.ownerId);

  async function list(filters: SeriesFilters, sort: SeriesSort, scope: MatureScope, paging: Paging, name = ""): Promise<Page<Series>> {
    // A guest, or a user without showMature, asking for mature series gets none (but their own).
    if (filters.rating === "mature" && !scope.show && scope.ownerId === null) return pageOf([], 0, paging);
    const { rows, total } = await q.list({ filters, sort, scope, name, limit: paging.perPage, offset: offsetOf(paging) });
    return pageOf(rows.map(toSeries), total, paging);
  }

  /** The name search (case-insensitive substring) with the list's filters and sorts. */
  async function search(name: string, filters: SeriesFilters, sort: SeriesSort, scope: MatureScope, paging: Paging): Promise<Page<Series>> {
    const key = nameKey(name.trim());
    if (cannotBeAName(key)) return pageOf([], 0, paging);
    return list(filters, sort, scope, paging, key);
  }

  return {
    /**
     * The mature rule's variant of the caller (docs/api.md "Series metadata and browsing"): "all" with showMature on; "own:<id>" for an author of
     * a mature series without it (they see their own); "safe" for everyone else, guests included.
     */
    async matureVariant(user: { id: number; showMature: boolean } | null): Promise<string> {
      if (!user) return "safe";
      if (user.showMature) return "all";
      return (await q.ownsMature(user.id)) ? `own:${user.id}` : "safe";
    },

    /** A page of the list: filtered (every tag, the status, the rating), sorted, mature series as the scope says. */
    list: (filters: SeriesFilters, sort: SeriesSort, scope: MatureScope, paging: Paging) => list(filters, sort, scope, paging),

    search,

    /** GET /series and /series/top: the list's page as answered (a removed series' content left out). */
    listShown: async (filters: SeriesFilters, sort: SeriesSort, scope: MatureScope, paging: Paging) =>
      redaction.seriesPage(await list(filters, sort, scope, paging), null),

    /** GET /series/search: the search's page as answered. */
    searchShown: async (name: string, filters: SeriesFilters, sort: SeriesSort, scope: MatureScope, paging: Paging) =>
      redaction.seriesPage(await search(name, filters, sort, scope, paging), null),

    /** GET /series/id/{id} and /series/{name}: the series as the viewer is answered it. */
    getShownById: async (id: number, viewer: Actor | null) => redaction.oneSeries(await series.getById(id, viewer?.id), viewer),
    getShownByNameOrId: async (nameOrId: string, viewer: Actor | null) =>
      redaction.oneSeries(await series.getByNameOrId(nameOrId, viewer?.id), viewer),

    /** The viewer's `followedByMe` of these series, for an answer shared by everyone (server/viewer/shared-answers.ts): one read. */
    async followedFlags(ids: number[], viewerId: number): Promise<FlagsOf> {
      const followed = await q.followedBy(viewerId, ids);
      return (id) => ({ followedByMe: followed.has(id) });
    },

    /**
     * GET /user/{id}/followed-series (most recent first) and created-series (newest first), as answered: mature ones as
     * the scope says (their author sees them all).
     */
    listShownFollowedBy: async (userId: number, scope: MatureScope) =>
      redaction.series((await series.listLinkedBy(userId)).filter(visible(scope)), null),
    listShownCreatedBy: async (userId: number, scope: MatureScope) =>
      redaction.series((await series.listCreatedBy(userId)).filter(visible(scope)), null),

    /** The most used tags among the series the scope shows (live ones), ties by name. */
    async tags(scope: MatureScope, paging: Paging): Promise<Page<TagCount>> {
      const { rows, total } = await q.tags(scope, paging.perPage, offsetOf(paging));
      return pageOf(rows, total, paging);
    },

    /** The series' id, author and name, or a 404 with the given message. */
    async resolveRef(nameOrId: string, message = "No series found."): Promise<SeriesRef> {
      const row = await series.findRow(nameOrId);
      if (!row) throw notFound(message);
      return { id: row.id, authorId: row.authorId, name: row.name };
    },

    /** The list items of these series, by id, in one query (the continue-reading list). */
    cardsByIds: series.cardsByIds,

    /** The series, its metadata and the publishing of its logo and banner are one write. */
    async create(input: SeriesInput, authorId: number): Promise<SeriesDetail> {
      await verifiedEmail(db.kysely, authorId);
      return series.create(input, authorId, (trx, id) => q.writeMetadata(trx, id, metadataOf(input)));
    },

    /** An absent tag list, status, rating or direction is kept. */
    update: (id: number, input: SeriesEditInput, userId: number): Promise<SeriesDetail> =>
      series.update(id, input, userId, (trx, seriesId) => q.writeMetadata(trx, seriesId, metadataOf(input))),
  };
}
