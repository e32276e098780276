import { nameKey } from "../server/rules/text.ts";
import { skewedCount, UserRun, zipf } from "./distributions.ts";
import { CROWD_SERIES_NAME, DEMO_FOLLOWS, QUIET_SERIES_NAME } from "./scale-counts.ts";
import { DAY, HOUR, type ScaleContext } from "./scale-context.ts";
import { ARTIST_IMAGE, POOL_COVERS, POOL_PAGES } from "./scale-images.ts";
import { CHAPTER_TITLES, SERIES_DESCRIPTIONS, seriesName, UniqueNames } from "./scale-names.ts";
import { seriesMetaSource } from "./scale-series-meta.ts";

/** The series of the large benchmark set (seed/scale.ts): their followers and their chapters. */

/** The series before they are written, by index. */
export interface SeriesPlan {
  chaptersPerSeries: Int32Array;
  followersPerSeries: Int32Array;
  /** The artist (a 0-based user index) of each series. */
  seriesArtist: Int32Array;
  /** 1 where the bench user follows the series. */
  demoFollows: Uint8Array;
  /** The series every user and reader follows, and the one nobody follows (-1: none). */
  crowd: number;
  quiet: number;
}

/** The series and chapters as written. */
export interface WrittenSeries {
  /** The chapters by ordinal: when and by whom (a 0-based user index), for their comments. */
  chapterDates: Float64Array;
  chapterAuthors: Int32Array;
  /** The chapters of the series the bench user follows, for its notifications. */
  demoChapters: { id: number; date: number; artist: number }[];
  crowdSeries?: { id: number; name: string; followers: number };
  quietSeries?: { id: number; name: string };
}

/** A series as written, for its chapters. */
interface SeriesRow {
  index: number;
  id: number;
  name: string;
  artist: number;
  createdAt: number;
  chapters: number;
  demoFollows: boolean;
}

/** Series by the artists; chapters and followers skewed, but not by the same series. */
export function planSeries(ctx: ScaleContext): SeriesPlan {
  const { counts, rnd, users: N, artists } = ctx;
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
  return { chaptersPerSeries, followersPerSeries, seriesArtist, demoFollows, crowd, quiet };
}

/**
 * Series after series: its row, its followers, then its chapters with their pages and likes. `commentsOnChapter`
 * answers the comments each chapter will get (by ordinal), a column of its row.
 */
export function writeSeries(ctx: ScaleContext, plan: SeriesPlan, commentsOnChapter: (ordinal: number) => number): WrittenSeries {
  const { counts, sql, rnd, now, start, users: N, readers: R, first, userId, joinedAt, artistImage } = ctx;
  const written: WrittenSeries = {
    chapterDates: new Float64Array(counts.chapters),
    chapterAuthors: new Int32Array(counts.chapters),
    demoChapters: [],
  };
  const seriesNames = new UniqueNames();
  seriesNames.claim(CROWD_SERIES_NAME);
  seriesNames.claim(QUIET_SERIES_NAME);
  const chapterLikeMean = (counts.chapterLikes ?? counts.chapters * 4) / Math.max(1, counts.chapters);
  let nextChapter = 0;
  const nextMeta = seriesMetaSource();
  for (let s = 0; s < counts.series; s++) {
    const seriesId = first.series + s;
    const artist = plan.seriesArtist[s]!;
    const createdAt = Math.max(start + Math.floor(rnd.next() * (now - start - 10 * DAY)), joinedAt(artist) + HOUR);
    const name = s === plan.crowd ? CROWD_SERIES_NAME : s === plan.quiet ? QUIET_SERIES_NAME : seriesName(rnd, seriesNames);
    const chapterCount = plan.chaptersPerSeries[s]!;
    const demoFollowsThis = plan.demoFollows[s] === 1;
    // Followers: a run of users (without the bench user, who follows exactly its own list), or for the crowd series everyone.
    const run = s === plan.crowd ? undefined : new UserRun(rnd.int(0, N - 1), plan.followersPerSeries[s]!, N, artist);
    const followerCount = run ? run.size - (run.includes(0) ? 1 : 0) + (demoFollowsThis ? 1 : 0) : N + R - 1;
    if (s === plan.crowd) written.crowdSeries = { id: seriesId, name, followers: followerCount };
    if (s === plan.quiet) written.quietSeries = { id: seriesId, name };
    // The crowd and quiet series stay in every list (the bench and its tests look for them as guests).
    const drawn = nextMeta();
    const meta = s === plan.crowd || s === plan.quiet ? { ...drawn, contentRating: "general" as const } : drawn;
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
      JSON.stringify(meta.tags),
      meta.status,
      meta.contentRating,
      meta.readingDirection,
    );
    for (const tag of meta.tags) sql.seriesTag.run(seriesId, tag);
    const follow = (user: number) => {
      if (user === 0) return;
      sql.follow.run(userId(user), seriesId, createdAt + Math.floor(rnd.next() * (now - createdAt)));
    };
    if (run) for (let t = 0; t < run.size; t++) follow(run.at(t));
    else for (let u = 0; u < N + R; u++) if (u !== artist) follow(u);
    if (demoFollowsThis) sql.follow.run(userId(0), seriesId, createdAt);
    ctx.bulk.row(1 + followerCount + meta.tags.length);
    ctx.rows.series++;
    ctx.rows.follows += followerCount;
    const series = { index: s, id: seriesId, name, artist, createdAt, chapters: chapterCount, demoFollows: demoFollowsThis };
    const firstOrdinal = nextChapter;
    for (let c = 0; c < chapterCount; c++)
      writeChapter(ctx, series, c, { ordinal: nextChapter++, chapterLikeMean, commentsOnChapter, written });
    if (demoFollowsThis && chapterCount > 0) writeDemoProgress(ctx, series, firstOrdinal);
  }
  return written;
}

