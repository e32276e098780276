// The notifications screen's words: one plain sentence per notification (docs/api.md §11).
import type { Notification } from "../../server/rules/api-responses.ts";

/** What happened, in a sentence: "alice replied to your comment on “Title”", "New chapter: Series – Chapter 3: Title". */
export function notificationSentence(n: Pick<Notification, "kind" | "actor" | "subject">): string {
  const who = n.actor?.username ?? "Someone";
  const title = `“${n.subject.title}”`;
  switch (n.kind) {
    case "reply":
      return `${who} replied to your comment on ${title}`;
    case "comment":
      return `${who} commented on ${title}`;
    case "mention":
      return n.subject.type === "comment" ? `${who} mentioned you in a comment on ${title}` : `${who} mentioned you in ${title}`;
    case "chapter":
      return `New chapter: ${n.subject.title}`;
    case "follow":
      return `${who} followed ${n.subject.title}`;
    case "join":
      return `${who} joined ${n.subject.title}`;
  }
}
