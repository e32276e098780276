import type { Database } from "../db/database.ts";
import { toIso } from "../db/dates.ts";
import { notFound } from "../http/errors.ts";
import { removedOf } from "../moderation/removed.ts";
import { createNamedEntityService } from "../named-entities/named-entity.service.ts";
import type { Series, SeriesDetail } from "../rules/responses.ts";
import type { SeriesEditInput, SeriesInput } from "../rules/series.ts";
import { createSeriesQueries, type SeriesRow } from "./series.queries.ts";

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
  };
}

/** What chapters need of their series: which one, who may publish in it, its name for answers. */
export interface SeriesRef {
  id: number;
  authorId: number;
  name: string;
}

export function createSeriesService(db: Database) {
  const series = createNamedEntityService(db, createSeriesQueries(db), {
    toCard: toSeries,
    toDetail: (card, followedByMe): SeriesDetail => ({ ...card, followedByMe }),
    messages: {
      notFound: "No series found.",
      notAuthor: "Only the series' author can edit it",
      nameTaken: "A series with this name already exists",
    },
  });

  return {
    listNewest: series.listNewest,

    listTop: series.listTop,

    search: series.search,

    getById: series.getById,

    getByNameOrId: series.getByNameOrId,

    /** The series' id, author and name, or a 404 with the given message. */
    async resolveRef(nameOrId: string, message = "No series found."): Promise<SeriesRef> {
      const row = await series.findRow(nameOrId);
      if (!row) throw notFound(message);
      return { id: row.id, authorId: row.authorId, name: row.name };
    },

    /** Series the user follows, most recent first. */
    listFollowedBy: series.listLinkedBy,

    /** Series the user created, newest first. */
    listCreatedBy: series.listCreatedBy,

    /** The series and the publishing of its logo and banner are one write. */
    create: (input: SeriesInput, authorId: number): Promise<SeriesDetail> => series.create(input, authorId),

    update: (id: number, input: SeriesEditInput, userId: number): Promise<SeriesDetail> => series.update(id, input, userId),
  };
}
