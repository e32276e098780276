import type BetterSqlite3 from "better-sqlite3";
import type { NotificationKind } from "../server/db/schema.ts";
import type { BulkWriter } from "./bulk.ts";
import { skewedCount, UserRun, zipf } from "./distributions.ts";
import type { Random } from "./random.ts";
import type { RowCounts } from "./row-counts.ts";
import { commentText } from "./scale-names.ts";
import { prepare } from "./sqlite-statement.ts";

/** Comments and their notifications for the large benchmark set (seed/scale.ts), written after the posts and chapters. */

const DAY = 24 * 3_600_000;
/** Notifications older than this are read; newer ones are read at this rate. */
const READ_AFTER = 30 * DAY;
const READ_RECENT = 0.4;
/** The share of a place's comments that are replies. */
const REPLY_SHARE = 0.3;

export interface CommentPlan {
  /** Comments (replies included) per post and per chapter, by their order of writing. */
  perPost: Int32Array;
  perChapter: Int32Array;
  /** The big hub's newest post: its top-level comments and replies (not in perPost). */
  bigPost: { ordinal: number; topLevel: number; replies: number } | undefined;
}

/** Picks up to `count` distinct ordinals below `total`, skipping `skip` (a partial Fisher-Yates). */
function someOrdinals(rnd: Random, total: number, count: number, skip: number): Int32Array {
  const all = new Int32Array(total);
  for (let i = 0; i < total; i++) all[i] = i;
  if (skip >= 0 && skip < total) all[skip] = all[total - 1]!;
  const available = skip >= 0 && skip < total ? total - 1 : total;
  const n = Math.min(count, available);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd.next() * (available - i));
    const t = all[i]!;
    all[i] = all[j]!;
    all[j] = t;
  }
  return all.subarray(0, n);
}

/**
 * How many comments each post and chapter gets: the big post its top-level comments (and a fifth as many replies),
 * the rest skewed over a tenth of the posts (four fifths of the comments) and a third of the chapters.
 */
export function planComments(
  rnd: Random,
  counts: { comments: number; bigPost: number; posts: number; chapters: number },
  bigPostOrdinal: number,
): CommentPlan {
  const perPost = new Int32Array(counts.posts);
  const perChapter = new Int32Array(counts.chapters);
  let rest = counts.comments;
  let bigPost: CommentPlan["bigPost"];
  if (counts.bigPost > 0 && bigPostOrdinal >= 0) {
    const replies = Math.min(Math.floor(counts.bigPost / 5), rest - counts.bigPost);
    bigPost = { ordinal: bigPostOrdinal, topLevel: counts.bigPost, replies };
    rest -= counts.bigPost + replies;
  }
  const otherPosts = counts.posts - (bigPost ? 1 : 0);
  const onChapters = otherPosts === 0 ? rest : counts.chapters === 0 ? 0 : Math.round(rest * 0.2);
  const onPosts = rest - onChapters;
  const spread = (target: Int32Array, total: number, share: number, skip: number) => {
    if (total === 0) return;
    const available = target.length - (skip >= 0 ? 1 : 0);
    const active = someOrdinals(rnd, target.length, Math.max(1, Math.round(available * share)), skip);
    zipf(total, active.length, 0.7).forEach((n, i) => (target[active[i]!] = n));
  };
  spread(perPost, onPosts, 0.1, bigPost ? bigPostOrdinal : -1);
  spread(perChapter, onChapters, 0.3, -1);
  return { perPost, perChapter, bigPost };
}

/**
 * Drops the secondary indexes of `tables` and answers a function that makes them again: a million comments and
 * notifications go in several times faster without ten indexes to keep in step row by row, and CREATE INDEX builds
 * each from sorted rows. The same definitions (from sqlite_master), so the set ends with the app's schema.
 */
