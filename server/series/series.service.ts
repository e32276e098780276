import type { Database } from "../db/database.ts";
import { nowMs, prepare, toIso } from "../db/sql.ts";
import { nameFilter } from "../db/search.ts";
import { notFound } from "../http/errors.ts";
import { publishOwnImages } from "../images/image-refs.ts";
import { namedEntityReads, namedEntityWrites } from "../db/named-entity.ts";
import type { Series, SeriesDetail } from "../rules/responses.ts";
import type { SeriesEditInput, SeriesInput } from "../rules/series.ts";
import { nameKey } from "../rules/text.ts";

interface SeriesRow {
  id: number;
  name: string;
  description: string;
  authorId: number;
  authorName: string;
  followersCount: number;
  chapterCount: number;
  profileImageId: number | null;
  profileBannerId: number | null;
  createdAt: number;
  lcId: number | null;
  lcNumber: number | null;
  lcTitle: string | null;
  lcDate: number | null;
  lcCoverId: number | null;
}

// A series card names its author and its latest chapter in the same query (no N+1).
const SERIES_CARD = `
  SELECT s.id, s.name, s.description, s.authorId, u.username AS authorName, s.followersCount, s.chapterCount,
         s.profileImageId, s.profileBannerId, s.createdAt,
         lc.id AS lcId, lc.number AS lcNumber, lc.title AS lcTitle, lc.date AS lcDate, lc.coverId AS lcCoverId
  FROM Series s
  JOIN User u ON u.id = s.authorId
  LEFT JOIN Chapter lc ON lc.id = (SELECT c.id FROM Chapter c WHERE c.seriesId = s.id ORDER BY c.number DESC LIMIT 1)`;

// Pages pick their ids from the covering sort index first (deferred join), so a deep page
// skips index entries instead of building full cards for every skipped row.
const NEWEST_FIRST = { inner: "createdAt DESC, id DESC", outer: "s.createdAt DESC, s.id DESC" };
const MOST_FOLLOWED = { inner: "followersCount DESC, id DESC", outer: "s.followersCount DESC, s.id DESC" };
const pagedCards = (order: { inner: string; outer: string }, where = "") =>
  `${SERIES_CARD} WHERE s.id IN (SELECT id FROM Series ${where} ORDER BY ${order.inner} LIMIT ? OFFSET ?) ORDER BY ${order.outer}`;

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
  };
}

/** What chapters need of their series: which one, who may publish in it, its name for answers. */
export interface SeriesRef {
  id: number;
  authorId: number;
  name: string;
}

export function createSeriesService(db: Database) {
  const { sqlite, prisma } = db;
  const writes = namedEntityWrites(db, {
    table: "Series",
    messages: {
      notFound: "No series found.",
      notAuthor: "Only the series' author can edit it",
      nameTaken: "A series with this name already exists",
    },
    findAuthor: (id) => prisma.series.findUnique({ where: { id }, select: { authorId: true } }),
    updateRow: (id, changes) => prisma.series.update({ where: { id }, data: changes }),
  });
  const q = {
    newest: prepare<[number, number], SeriesRow>(sqlite, pagedCards(NEWEST_FIRST)),
    top: prepare<[number, number], SeriesRow>(sqlite, pagedCards(MOST_FOLLOWED)),
    count: prepare<[], { n: number }>(sqlite, "SELECT COUNT(*) AS n FROM Series"),
    search: {
      trigram: prepare<[string, number, number], SeriesRow>(sqlite, pagedCards(NEWEST_FIRST, nameFilter("Series", "trigram"))),
      "trigram-broad": prepare<[string, number, number], SeriesRow>(
        sqlite,
        pagedCards(NEWEST_FIRST, nameFilter("Series", "trigram-broad")),
      ),
      like: prepare<[string, number, number], SeriesRow>(sqlite, pagedCards(NEWEST_FIRST, nameFilter("Series", "like"))),
    },
    searchCount: {
      trigram: prepare<[string], { n: number }>(sqlite, `SELECT COUNT(*) AS n FROM "SeriesNameSearch" WHERE "SeriesNameSearch" MATCH ?`),
      like: prepare<[string], { n: number }>(sqlite, `SELECT COUNT(*) AS n FROM Series ${nameFilter("Series", "like")}`),
    },
    byKey: prepare<[string], SeriesRow>(sqlite, `${SERIES_CARD} WHERE s.nameKey = ?`),
    byId: prepare<[number], SeriesRow>(sqlite, `${SERIES_CARD} WHERE s.id = ?`),
    follows: prepare<[number, number], { one: number }>(sqlite, "SELECT 1 AS one FROM Follow WHERE userId = ? AND seriesId = ?"),
    followedBy: prepare<[number], SeriesRow>(
      sqlite,
      `${SERIES_CARD} JOIN Follow f ON f.seriesId = s.id AND f.userId = ? ORDER BY f.createdAt DESC, s.id DESC`,
    ),
    createdBy: prepare<[number], SeriesRow>(sqlite, `${SERIES_CARD} WHERE s.authorId = ? ORDER BY s.createdAt DESC, s.id DESC`),
    insert: prepare(
      sqlite,
      `INSERT INTO Series (name, nameKey, description, followersCount, chapterCount, profileImageId, profileBannerId, authorId, createdAt)
       VALUES (@name, @nameKey, @description, 0, 0, @profileImageId, @profileBannerId, @authorId, @createdAt)`,
    ),
  };

  const reads = namedEntityReads(q, toSeries);
  const { findRow } = reads;

  // The series and the publishing of its logo and banner are one write.
  const insertSeries = sqlite.transaction(
    (row: { authorId: number; profileImageId: number | null; profileBannerId: number | null } & Record<string, unknown>) => {
      const result = q.insert.run(row);
      publishOwnImages(sqlite, row.authorId, [row.profileImageId, row.profileBannerId]);
      return result;
    },
  );

  function detail(row: SeriesRow | undefined, viewerId: number | undefined): SeriesDetail {
    if (!row) throw notFound("No series found.");
    return { ...toSeries(row), followedByMe: viewerId !== undefined && q.follows.get(viewerId, row.id) !== undefined };
  }

  return {
    listNewest: reads.listNewest,

    listTop: reads.listTop,

    search: reads.search,

    getById: (id: number, viewerId?: number) => detail(q.byId.get(id), viewerId),

    getByNameOrId: (nameOrId: string, viewerId?: number) => detail(findRow(nameOrId), viewerId),

    /** The series' id, author and name, or a 404 with the given message. */
    resolveRef(nameOrId: string, message = "No series found."): SeriesRef {
      const row = findRow(nameOrId);
      if (!row) throw notFound(message);
      return { id: row.id, authorId: row.authorId, name: row.name };
    },

    listFollowedBy: (userId: number) => q.followedBy.all(userId).map(toSeries),

    listCreatedBy: (userId: number) => q.createdBy.all(userId).map(toSeries),

    create: (input: SeriesInput, authorId: number): SeriesDetail =>
      writes.create(input, authorId, () => {
        const { lastInsertRowid } = insertSeries({
          name: input.name,
          nameKey: nameKey(input.name),
          description: input.description,
          profileImageId: input.profileImageId ?? null,
          profileBannerId: input.profileBannerId ?? null,
          authorId,
          createdAt: nowMs(),
        });
        return detail(q.byId.get(Number(lastInsertRowid)), authorId);
      }),

    async update(id: number, input: SeriesEditInput, userId: number): Promise<SeriesDetail> {
      await writes.update(id, input, userId);
      return detail(q.byId.get(id), userId);
    },
  };
}
