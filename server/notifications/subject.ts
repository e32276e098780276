import type { Notification } from "../rules/api-responses.ts";
import type { NotificationRow } from "./notifications.queries.ts";

/** The columns of a notification row its subject is made of (the list's rows, and notification mail's). */
export type SubjectColumns = Pick<
  NotificationRow,
  | "kind"
  | "commentId"
  | "postId"
  | "postTitle"
  | "postHubName"
  | "chapterId"
  | "chapterNumber"
  | "chapterTitle"
  | "chapterSeriesName"
  | "seriesId"
  | "seriesName"
  | "hubId"
  | "hubName"
>;

const enc = encodeURIComponent;
/** A chapter named with its series, as a notification shows it on its own: "Moon Tide – Chapter 3: The Fall". */
const chapterTitle = (row: SubjectColumns) =>
  `${row.chapterSeriesName ?? ""} – Chapter ${row.chapterNumber ?? "?"}: ${row.chapterTitle ?? ""}`;
const postPath = (row: SubjectColumns) => `/hubs/${enc(row.postHubName ?? "")}/${row.postId}`;
const chapterPath = (row: SubjectColumns) => `/series/${enc(row.chapterSeriesName ?? "")}/${row.chapterNumber}`;

/** What a notification is about, and the web path that opens it (docs/api.md §11); digest mails link to it too. */
export function subjectOf(row: SubjectColumns): Notification["subject"] {
  switch (row.kind) {
    case "chapter":
      return { type: "chapter", id: row.chapterId!, title: chapterTitle(row), url: chapterPath(row) };
    case "follow":
      return { type: "series", id: row.seriesId!, title: row.seriesName ?? "", url: `/series/${enc(row.seriesName ?? "")}` };
    case "join":
      return { type: "hub", id: row.hubId!, title: row.hubName ?? "", url: `/hubs/${enc(row.hubName ?? "")}` };
    default: {
      // reply, comment, mention: about a comment, on a post or a chapter; a mention in a post itself has no comment.
      const onPost = row.postId !== null;
      const title = onPost ? (row.postTitle ?? "") : chapterTitle(row);
      const where = onPost ? postPath(row) : chapterPath(row);
      if (row.commentId === null) return { type: "post", id: row.postId!, title, url: where };
      return { type: "comment", id: row.commentId, title, url: `${where}#comment-${row.commentId}` };
    }
  }
}
