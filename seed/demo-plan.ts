import { chapterNotes } from "./content/chapter-notes.ts";
import { DEMO_HUBS } from "./content/hubs.ts";
import { loadDemoPosts } from "./content/posts.ts";
import { DEMO_SERIES } from "./content/series.ts";
import type { ContentRating, ReadingDirection, SeriesStatus } from "../server/rules/series.ts";
import { DEMO_USERS } from "./content/users.ts";
import { Random, randomFor } from "./random.ts";

/**
 * Everything the demo will contain and when it happened, decided up front from a seeded random
 * stream: the same plan on every run. Times go from about seven months ago to an hour ago, in a
 * believable order (members join before they post, chapters come out every week or two).
 */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface PlannedUser {
  username: string;
  email: string;
  joinedAt: number;
}

export interface Timed {
  username: string;
  at: number;
}

export interface PlannedPost {
  author: string;
  title: string;
  description: string;
  content: string;
  date: number;
  likers: string[];
}

export interface PlannedHub {
  name: string;
  description: string;
  owner: string;
  createdAt: number;
  /** Members other than the owner, with the time they joined. */
  members: Timed[];
  posts: PlannedPost[];
}

export interface PlannedChapter {
  number: number;
  title: string;
  description: string;
  notes: string;
  date: number;
  pageCount: number;
  likers: string[];
}

export interface PlannedSeries {
  name: string;
  description: string;
  author: string;
  mono: boolean;
  tags: readonly string[];
  status: SeriesStatus;
  contentRating: ContentRating;
  readingDirection: ReadingDirection;
  createdAt: number;
  followers: Timed[];
  chapters: PlannedChapter[];
}

export interface DemoPlan {
  now: number;
  users: PlannedUser[];
  hubs: PlannedHub[];
  series: PlannedSeries[];
}

/** A time between two others, never in the future. */
const between = (rnd: Random, from: number, to: number) => Math.round(from + rnd.next() * Math.max(0, to - from));

export function buildDemoPlan(now: number): DemoPlan {
  const rnd = new Random("demo-plan");
  const recent = now - HOUR;
  const users: PlannedUser[] = DEMO_USERS.map((u) => ({
    username: u.username,
    email: `${u.username.toLowerCase()}@example.com`,
    joinedAt: now - u.joinedDaysAgo * DAY + rnd.int(0, 20) * HOUR,
  }));
  const joined = new Map(users.map((u) => [u.username, u.joinedAt]));
  const joinedAt = (username: string) => {
    const at = joined.get(username);
    if (at === undefined) throw new Error(`Demo content names an unknown user: ${username}`);
    return at;
  };
  const everyone = users.map((u) => u.username);

  const postsByHub = new Map<string, ReturnType<typeof loadDemoPosts>>();
  for (const post of loadDemoPosts()) {
    if (!DEMO_HUBS.some((h) => h.name === post.hub)) throw new Error(`A demo post names an unknown hub: ${post.hub}`);
    postsByHub.set(post.hub, [...(postsByHub.get(post.hub) ?? []), post]);
  }

  const hubs: PlannedHub[] = DEMO_HUBS.map((hub) => {
    const createdAt = Math.max(now - hub.createdDaysAgo * DAY + rnd.int(0, 12) * HOUR, joinedAt(hub.owner) + HOUR);
    const posts = postsByHub.get(hub.name) ?? [];
    // Authors must be members (docs/api.md §5); then others until the hub has its size.
    const memberNames = new Set(posts.map((p) => p.author).filter((a) => a !== hub.owner));
    for (const name of rnd.shuffle(everyone)) {
      if (memberNames.size + 1 >= hub.members) break;
      if (name !== hub.owner) memberNames.add(name);
    }
    const members = [...memberNames].map((username) => ({
      username,
      // Early members join in the hub's first weeks, the rest any time since.
      at: between(rnd, Math.max(createdAt, joinedAt(username)) + HOUR, rnd.chance(0.6) ? Math.min(recent, createdAt + 21 * DAY) : recent),
    }));
    const memberSince = new Map<string, number>([[hub.owner, createdAt], ...members.map((m): [string, number] => [m.username, m.at])]);
    const planned = posts.map((post, i): PlannedPost => {
      // The hub's first post (its welcome or rules post) comes right after the hub itself.
      const from = i === 0 ? createdAt + HOUR : memberSince.get(post.author)! + 2 * HOUR;
      const date = i === 0 ? between(rnd, from, from + DAY) : between(rnd, from, recent);
      const popularity = rnd.skewed(14, 0.8) + (rnd.chance(0.15) ? rnd.int(4, 8) : 0);
      const likers = rnd.sample(
        everyone.filter((u) => u !== post.author),
        popularity,
      );
      return { author: post.author, title: post.title, description: post.description, content: post.body, date, likers };
    });
    return { name: hub.name, description: hub.description, owner: hub.owner, createdAt, members, posts: planned };
  });

  const series: PlannedSeries[] = DEMO_SERIES.map((s) => {
    const createdAt = Math.max(now - s.createdDaysAgo * DAY + rnd.int(0, 12) * HOUR, joinedAt(s.author) + HOUR);
    const followers = rnd
      .sample(
        everyone.filter((u) => u !== s.author),
        s.followers,
      )
      .map((username) => ({ username, at: between(rnd, Math.max(createdAt, joinedAt(username)) + HOUR, recent) }));
    // Chapters come out at a steady pace with a little jitter, the latest a few days ago.
    const span = now - 2 * DAY - (createdAt + DAY);
    const favourite = rnd.int(0, s.chapters.length - 1);
    const chapters = s.chapters.map((c, i): PlannedChapter => {
      const date = Math.round(createdAt + DAY + (span * (i + 0.5)) / s.chapters.length + rnd.range(-0.4, 0.4) * DAY);
      const pageCount = rnd.int(3, 8);
      // Early chapters have had longer to collect likes; one fan favourite stands out.
      const share = (i === favourite ? 0.95 : 0.75 - (0.45 * i) / Math.max(1, s.chapters.length - 1)) * rnd.range(0.6, 1.1);
      const likers = rnd.sample(
        everyone.filter((u) => u !== s.author),
        Math.round(share * (s.followers + 3)),
      );
      return {
        number: i + 1,
        title: c.title,
        description: c.description,
        notes: chapterNotes(randomFor("notes", s.name, i + 1), s.name, i + 1, pageCount),
        date,
        pageCount,
        likers,
      };
    });
    const meta = { tags: s.tags, status: s.status, contentRating: s.contentRating, readingDirection: s.readingDirection };
    return { name: s.name, description: s.description, author: s.author, mono: s.mono, ...meta, createdAt, followers, chapters };
  });

  return { now, users, hubs, series };
}
