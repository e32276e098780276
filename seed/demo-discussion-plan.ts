import { CHAPTER_DISCUSSIONS } from "./content/comments-chapters.ts";
import { POST_DISCUSSIONS } from "./content/comments-posts.ts";
import type { DemoDiscussion } from "./content/comments.ts";
import { DEMO_USERNAME } from "./content/users.ts";
import { DAY, HOUR, type DemoPlan } from "./demo-plan.ts";
import { Random } from "./random.ts";

/**
 * The demo's discussion, decided up front like the rest of the plan (pure, deterministic): who comments where and
 * when, who answers whom, who likes which comment, which comment its author deleted, and until when each member has
 * read their notifications. The notifications themselves are made by the API's own units as the comments are written
 * (seed/demo-write-discussion.ts); this only decides the dates they carry.
 */

export type CommentPlace = { kind: "post"; hub: string; title: string } | { kind: "chapter"; series: string; number: number };

export interface PlannedComment {
  /** Its index in `comments`. */
  key: number;
  place: CommentPlace;
  author: string;
  content: string;
  /** The comment answered (a top-level comment or a reply of its thread); null: a top-level comment. */
  answers: number | null;
  at: number;
  likers: string[];
  /** Deleted by its author at this time (a top-level comment with replies: a tombstone). */
  deletedAt?: number;
}

export interface DiscussionPlan {
  /** Oldest first: a comment comes after the one it answers. */
  comments: PlannedComment[];
  /** Each member has read every notification made up to this time (when they last looked), none after it. */
  readUntil: Map<string, number>;
}

/** How many of the demo login's newest notifications are left unread, so the bell shows a count. */
export const DEMO_UNREAD = 7;

const MINUTE = 60_000;
const MENTION_AT_START = /^@([A-Za-z0-9_]+)/;
const MENTION = /(?<![A-Za-z0-9_])@([A-Za-z0-9_]+)/g;

export function buildDiscussionPlan(plan: DemoPlan): DiscussionPlan {
  const rnd = new Random("demo-discussion");
  const { now } = plan;
  const recent = now - HOUR;
  const joined = new Map(plan.users.map((u) => [u.username, u.joinedAt]));
  const known = (username: string) => {
    if (!joined.has(username)) throw new Error(`A demo comment names an unknown user: ${username}`);
    return username;
  };
  const everyone = plan.users.map((u) => u.username);
  const placeOf = placeFinder(plan);

  const comments: PlannedComment[] = [];
  for (const discussion of [...POST_DISCUSSIONS, ...CHAPTER_DISCUSSIONS]) {
    const { place, date } = placeOf(discussion);
    // Most comments come in the first days after a post or chapter, a few much later; threads start in the order the
    // content lists them (a follow-up like "Update: ..." comes after what it follows).
    const starts = discussion.threads.map(() => date + 10 * MINUTE + Math.pow(rnd.next(), 3) * (recent - date)).sort((a, b) => a - b);
    for (const [i, thread] of discussion.threads.entries()) {
      // Someone who joined after the post comments in their first days here.
      const first = Math.max(starts[i]!, joined.get(known(thread.author))! + HOUR + rnd.next() * 3 * DAY);
      const top = add(place, thread.author, thread.text, null, Math.min(first, recent - 30 * MINUTE));
      const inThread = [top];
      let last = top.at;
      for (const reply of thread.replies) {
        const named = MENTION_AT_START.exec(reply.text)?.[1]?.toLowerCase();
        const answered = [...inThread].reverse().find((c) => c.author.toLowerCase() === named) ?? top;
        const from = Math.max(last + 5 * MINUTE, joined.get(known(reply.author))! + HOUR);
        const at = from < recent ? from + Math.pow(rnd.next(), 3) * 0.3 * (recent - from) : last + (now - last) / 2;
        const added = add(place, reply.author, reply.text, answered.key, at);
        inThread.push(added);
        last = at;
      }
      if (thread.deleted) top.deletedAt = Math.round(last + (now - last) * rnd.range(0.2, 0.6));
    }
  }

  function add(place: CommentPlace, author: string, content: string, answers: number | null, at: number): PlannedComment {
    for (const [, name] of content.matchAll(MENTION)) known(everyone.find((u) => u.toLowerCase() === name!.toLowerCase()) ?? name!);
    // Likes are skewed: most comments get a few, some a dozen; top-level ones more than replies.
    const count = answers === null ? rnd.skewed(12, 0.9) + rnd.int(0, 2) : rnd.skewed(5, 1.3);
    const likers = rnd.sample(
      everyone.filter((u) => u !== author),
      count,
    );
    const comment: PlannedComment = { key: comments.length, place, author, content, answers, at: Math.round(at), likers };
    comments.push(comment);
    return comment;
  }

  const ordered = [...comments].sort((a, b) => a.at - b.at || a.key - b.key);
  const rekey = new Map(ordered.map((c, i) => [c.key, i]));
  const sorted = ordered.map((c) => ({ ...c, key: rekey.get(c.key)!, answers: c.answers === null ? null : rekey.get(c.answers)! }));
  return { comments: sorted, readUntil: readUntil(plan, sorted, rnd) };
}

