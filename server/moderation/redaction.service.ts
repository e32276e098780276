import type { Database } from "../db/database.ts";
import { maySeeRemoved, type Actor } from "../rules/permissions.ts";
import type { Removed } from "../rules/removal.ts";
import type { Page } from "../rules/api-responses.ts";
import { redactionQueries as q } from "./redaction.queries.ts";

/** Anything answered with `removed` and an author (a chapter's is its series' author: chapter.authorId). */
interface Removable {
  id: number;
  removed: Removed;
}
type Viewer = Actor | null | undefined;

// What a removed thing shows to everyone but its author and those who may restore it: its place, its counts, its
// name (hubs and series: the name is their address), `removed`, and no content (docs/api.md "Removal").
const blankPost = <T extends { title: string; description: string }>(post: T): T => ({
  ...post,
  title: "",
  description: "",
  ...("content" in post ? { content: "" } : {}),
});
const blankComment = <T extends { content: string }>(comment: T): T => ({ ...comment, content: "" });
const blankChapter = <T extends { title: string; description: string; coverId: number | null }>(chapter: T): T => ({
  ...chapter,
  title: "",
  description: "",
  coverId: null,
  ...("content" in chapter ? { content: "" } : {}),
  ...("pages" in chapter ? { pages: [] } : {}),
});
// A hub's or series' card also names what is inside it: its latest post's title, its latest chapter's title and cover.
const blankNamed = <T extends { description: string; profileImageId: number | null; profileBannerId: number | null }>(named: T): T => ({
  ...named,
  description: "",
  profileImageId: null,
  profileBannerId: null,
  ...("latestPost" in named && named.latestPost ? { latestPost: { ...named.latestPost, title: "" } } : {}),
  ...("latestChapter" in named && named.latestChapter ? { latestChapter: { ...named.latestChapter, title: "", coverId: null } } : {}),
});

/**
 * Leaves the content of removed things out of answers (docs/api.md "Removal"). Lists keep every item in its place. Guests,
 * authors and admins cost nothing more; a signed-in viewer who may moderate some of a page's removed posts or
 * comments costs one query for the whole page, made only when the page holds removed items by someone else.
 */
export function createRedaction({ kysely }: Database) {
  // The ids among `ids` whose hub (or, for comments on chapters, series) the viewer moderates.
  const moderated = {
    post: (viewerId: number, ids: number[]) => q.postsModeratedBy(kysely, viewerId, ids),
    comment: (viewerId: number, ids: number[]) => q.commentsModeratedBy(kysely, viewerId, ids),
  };

  /**
   * The items, those the viewer may not see blanked (maySeeRemoved); `moderates` finds which of the rest the viewer
   * moderates, asked only when some removed item is still hidden without it.
   */
  async function redact<T extends Removable>(
    items: T[],
    viewer: Viewer,
    authorOf: (item: T) => number | null,
    blank: (item: T) => T,
    moderates?: (viewerId: number, ids: number[]) => Promise<{ id: number }[]>,
  ): Promise<T[]> {
    const hidden = items.filter(
      (item) => item.removed !== null && !maySeeRemoved(viewer, { authorId: authorOf(item), viewerModerates: false }),
    );
    if (hidden.length === 0) return items;
    const seen = new Set<number>();
    if (viewer != null && moderates)
      for (const { id } of await moderates(
        viewer.id,
        hidden.map((item) => item.id),
      ))
        seen.add(Number(id));
    const blanked = new Set(
      hidden.filter((item) => !maySeeRemoved(viewer, { authorId: authorOf(item), viewerModerates: seen.has(item.id) })),
    );
    return items.map((item) => (blanked.has(item) ? blank(item) : item));
  }

  const posts = <T extends Removable & { authorId: number; title: string; description: string }>(items: T[], viewer: Viewer) =>
    redact(items, viewer, (p) => p.authorId, blankPost, moderated.post);
  const comments = <T extends Removable & { authorId: number | null; content: string }>(items: T[], viewer: Viewer) =>
    redact(items, viewer, (c) => c.authorId, blankComment, moderated.comment);
  const chapters = <T extends Removable & { authorId: number; title: string; description: string; coverId: number | null }>(
    items: T[],
    viewer: Viewer,
  ) => redact(items, viewer, (c) => c.authorId, blankChapter);
  type Named = Removable & { description: string; profileImageId: number | null; profileBannerId: number | null };
  const series = <T extends Named & { author: number }>(items: T[], viewer: Viewer) => redact(items, viewer, (s) => s.author, blankNamed);
  const hubs = <T extends Named & { authorId: number }>(items: T[], viewer: Viewer) => redact(items, viewer, (h) => h.authorId, blankNamed);

  const one =
    <A extends unknown[], T>(many: (items: T[], ...rest: A) => Promise<T[]>) =>
    async (item: T, ...rest: A): Promise<T> =>
      (await many([item], ...rest))[0]!;
  const paged =
    <A extends unknown[], T>(many: (items: T[], ...rest: A) => Promise<T[]>) =>
    async <P extends Page<T>>(page: P, ...rest: A): Promise<P> => ({ ...page, content: await many(page.content, ...rest) });

  return {
    posts,
    post: one(posts),
    postPage: paged(posts),
    comment: one(comments),
    commentPage: paged(comments),
    chapter: one(chapters),
    chapterPage: paged(chapters),
    series,
    oneSeries: one(series),
    seriesPage: paged(series),
    hubs,
    hub: one(hubs),
    hubPage: paged(hubs),
    /** The following feed: its posts and chapters, each kind in one pass. */
    async feed<P extends Page<{ type: string; post?: unknown; chapter?: unknown }>>(page: P, viewer: Viewer): Promise<P> {
      type PostItem = Parameters<typeof posts>[0][number];
      type ChapterItem = Parameters<typeof chapters>[0][number];
      const postItems = page.content.flatMap((i) => (i.post ? [i.post as PostItem] : []));
      const chapterItems = page.content.flatMap((i) => (i.chapter ? [i.chapter as ChapterItem] : []));
      const shownPosts = new Map((await posts(postItems, viewer)).map((p, i) => [postItems[i], p]));
      const shownChapters = new Map((await chapters(chapterItems, viewer)).map((c, i) => [chapterItems[i], c]));
      return {
        ...page,
        content: page.content.map((i) =>
          i.post
            ? { ...i, post: shownPosts.get(i.post as PostItem) }
            : i.chapter
              ? { ...i, chapter: shownChapters.get(i.chapter as ChapterItem) }
              : i,
        ),
      };
    },
  };
}

export type Redaction = ReturnType<typeof createRedaction>;
