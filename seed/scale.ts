import bcrypt from "bcryptjs";
import type BetterSqlite3 from "better-sqlite3";
import { sqliteOf, type Database } from "../server/db/database.ts";
import { prepare } from "./sqlite-statement.ts";
import { nameKey } from "../server/rules/text.ts";
import { BulkWriter } from "./bulk.ts";
import { DEMO_PASSWORD, DEMO_USERNAME } from "./content/users.ts";
import { isDatabaseEmpty } from "./demo.ts";
import { skewedCount, UserRun, zipf } from "./distributions.ts";
import { imageFilesFor, imageRowInserter } from "./image-store.ts";
import { Random } from "./random.ts";
import { ARTIST_IMAGE, IMAGES_PER_ARTIST, linkArtistImages, POOL_COVERS, POOL_PAGES, renderPool } from "./scale-images.ts";
import {
  CHAPTER_TITLES,
  HUB_DESCRIPTIONS,
  hubName,
  postText,
  SERIES_DESCRIPTIONS,
  seriesName,
  UniqueNames,
  username,
} from "./scale-names.ts";
import { noRows, type RowCounts } from "./row-counts.ts";
import {
  commentCounts,
  CROWD_SERIES_NAME,
  DEMO_FOLLOWS,
  DEMO_HUBS,
  DEMO_NOTIFICATIONS,
  QUIET_SERIES_NAME,
  validateCounts,
  type ScaleCounts,
} from "./scale-counts.ts";
import { deferIndexes, DiscussionWriter, planComments } from "./scale-discussion.ts";

export const SCALE_ON_POSTGRES =
  "The large benchmark set is written into SQLite only (raw better-sqlite3, for speed): unset DATABASE_URL and seed a data folder";

export { BENCHMARK_COUNTS, CROWD_SERIES_NAME, parseScaleCounts, QUIET_SERIES_NAME, type ScaleCounts } from "./scale-counts.ts";
export const BIG_HUB_NAME = "Ink & Brushes";

export interface ScaleOptions {
  now?: number;
  bcryptCost?: number;
  /** Everybody's password (default `demo1234`; production picks another: seed/demo-password.ts). */
  password?: string;
  concurrency?: number;
  log?: (message: string) => void;
}