/**
 * The bench user reads every series it follows (as many in every set: the continue-reading list's growth ratio): it is
 * on page 2 of the middle chapter, the chapters before it read. Its times come from the series' index, not the random
 * stream, so the rest of the set is the same with or without them.
 */
function writeDemoProgress(ctx: ScaleContext, series: SeriesRow, firstOrdinal: number): void {
  const { sql, now, userId, first } = ctx;
  const at = Math.floor(series.chapters / 2);
  const updatedAt = Math.max(series.createdAt, now - ((series.index * 7_919_000) % (30 * DAY)));
  sql.progress.run(userId(0), series.id, first.chapter + firstOrdinal + at, 2, updatedAt);
  for (let c = 0; c < at; c++) sql.chapterRead.run(userId(0), first.chapter + firstOrdinal + c, updatedAt);
  ctx.bulk.row(1 + at);
}

/** A series' chapter `c` (0-based) with its pages and its likes. */
function writeChapter(
  ctx: ScaleContext,
  series: SeriesRow,
  c: number,
  o: { ordinal: number; chapterLikeMean: number; commentsOnChapter: (ordinal: number) => number; written: WrittenSeries },
): void {
  const { sql, rnd, now, users: N, first, userId, artistImage } = ctx;
  const { name, artist, createdAt } = series;
  const chapterId = first.chapter + o.ordinal;
  const number = c + 1;
  const date = createdAt + Math.floor(((c + 1) / (series.chapters + 1)) * (now - createdAt));
  const title = `${CHAPTER_TITLES[c % CHAPTER_TITLES.length]}${c >= CHAPTER_TITLES.length ? ` ${Math.floor(c / CHAPTER_TITLES.length) + 1}` : ""}`;
  const likes = skewedCount(rnd, o.chapterLikeMean, N - 1);
  const pages = 3 + ((number * 7 + series.index) % 6);
  const cover = artistImage(artist, ARTIST_IMAGE.firstCover + (number % POOL_COVERS));
  sql.chapter.run(
    chapterId,
    series.id,
    number,
    title,
    `Chapter ${number} of ${name}.`,
    `## Notes\n\nThanks for reading chapter ${number} of *${name}*!`,
    likes,
    o.commentsOnChapter(o.ordinal),
    date,
    cover,
    userId(artist),
  );
  for (let p = 0; p < pages; p++) sql.page.run(chapterId, p, artistImage(artist, ARTIST_IMAGE.firstPage + ((number * 5 + p) % POOL_PAGES)));
  const likers = new UserRun(rnd.int(0, N - 1), likes, N, artist);
  for (let t = 0; t < likes; t++) sql.chapterLike.run(userId(likers.at(t)), chapterId);
  ctx.bulk.row(1 + pages + likes);
  o.written.chapterDates[o.ordinal] = date;
  o.written.chapterAuthors[o.ordinal] = artist;
  if (series.demoFollows) o.written.demoChapters.push({ id: chapterId, date, artist });
  ctx.rows.chapters++;
  ctx.rows.chapterPages += pages;
  ctx.rows.chapterLikes += likes;
}
