import { nameKey } from "../server/rules/text.ts";
import { skewedCount, UserRun, zipf } from "./distributions.ts";
import { DEMO_HUBS } from "./scale-counts.ts";
import { DAY, HOUR, type ScaleContext } from "./scale-context.ts";
import { ARTIST_IMAGE } from "./scale-images.ts";
import { HUB_DESCRIPTIONS, hubName, postText, UniqueNames } from "./scale-names.ts";

/** The hubs of the large benchmark set (seed/scale.ts), their members and their posts. */

export const BIG_HUB_NAME = "Ink & Brushes";

/** A hub before it is written: its creator, its other members (a run of users) and its day, all 0-based user indexes. */
export interface PlannedHub {
  creator: number;
  run: UserRun;
  createdAt: number;
}

export interface HubPlan {
  hubs: PlannedHub[];
  /** Posts per hub, by the hub's index (hub 0 is the big one). */
  postsPerHub: Int32Array;
}

/** The posts as written, by their ordinal: when and by whom (a 0-based user index), for their comments. */
export interface WrittenPosts {
  dates: Float64Array;
  authors: Int32Array;
  /** Hubs the bench user created or is a member of. */
  demoHubs: number;
}

/**
 * One big hub, a few thousand active ones with skewed sizes, and many quiet ones. The bench user (user 0) created the
 * big hub and is a member of DEMO_HUBS hubs with posts besides, no more: its feed reads as many sources in every set.
 */
export function planHubs(ctx: ScaleContext): HubPlan {
  const { counts, rnd, now, start, users: N, artists, joinedAt } = ctx;
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
    const createdAt = Math.max(h === 0 ? start + DAY : start + Math.floor(rnd.next() * (now - start - 2 * DAY)), joinedAt(creator) + HOUR);
    return { creator, run: h === 0 ? new UserRun(rnd.int(0, N - 1), members, N, creator) : hubRun(h, members, creator), createdAt };
  });
  return { hubs, postsPerHub };
}

/** The hub rows, named and described, with their member and post counts. */
export function writeHubs(ctx: ScaleContext, { hubs, postsPerHub }: HubPlan): void {
  const { sql, rnd, artists, first, userId, artistImage } = ctx;
  const hubNames = new UniqueNames();
  hubNames.claim(BIG_HUB_NAME);
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
    ctx.bulk.row();
  });
  ctx.rows.hubs = hubs.length;
}

/**
 * Hub after hub: its memberships, then its posts (by members) and their likes. `commentsOnPost` answers the comments
 * each post will get (by ordinal), a column of its row.
 */
export function writeMembershipsAndPosts(ctx: ScaleContext, plan: HubPlan, commentsOnPost: (ordinal: number) => number): WrittenPosts {
  const { counts, log, rows } = ctx;
  const written: WrittenPosts = { dates: new Float64Array(counts.posts), authors: new Int32Array(counts.posts), demoHubs: 0 };
  const postLikeMean = (counts.postLikes ?? counts.posts) / Math.max(1, counts.posts);
  let nextOrdinal = 0;
  let lastLog = performance.now();
  const postsStarted = performance.now();
  plan.hubs.forEach((hub, h) => {
    writeMembers(ctx, hub, ctx.first.hub + h);
    if (hub.creator === 0 || hub.run.includes(0)) written.demoHubs++;
    const count = plan.postsPerHub[h]!;
    if (count === 0) return;
    writePosts(ctx, hub, ctx.first.hub + h, count, { firstOrdinal: nextOrdinal, postLikeMean, commentsOnPost, written });
    nextOrdinal += count;
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      log(`  ${rows.posts} posts (${Math.round(rows.posts / ((lastLog - postsStarted) / 1000))} posts/s)`);
    }
  });
  return written;
}

/** The creator's membership from the hub's first day, the others' from a later one. */
function writeMembers(ctx: ScaleContext, hub: PlannedHub, hubId: number): void {
  const { sql, rnd, now, userId } = ctx;
  sql.membership.run(userId(hub.creator), hubId, hub.createdAt);
  for (let t = 0; t < hub.run.size; t++)
    sql.membership.run(userId(hub.run.at(t)), hubId, hub.createdAt + Math.floor(rnd.next() * (now - hub.createdAt)));
  ctx.bulk.row(1 + hub.run.size);
  ctx.rows.memberships += 1 + hub.run.size;
}

/** A hub's `count` posts, oldest first, with their likes; their dates and authors go into `written`. */
function writePosts(
  ctx: ScaleContext,
  hub: PlannedHub,
  hubId: number,
  count: number,
  o: { firstOrdinal: number; postLikeMean: number; commentsOnPost: (ordinal: number) => number; written: WrittenPosts },
): void {
  const { sql, rnd, now, users: N, first, userId } = ctx;
  const dates = new Float64Array(count);
  for (let i = 0; i < count; i++) dates[i] = hub.createdAt + HOUR + Math.floor(rnd.next() * (now - hub.createdAt - 2 * HOUR));
  dates.sort();
  for (let i = 0; i < count; i++) {
    const author = hub.run.size > 0 && rnd.chance(0.85) ? hub.run.at(rnd.int(0, hub.run.size - 1)) : hub.creator;
    const text = postText(rnd);
    const likes = skewedCount(rnd, o.postLikeMean, N - 1);
    const ordinal = o.firstOrdinal + i;
    const postId = first.post + ordinal;
    sql.post.run(postId, text.title, text.content, text.description, dates[i]!, likes, o.commentsOnPost(ordinal), userId(author), hubId);
    o.written.dates[ordinal] = dates[i]!;
    o.written.authors[ordinal] = author;
    const likers = new UserRun(rnd.int(0, N - 1), likes, N, author);
    for (let t = 0; t < likes; t++) sql.postLike.run(userId(likers.at(t)), postId);
    ctx.bulk.row(1 + likes);
    ctx.rows.posts++;
    ctx.rows.postLikes += likes;
  }
}