/** Finds the post or chapter a discussion is about, with its date; unknown ones are a content error. */
function placeFinder(plan: DemoPlan) {
  const posts = new Map(plan.hubs.flatMap((h) => h.posts.map((p) => [p.title, { hub: h.name, date: p.date }] as const)));
  return (discussion: DemoDiscussion): { place: CommentPlace; date: number } => {
    if ("post" in discussion) {
      const post = posts.get(discussion.post);
      if (!post) throw new Error(`Demo comments name an unknown post: ${discussion.post}`);
      return { place: { kind: "post", hub: post.hub, title: discussion.post }, date: post.date };
    }
    const chapter = plan.series.find((s) => s.name === discussion.series)?.chapters.find((c) => c.number === discussion.chapter);
    if (!chapter) throw new Error(`Demo comments name an unknown chapter: ${discussion.series} ${discussion.chapter}`);
    return { place: { kind: "chapter", series: discussion.series, number: discussion.chapter }, date: chapter.date };
  };
}

/**
 * Until when each member has read their notifications: the demo login keeps its DEMO_UNREAD newest unread (the
 * times of what will notify it, worked out from the plan), everyone else last looked one to twenty days ago.
 */
function readUntil(plan: DemoPlan, comments: PlannedComment[], rnd: Random): Map<string, number> {
  const result = new Map<string, number>();
  for (const user of plan.users) result.set(user.username, plan.now - rnd.int(1, 20) * DAY - rnd.int(0, 23) * HOUR);
  const demo = DEMO_USERNAME;
  const owns = (place: CommentPlace) =>
    place.kind === "post"
      ? plan.hubs.some((h) => h.name === place.hub && h.posts.some((p) => p.title === place.title && p.author === demo))
      : plan.series.some((s) => s.name === place.series && s.author === demo);
  const mentions = (text: string) => [...text.matchAll(MENTION)].some(([, name]) => name!.toLowerCase() === demo);
  const times = [
    ...comments
      .filter((c) => c.author !== demo)
      .filter((c) => (c.answers === null ? owns(c.place) : comments[c.answers]!.author === demo) || mentions(c.content))
      .map((c) => c.at),
    ...plan.series.filter((s) => s.author === demo).flatMap((s) => s.followers.map((f) => f.at)),
    ...plan.hubs.filter((h) => h.owner === demo).flatMap((h) => h.members.map((m) => m.at)),
    ...plan.series.flatMap((s) => {
      const since = s.followers.find((f) => f.username === demo)?.at;
      return since === undefined ? [] : s.chapters.filter((c) => c.date >= since).map((c) => c.date);
    }),
  ].sort((a, b) => b - a);
  if (times.length > DEMO_UNREAD) result.set(demo, times[DEMO_UNREAD]!);
  return result;
}