export function deferIndexes(sqlite: BetterSqlite3.Database, tables: string[]): () => void {
  const indexes = prepare<string[], { name: string; sql: string }>(
    sqlite,
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => "?").join(", ")})`,
  ).all(...tables);
  for (const index of indexes) sqlite.exec(`DROP INDEX "${index.name}"`);
  return () => {
    for (const index of indexes) sqlite.exec(index.sql);
  };
}

export interface DiscussionOptions {
  rnd: Random;
  now: number;
  /** Users who write comments and like them (0-based indexes below this); readers do not. */
  users: number;
  userId: (index: number) => number;
  /** Every user's unread count, by index, moved with each unread notification. */
  unread: Int32Array;
  /** Comment likes per comment on average. */
  likeMean: number;
  /** No comment notifies this user (the bench user, whose notifications are its chapters': as many in every set). */
  quietUser: number;
  firstCommentId: number;
}

/** Where comments go: a post or a chapter, with its date and its author (a 0-based user index). */
export interface CommentPlace {
  column: "postId" | "chapterId";
  id: number;
  date: number;
  author: number;
}

/** Writes the comments of one place after another, their likes and the notifications they make. */
export class DiscussionWriter {
  private nextId: number;
  private readonly sql;

  private readonly bulk: BulkWriter;
  private readonly rows: RowCounts;
  private readonly o: DiscussionOptions;
  constructor(sqlite: BetterSqlite3.Database, bulk: BulkWriter, rows: RowCounts, o: DiscussionOptions) {
    this.bulk = bulk;
    this.rows = rows;
    this.o = o;
    this.nextId = o.firstCommentId;
    this.sql = {
      comment: prepare(
        sqlite,
        "INSERT INTO Comment (id, postId, chapterId, parentId, authorId, content, likes, replyCount, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      like: prepare(sqlite, "INSERT INTO CommentLike (userId, commentId) VALUES (?, ?)"),
      notification: prepare(
        sqlite,
        "INSERT INTO Notification (userId, kind, actorId, commentId, postId, chapterId, createdAt, readAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      unread: prepare(sqlite, "UPDATE User SET unreadNotifications = ? WHERE id = ?"),
      threads: {
        postId: prepare(sqlite, "UPDATE Post SET threadCount = ? WHERE id = ?"),
        chapterId: prepare(sqlite, "UPDATE Chapter SET threadCount = ? WHERE id = ?"),
      },
    };
  }

  /** A notification (user indexes), read or not by its age; none for the actor or the quiet user. */
  notify(
    recipient: number,
    kind: NotificationKind,
    actor: number,
    subject: { commentId?: number; postId?: number; chapterId?: number },
    createdAt: number,
    quietUserToo = false,
  ): void {
    const { rnd, now, userId, unread } = this.o;
    if (recipient === actor || (recipient === this.o.quietUser && !quietUserToo)) return;
    const read = createdAt < now - READ_AFTER || rnd.chance(READ_RECENT);
    const readAt = read ? Math.min(now, createdAt + Math.floor(rnd.next() * 3 * DAY)) : null;
    this.sql.notification.run(
      userId(recipient),
      kind,
      userId(actor),
      subject.commentId ?? null,
      subject.postId ?? null,
      subject.chapterId ?? null,
      createdAt,
      readAt,
    );
    if (!read) unread[recipient]!++;
    this.bulk.row();
    this.rows.notifications++;
  }

  /**
   * `topLevel` comments on the place, oldest first, then `replies` spread over them:
   * every reply notifies the author it answers, every top-level comment the place's author.
   */
  writePlace(place: CommentPlace, topLevel: number, replies: number): void {
    if (topLevel <= 0) return;
    const { rnd, now, users } = this.o;
    const span = Math.max(1, now - place.date);
    const dates = new Float64Array(topLevel);
    for (let i = 0; i < topLevel; i++) dates[i] = place.date + Math.floor(rnd.next() * span);
    dates.sort();
    const authors = new Int32Array(topLevel);
    for (let i = 0; i < topLevel; i++) authors[i] = rnd.int(0, users - 1);
    const parents = new Int32Array(replies);
    const replyCounts = new Int32Array(topLevel);
    for (let r = 0; r < replies; r++) {
      // Older threads collect more replies.
      const parent = Math.floor(topLevel * rnd.next() ** 2);
      parents[r] = parent;
      replyCounts[parent]!++;
    }
    const first = this.nextId;
    this.nextId += topLevel + replies;
    const subject = (commentId: number) => ({ commentId, [place.column]: place.id });
    for (let i = 0; i < topLevel; i++) {
      const id = first + i;
      this.comment(place, id, null, authors[i]!, replyCounts[i]!, dates[i]!);
      this.notify(place.author, "comment", authors[i]!, subject(id), dates[i]!);
    }
    for (let r = 0; r < replies; r++) {
      const id = first + topLevel + r;
      const parent = parents[r]!;
      const author = rnd.int(0, users - 1);
      const date = dates[parent]! + Math.floor(rnd.next() * Math.max(1, now - dates[parent]!));
      this.comment(place, id, first + parent, author, 0, date);
      this.notify(authors[parent]!, "reply", author, subject(id), date);
    }
    this.sql.threads[place.column].run(topLevel, place.id);
  }

  /** A place with `total` comments: about a third of them replies. */
  writeSpread(place: CommentPlace, total: number): void {
    if (total <= 0) return;
    const replies = total > 1 ? Math.min(total - 1, Math.floor(total * REPLY_SHARE + this.o.rnd.next())) : 0;
    this.writePlace(place, total - replies, replies);
  }

  private comment(place: CommentPlace, id: number, parentId: number | null, author: number, replyCount: number, date: number) {
    const { rnd, users, userId, likeMean } = this.o;
    const likes = skewedCount(rnd, likeMean, users - 1);
    this.sql.comment.run(
      id,
      place.column === "postId" ? place.id : null,
      place.column === "chapterId" ? place.id : null,
      parentId,
      userId(author),
      commentText(rnd),
      likes,
      replyCount,
      date,
    );
    const likers = new UserRun(rnd.int(0, users - 1), likes, users, author);
    for (let t = 0; t < likes; t++) this.sql.like.run(userId(likers.at(t)), id);
    this.bulk.row(1 + likes);
    this.rows.comments++;
    this.rows.commentLikes += likes;
  }

  /** Every user's unread count, from the notifications written. */
  writeUnreadCounts(): void {
    const { unread, userId } = this.o;
    for (let i = 0; i < unread.length; i++) {
      if (unread[i]! === 0) continue;
      this.sql.unread.run(unread[i]!, userId(i));
      this.bulk.row();
    }
  }
}
