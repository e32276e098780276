/** The shapes of the demo's comment threads (the texts: comments-posts.ts, comments-chapters.ts). */

export interface DemoReply {
  author: string;
  text: string;
}

export interface DemoThread {
  author: string;
  text: string;
  replies: readonly DemoReply[];
  /** Deleted by its author after its replies: it stays as a tombstone. */
  deleted?: true;
}

/** The threads under one post (by title) or one chapter (series and number). */
export type DemoDiscussion =
  { post: string; threads: readonly DemoThread[] } | { series: string; chapter: number; threads: readonly DemoThread[] };

/** A top-level comment and its replies, each `[author, text]`. */
export const thread = (author: string, text: string, ...replies: readonly (readonly [string, string])[]): DemoThread => ({
  author,
  text,
  replies: replies.map(([replyAuthor, replyText]) => ({ author: replyAuthor, text: replyText })),
});

/** The same thread, deleted by its author once the replies were in. */
export const gone = (deleted: DemoThread): DemoThread => ({ ...deleted, deleted: true });