export interface ScaleResult {
  seconds: number;
  /** Time spent writing rows (the rest is drawing the image pool and hashing the password). */
  writeSeconds: number;
  rows: RowCounts;
  bigHub: { id: number; name: string; posts: number };
  /** The big hub's newest post, with its top-level comments (undefined: no comments on it). */
  bigPost?: { id: number; topLevelComments: number };
  /** The series every user follows (and its followers), and the one nobody follows. */
  crowdSeries?: { id: number; name: string; followers: number };
  quietSeries?: { id: number; name: string };
  /** What the bench user follows and is told. */
  demo: { follows: number; hubs: number; notifications: number };
  login: { username: string; password: string };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The next id a table's AUTOINCREMENT key would give. */
function nextId(sqlite: BetterSqlite3.Database, table: string): number {
  const seq = prepare<[string], { seq: number }>(sqlite, "SELECT seq FROM sqlite_sequence WHERE name = ?").get(table)?.seq ?? 0;
  const max = prepare<[], { id: number | null }>(sqlite, `SELECT MAX(id) AS id FROM "${table}"`).get()?.id ?? 0;
  return Math.max(seq, max) + 1;
}

/**
 * Fills an EMPTY database with the large benchmark set: bulk inserts with prepared statements in
 * large transactions, every counter equal to its rows, one password hash for everybody
 * (`demo` / `demo1234` and every other user), and a small pool of drawn images reused through
 * per-artist rows. A failure part-way leaves a partial set: seed again into a new folder.
 *
 * SQLite only, for speed: millions of rows through raw better-sqlite3 statements on `db.sqlite`, the
 * connection that stays for SQLite (issue 12). PostgreSQL is to get the set by copying a seeded SQLite file.
 */
export async function seedScale(db: Database, dataDir: string, counts: ScaleCounts, options: ScaleOptions = {}): Promise<ScaleResult> {
  validateCounts(counts);
  if (db.engine !== "sqlite") throw new Error(SCALE_ON_POSTGRES);
  if (!(await isDatabaseEmpty(db.kysely))) throw new Error("seedScale needs an empty database");
  const log = options.log ?? (() => {});
  const started = performance.now();
  const sqlite = sqliteOf(db, "The large benchmark set");
  const rnd = new Random("scale");
  const now = options.now ?? Date.now();
  const start = now - 730 * DAY;
  const N = counts.users;
  const artists = Math.min(N, Math.max(1, Math.ceil(counts.series / 20)));

  log("Drawing the image pool...");
  const pool = await renderPool(options.concurrency ?? 2);
  const password = options.password ?? DEMO_PASSWORD;
  const passwordHash = await bcrypt.hash(password, options.bcryptCost ?? 10);
  const files = imageFilesFor(dataDir);

  const first = {
    user: nextId(sqlite, "User"),
    image: nextId(sqlite, "Image"),
    hub: nextId(sqlite, "Hub"),
    post: nextId(sqlite, "Post"),
    series: nextId(sqlite, "Series"),
    chapter: nextId(sqlite, "Chapter"),
    comment: nextId(sqlite, "Comment"),
  };
  const R = counts.readers ?? 0;
  const comments = commentCounts(counts);
  const commentRnd = new Random("scale:comments");
  const userId = (index: number) => first.user + index;
  const joinedAt = (index: number) => start + Math.floor((index / N) * (now - start - 30 * DAY));
  const artistImage = (artist: number, slot: number) => first.image + artist * IMAGES_PER_ARTIST + slot;
  const rows = noRows();

  const sql = {
    user: prepare(
      sqlite,
      "INSERT INTO User (id, username, usernameKey, email, emailKey, passwordHash, joinedAt, profileImageId, profileBannerId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
      "INSERT INTO Series (id, name, nameKey, description, followersCount, chapterCount, profileImageId, profileBannerId, authorId, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    follow: prepare(sqlite, "INSERT INTO Follow (userId, seriesId, createdAt) VALUES (?, ?, ?)"),
    chapter: prepare(
      sqlite,
      "INSERT INTO Chapter (id, seriesId, number, title, description, content, likes, commentCount, date, coverId, authorId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    page: prepare(sqlite, "INSERT INTO ChapterPage (chapterId, position, imageId) VALUES (?, ?, ?)"),
    chapterLike: prepare(sqlite, "INSERT INTO ChapterLike (userId, chapterId) VALUES (?, ?)"),
  };
  const insertImage = imageRowInserter(sqlite);
  let bigPost: ScaleResult["bigPost"];
  let demo: ScaleResult["demo"] = { follows: 0, hubs: 0, notifications: 0 };
  let extra: Pick<ScaleResult, "crowdSeries" | "quietSeries"> = {};
  const bulk = new BulkWriter(sqlite);
  const writeStarted = performance.now();
  bulk.start();
  try {
    // Users; the first `artists` of them publish the series and own images.
    for (let i = 0; i < N; i++) {
      const name = i === 0 ? DEMO_USERNAME : username(rnd, i);
      const key = name.toLowerCase();
      const isArtist = i < artists;
      sql.user.run(
        userId(i),
        name,
        key,
        `${key}@example.com`,
        `${key}@example.com`,
        passwordHash,
        joinedAt(i),
        isArtist ? artistImage(i, ARTIST_IMAGE.avatar) : null,
        isArtist ? artistImage(i, ARTIST_IMAGE.userBanner) : null,
      );
      bulk.row();
    }
    // Plain readers: no images, no content; they follow the crowd series.
    const readerRnd = new Random("scale:readers");
    for (let r = 0; r < R; r++) {
      const name = username(readerRnd, N + r);
      const key = name.toLowerCase();
      const joined = start + Math.floor(readerRnd.next() * (now - start - 30 * DAY));
      sql.user.run(userId(N + r), name, key, `${key}@example.com`, `${key}@example.com`, passwordHash, joined, null, null);
      bulk.row();
    }
    rows.users = N + R;
    const artistList = Array.from({ length: artists }, (_, a) => ({
      userId: userId(a),
      firstImageId: artistImage(a, 0),
      createdAt: joinedAt(a) + HOUR,
    }));
    linkArtistImages(files, pool, artistList, (row) => {
      insertImage(row, row.authorId);
      bulk.row();
      rows.images++;
    });

    // Hubs: one big one, a few thousand active ones with skewed sizes, and many quiet ones.
    const H = counts.hubs;
    const postsPerHub = new Int32Array(H);
    if (H > 0) {
      postsPerHub[0] = counts.bigHubPosts;
      const rest = counts.posts - counts.bigHubPosts;
      const others = H - 1;
      if (others === 0) postsPerHub[0] += rest;
      else {
        const active = Math.min(others, Math.max(1, Math.round(others * 0.05)));
        const order = rnd.shuffle(Array.from({ length: others }, (_, i) => i + 1)).slice(0, active);
        zipf(rest, active, 0.9).forEach((n, i) => (postsPerHub[order[i]!] = n));
      }
    }
    const hubNames = new UniqueNames();
    hubNames.claim(BIG_HUB_NAME);
    // The bench user (user 0) created the big hub and is a member of DEMO_HUBS hubs with posts besides, no more: its
    // feed reads as many sources in every set.
    const demoHubs = new Set(
      rnd.sample(
        Array.from({ length: H }, (_, h) => h).filter((h) => h > 0 && postsPerHub[h]! > 0),
        DEMO_HUBS,
      ),
    );
    const hubRun = (h: number, members: number, creator: number) => {
      const run = new UserRun(rnd.int(0, N - 1), members, N, creator);
      if (members === 0 || run.includes(0) === demoHubs.has(h)) return run;
      if (demoHubs.has(h)) return new UserRun(0, members, N, creator);
      // A run within users 1..N-1, without wrapping round to user 0.
      return members <= N - 2 ? new UserRun(1 + rnd.int(0, N - 2 - members), members, N, creator) : run;
    };
    const hubs = Array.from({ length: H }, (_, h) => {
      const drawn = h === 0 ? 0 : rnd.chance(0.3) ? rnd.int(0, artists - 1) : rnd.int(0, N - 1);
      const creator = h !== 0 && drawn === 0 && N > 1 ? 1 : drawn;
      const members =
        h === 0
          ? Math.min(N - 1, Math.max(10, Math.round(N * 0.3)))
          : postsPerHub[h]! > 0
            ? Math.min(N - 1, 2 + Math.round(Math.sqrt(postsPerHub[h]!) * 2) + rnd.int(0, 10))
            : rnd.chance(0.3)
              ? Math.min(N - 1, rnd.skewed(60, 1.1))
              : 0;
      const createdAt = Math.max(
        h === 0 ? start + DAY : start + Math.floor(rnd.next() * (now - start - 2 * DAY)),
        joinedAt(creator) + HOUR,
      );
      return { creator, run: h === 0 ? new UserRun(rnd.int(0, N - 1), members, N, creator) : hubRun(h, members, creator), createdAt };
    });
    hubs.forEach((hub, h) => {
      const name = h === 0 ? BIG_HUB_NAME : hubName(rnd, hubNames);
      const withImages = hub.creator < artists;
      sql.hub.run(
        first.hub + h,
        name,
        nameKey(name),
        rnd.pick(HUB_DESCRIPTIONS),
        1 + hub.run.size,
        postsPerHub[h]!,
        withImages ? artistImage(hub.creator, ARTIST_IMAGE.hubLogo) : null,
        withImages ? artistImage(hub.creator, ARTIST_IMAGE.hubBanner) : null,
        userId(hub.creator),
        hub.createdAt,
      );
      bulk.row();
    });
    rows.hubs = H;

    // Memberships, then each hub's posts (authors are members) and their likes.
    const postLikeMean = (counts.postLikes ?? counts.posts) / Math.max(1, counts.posts);
    let postId = first.post;
    let demoHubCount = 0;
    let lastLog = performance.now();
    const postsStarted = performance.now();
    // Comments per post and chapter, known before they are written (their counts are columns of the rows).
    const bigPostOrdinal = H > 0 && postsPerHub[0]! > 0 ? postsPerHub[0]! - 1 : -1;
    const plan = planComments(
      commentRnd,
      { comments: comments.comments, bigPost: comments.bigPost, posts: counts.posts, chapters: counts.chapters },
      bigPostOrdinal,
    );
    const commentsOnPost = (ordinal: number) =>
      plan.bigPost?.ordinal === ordinal ? plan.bigPost.topLevel + plan.bigPost.replies : plan.perPost[ordinal]!;
    const postDates = new Float64Array(counts.posts);
    const postAuthors = new Int32Array(counts.posts);
    hubs.forEach((hub, h) => {
      const hubId = first.hub + h;
      sql.membership.run(userId(hub.creator), hubId, hub.createdAt);
      if (hub.creator === 0 || hub.run.includes(0)) demoHubCount++;
      for (let t = 0; t < hub.run.size; t++)
        sql.membership.run(userId(hub.run.at(t)), hubId, hub.createdAt + Math.floor(rnd.next() * (now - hub.createdAt)));
      bulk.row(1 + hub.run.size);
      rows.memberships += 1 + hub.run.size;
      const count = postsPerHub[h]!;
      if (count === 0) return;
      const dates = new Float64Array(count);
      for (let i = 0; i < count; i++) dates[i] = hub.createdAt + HOUR + Math.floor(rnd.next() * (now - hub.createdAt - 2 * HOUR));
      dates.sort();
      for (let i = 0; i < count; i++) {
        const author = hub.run.size > 0 && rnd.chance(0.85) ? hub.run.at(rnd.int(0, hub.run.size - 1)) : hub.creator;
        const text = postText(rnd);
        const likes = skewedCount(rnd, postLikeMean, N - 1);
        const ordinal = postId - first.post;
        sql.post.run(postId, text.title, text.content, text.description, dates[i]!, likes, commentsOnPost(ordinal), userId(author), hubId);
        postDates[ordinal] = dates[i]!;
        postAuthors[ordinal] = author;
        const likers = new UserRun(rnd.int(0, N - 1), likes, N, author);
        for (let t = 0; t < likes; t++) sql.postLike.run(userId(likers.at(t)), postId);
        bulk.row(1 + likes);
        rows.posts++;
        rows.postLikes += likes;
        postId++;
      }
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`  ${rows.posts} posts (${Math.round(rows.posts / ((lastLog - postsStarted) / 1000))} posts/s)`);
      }
    });

    // Series by the artists; chapters and followers skewed, but not by the same series.
    const S = counts.series;
    const chaptersPerSeries = new Int32Array(S);
    const followersPerSeries = new Int32Array(S);
    const chapterShares = zipf(counts.chapters, S, 0.8);
    rnd.shuffle(Array.from({ length: S }, (_, i) => i)).forEach((s, i) => (chaptersPerSeries[s] = chapterShares[i]!));
    const followOrder = rnd.shuffle(Array.from({ length: S }, (_, i) => i));
    const follows = zipf(counts.follows ?? S * 25, S, 0.9);
    followOrder.forEach((s, i) => (followersPerSeries[s] = Math.min(N - 1, follows[i]!)));
    // The crowd series (the most followed) gets every user and reader; the least followed none. Both get a chapter.
    const crowd = S > 0 ? followOrder[0]! : -1;
    const quiet = S > 1 ? followOrder[S - 1]! : -1;
    if (quiet >= 0) followersPerSeries[quiet] = 0;
    for (const s of [crowd, quiet]) {
      if (s < 0 || chaptersPerSeries[s]! > 0) continue;
      let most = 0;
      for (let i = 1; i < S; i++) if (chaptersPerSeries[i]! > chaptersPerSeries[most]!) most = i;
      if (chaptersPerSeries[most]! > 1) {
        chaptersPerSeries[most]!--;
        chaptersPerSeries[s]!++;
      }
    }
    const seriesArtist = Int32Array.from({ length: S }, (_, s) => (s < artists ? s : rnd.int(0, artists - 1)));
    // The bench user (user 0) follows DEMO_FOLLOWS series, none of its own, from the day each began.
    const demoFollows = new Uint8Array(S);
    const followable = Array.from({ length: S }, (_, s) => s).filter((s) => seriesArtist[s] !== 0 && s !== quiet && s !== crowd);
    const crowdFollowable = crowd >= 0 && seriesArtist[crowd] !== 0;
    if (crowdFollowable) demoFollows[crowd] = 1;
    for (const s of rnd.sample(followable, DEMO_FOLLOWS - (crowdFollowable ? 1 : 0))) demoFollows[s] = 1;
    const demoChapters: { id: number; date: number; artist: number }[] = [];
    const chapterDates = new Float64Array(counts.chapters);
    const chapterAuthors = new Int32Array(counts.chapters);
    const seriesNames = new UniqueNames();
    seriesNames.claim(CROWD_SERIES_NAME);
    seriesNames.claim(QUIET_SERIES_NAME);
    let crowdSeries: ScaleResult["crowdSeries"];
    let quietSeries: ScaleResult["quietSeries"];
    const chapterLikeMean = (counts.chapterLikes ?? counts.chapters * 4) / Math.max(1, counts.chapters);
    let chapterId = first.chapter;
    for (let s = 0; s < S; s++) {
      const seriesId = first.series + s;
      const artist = seriesArtist[s]!;
      const createdAt = Math.max(start + Math.floor(rnd.next() * (now - start - 10 * DAY)), joinedAt(artist) + HOUR);
      const name = s === crowd ? CROWD_SERIES_NAME : s === quiet ? QUIET_SERIES_NAME : seriesName(rnd, seriesNames);
      const chapterCount = chaptersPerSeries[s]!;
      const demoFollowsThis = demoFollows[s] === 1;
      // Followers: a run of users (without the bench user, who follows exactly its own list), or for the crowd series everyone.
      const run = s === crowd ? undefined : new UserRun(rnd.int(0, N - 1), followersPerSeries[s]!, N, artist);
      const followerCount = run ? run.size - (run.includes(0) ? 1 : 0) + (demoFollowsThis ? 1 : 0) : N + R - 1;
      if (s === crowd) crowdSeries = { id: seriesId, name, followers: followerCount };
      if (s === quiet) quietSeries = { id: seriesId, name };
      sql.series.run(
        seriesId,
        name,
        nameKey(name),
        rnd.pick(SERIES_DESCRIPTIONS),
        followerCount,
        chapterCount,
        artistImage(artist, ARTIST_IMAGE.seriesLogo),
        artistImage(artist, ARTIST_IMAGE.seriesBanner),
        userId(artist),
        createdAt,
      );
      const follow = (user: number) => {
        if (user === 0) return;
        sql.follow.run(userId(user), seriesId, createdAt + Math.floor(rnd.next() * (now - createdAt)));
      };
      if (run) for (let t = 0; t < run.size; t++) follow(run.at(t));
      else for (let u = 0; u < N + R; u++) if (u !== artist) follow(u);
      if (demoFollowsThis) sql.follow.run(userId(0), seriesId, createdAt);
      bulk.row(1 + followerCount);
      rows.series++;
      rows.follows += followerCount;
      for (let c = 0; c < chapterCount; c++) {
        const number = c + 1;
        const date = createdAt + Math.floor(((c + 1) / (chapterCount + 1)) * (now - createdAt));
        const title = `${CHAPTER_TITLES[c % CHAPTER_TITLES.length]}${c >= CHAPTER_TITLES.length ? ` ${Math.floor(c / CHAPTER_TITLES.length) + 1}` : ""}`;
        const likes = skewedCount(rnd, chapterLikeMean, N - 1);
        const pages = 3 + ((number * 7 + s) % 6);
        const cover = artistImage(artist, ARTIST_IMAGE.firstCover + (number % POOL_COVERS));
        sql.chapter.run(
          chapterId,
          seriesId,
          number,
          title,
          `Chapter ${number} of ${name}.`,
          `## Notes\n\nThanks for reading chapter ${number} of *${name}*!`,
          likes,
          plan.perChapter[chapterId - first.chapter]!,
          date,
          cover,
          userId(artist),
        );
        for (let p = 0; p < pages; p++)
          sql.page.run(chapterId, p, artistImage(artist, ARTIST_IMAGE.firstPage + ((number * 5 + p) % POOL_PAGES)));
        const likers = new UserRun(rnd.int(0, N - 1), likes, N, artist);
        for (let t = 0; t < likes; t++) sql.chapterLike.run(userId(likers.at(t)), chapterId);
        bulk.row(1 + pages + likes);
        chapterDates[chapterId - first.chapter] = date;
        chapterAuthors[chapterId - first.chapter] = artist;
        if (demoFollowsThis) demoChapters.push({ id: chapterId, date, artist });
        rows.chapters++;
        rows.chapterPages += pages;
        rows.chapterLikes += likes;
        chapterId++;
      }
    }

    // Comments on posts, then on chapters, with their likes and notifications; the bench user's chapter
    // notifications; every user's unread count.
    const discussion = new DiscussionWriter(sqlite, bulk, rows, {
      rnd: commentRnd,
      now,
      users: N,
      userId,
      unread: new Int32Array(N + R),
      likeMean: comments.likes / Math.max(1, comments.comments),
      quietUser: 0,
      firstCommentId: first.comment,
    });
    const restoreIndexes = deferIndexes(sqlite, ["Comment", "CommentLike", "Notification"]);
    const commentsStarted = performance.now();
    lastLog = commentsStarted;
    const progress = () => {
      if (performance.now() - lastLog < 5000) return;
      lastLog = performance.now();
      log(`  ${rows.comments} comments (${Math.round(rows.comments / ((lastLog - commentsStarted) / 1000))} comments/s)`);
    };
    for (let i = 0; i < counts.posts; i++) {
      const place = { column: "postId" as const, id: first.post + i, date: postDates[i]!, author: postAuthors[i]! };
      if (plan.bigPost?.ordinal === i) {
        discussion.writePlace(place, plan.bigPost.topLevel, plan.bigPost.replies);
        bigPost = { id: place.id, topLevelComments: plan.bigPost.topLevel };
      } else discussion.writeSpread(place, plan.perPost[i]!);
      progress();
    }
    for (let i = 0; i < counts.chapters; i++) {
      discussion.writeSpread(
        { column: "chapterId", id: first.chapter + i, date: chapterDates[i]!, author: chapterAuthors[i]! },
        plan.perChapter[i]!,
      );
      progress();
    }
    demoChapters.sort((a, b) => a.date - b.date || a.id - b.id);
    const told = demoChapters.slice(Math.max(0, demoChapters.length - DEMO_NOTIFICATIONS));
    for (const c of told) discussion.notify(0, "chapter", c.artist, { chapterId: c.id }, c.date, true);
    discussion.writeUnreadCounts();
    const indexesStarted = performance.now();
    restoreIndexes();
    log(`  comment and notification indexes made in ${((performance.now() - indexesStarted) / 1000).toFixed(1)} s`);
    demo = { follows: demoFollows.reduce((a, b) => a + b, 0), hubs: demoHubCount, notifications: told.length };
    extra = { crowdSeries, quietSeries };
    bulk.finish();
  } catch (err) {
    bulk.abort();
    throw err;
  }
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  log(`  ${bulk.rows} rows written in ${writeSeconds.toFixed(1)} s (${Math.round(bulk.rows / writeSeconds)} rows/s)`);
  if (bigPost) log(`  Big post: ${bigPost.id} in "${BIG_HUB_NAME}" with ${bigPost.topLevelComments} top-level comments`);
  if (extra.crowdSeries) log(`  Crowd series: "${extra.crowdSeries.name}" with ${extra.crowdSeries.followers} followers`);
  log(
    `  "${DEMO_USERNAME}" follows ${demo.follows} series, is a member of ${demo.hubs} hubs and has ${demo.notifications} chapter notifications`,
  );
  return {
    seconds: (performance.now() - started) / 1000,
    writeSeconds,
    rows,
    bigHub: {
      id: first.hub,
      name: BIG_HUB_NAME,
      posts: counts.hubs > 0 ? counts.bigHubPosts + (counts.hubs === 1 ? counts.posts - counts.bigHubPosts : 0) : 0,
    },
    bigPost,
    ...extra,
    demo,
    login: { username: DEMO_USERNAME, password },
  };
}
