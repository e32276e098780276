import type BetterSqlite3 from "better-sqlite3";
import type { BulkWriter } from "./bulk.ts";
import { Random } from "./random.ts";
import { noRows, type RowCounts } from "./row-counts.ts";
import type { ScaleCounts } from "./scale-counts.ts";
import { IMAGES_PER_ARTIST } from "./scale-images.ts";
import { prepare } from "./sqlite-statement.ts";

/** What the phases of the large benchmark set (seed/scale.ts) share, and the statements they write with. */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The first id of each table the set writes (the database is empty, but its AUTOINCREMENT keys may have moved). */
export interface FirstIds {
  user: number;
  image: number;
  hub: number;
  post: number;
  series: number;
  chapter: number;
  comment: number;
}

export interface ScaleContext {
  sqlite: BetterSqlite3.Database;
  sql: ScaleStatements;
  bulk: BulkWriter;
  /** The rows written so far, by kind (the result's summary). */
  rows: RowCounts;
  counts: ScaleCounts;
  /**
   * The random source of the users, hubs, posts and series: every phase draws from it in turn, so the set depends on the
   * order of the phases and of the draws within them. Readers and comments have sources of their own.
   */
  rnd: Random;
  /** The comments' source, first drawn from by planComments and then by the DiscussionWriter. */
  commentRnd: Random;
  now: number;
  /** The set's first day, two years before `now`. */
  start: number;
  /** Users (they write, like and join hubs) and readers (they only follow the crowd series), as 0-based indexes. */
  users: number;
  readers: number;
  /** Users 0..artists-1 publish the series and own images. */
  artists: number;
  first: FirstIds;
  log: (message: string) => void;
  userId: (index: number) => number;
  joinedAt: (index: number) => number;
  /** An artist's image in one of its slots (ARTIST_IMAGE). */
  artistImage: (artist: number, slot: number) => number;
}

/** The next id a table's AUTOINCREMENT key would give. */
function nextId(sqlite: BetterSqlite3.Database, table: string): number {
  const seq = prepare<[string], { seq: number }>(sqlite, "SELECT seq FROM sqlite_sequence WHERE name = ?").get(table)?.seq ?? 0;
  const max = prepare<[], { id: number | null }>(sqlite, `SELECT MAX(id) AS id FROM "${table}"`).get()?.id ?? 0;
  return Math.max(seq, max) + 1;
}

export function scaleContext(
  sqlite: BetterSqlite3.Database,
  bulk: BulkWriter,
  counts: ScaleCounts,
  options: { now: number; log: (message: string) => void },
): ScaleContext {
  const { now } = options;
  const start = now - 730 * DAY;
  const users = counts.users;
  const first: FirstIds = {
    user: nextId(sqlite, "User"),
    image: nextId(sqlite, "Image"),
    hub: nextId(sqlite, "Hub"),
    post: nextId(sqlite, "Post"),
    series: nextId(sqlite, "Series"),
    chapter: nextId(sqlite, "Chapter"),
    comment: nextId(sqlite, "Comment"),
  };
  return {
    sqlite,
    sql: scaleStatements(sqlite),
    bulk,
    rows: noRows(),
    counts,
    rnd: new Random("scale"),
    commentRnd: new Random("scale:comments"),
    now,
    start,
    users,
    readers: counts.readers ?? 0,
    artists: Math.min(users, Math.max(1, Math.ceil(counts.series / 20))),
    first,
    log: options.log,
    userId: (index) => first.user + index,
    joinedAt: (index) => start + Math.floor((index / users) * (now - start - 30 * DAY)),
    artistImage: (artist, slot) => first.image + artist * IMAGES_PER_ARTIST + slot,
  };
}

export type ScaleStatements = ReturnType<typeof scaleStatements>;

/** The inserts of users, hubs, posts and series (comments and notifications: the DiscussionWriter's own). */
function scaleStatements(sqlite: BetterSqlite3.Database) {
  return {
    user: prepare(
      sqlite,
      // Verified, as the demo's members (docs/api.md "Verified email addresses").
      "INSERT INTO User (id, username, usernameKey, email, emailKey, passwordHash, joinedAt, profileImageId, profileBannerId, emailVerified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
    ),
    hub: prepare(
      sqlite,
      "INSERT INTO Hub (id, name, nameKey, description, memberCount, postCount, profileImageId, profileBannerId, authorId, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    membership: prepare(sqlite, "INSERT INTO Membership (userId, hubId, createdAt) VALUES (?, ?, ?)"),
    post: prepare(
      sqlite,
      "INSERT INTO Post (id, title, content, description, date, likes, commentCount, authorId, hubId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    postLike: prepare(sqlite, "INSERT INTO PostLike (userId, postId) VALUES (?, ?)"),
    series: prepare(
      sqlite,
      "INSERT INTO Series (id, name, nameKey, description, followersCount, chapterCount, profileImageId, profileBannerId, authorId, createdAt, tags, status, contentRating, readingDirection) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    seriesTag: prepare(sqlite, "INSERT INTO SeriesTag (seriesId, tag) VALUES (?, ?)"),
    follow: prepare(sqlite, "INSERT INTO Follow (userId, seriesId, createdAt) VALUES (?, ?, ?)"),
    chapter: prepare(
      sqlite,
      "INSERT INTO Chapter (id, seriesId, number, title, description, content, likes, commentCount, date, coverId, authorId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    page: prepare(sqlite, "INSERT INTO ChapterPage (chapterId, position, imageId) VALUES (?, ?, ?)"),
    chapterLike: prepare(sqlite, "INSERT INTO ChapterLike (userId, chapterId) VALUES (?, ?)"),
    progress: prepare(sqlite, "INSERT INTO ReadingProgress (userId, seriesId, chapterId, page, updatedAt) VALUES (?, ?, ?, ?, ?)"),
    chapterRead: prepare(sqlite, "INSERT INTO ChapterRead (userId, chapterId, readAt) VALUES (?, ?, ?)"),
  };
}
