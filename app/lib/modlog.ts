// How a mod log entry reads on the mod log screens.
import type { ModLogItem } from "../../server/rules/modlog.ts";

const SUBJECT_NOUN: Record<ModLogItem["subject"]["type"], string> = {
  post: "post",
  comment: "comment",
  chapter: "chapter",
  series: "series",
  hub: "hub",
  user: "user",
};

/** "banned", "removed the post", ...: what the moderator did, before the subject's title. */
export function actionPhrase(item: Pick<ModLogItem, "action" | "subject">): string {
  const noun = SUBJECT_NOUN[item.subject.type];
  switch (item.action) {
    case "banned":
      return "banned";
    case "unbanned":
      return "lifted the ban of";
    case "suspended":
      return "suspended";
    case "unsuspended":
      return "lifted the suspension of";
    case "moderator-added":
      return "made a moderator:";
    case "moderator-removed":
      return "removed as a moderator:";
    case "removed":
      return `removed the ${noun}`;
    case "restored":
      return `restored the ${noun}`;
    case "report-dismissed":
      return `dismissed the reports on the ${noun}`;
    default:
      return `${item.action} (${noun})`;
  }
}

/** A day count from a form: "" is no end; otherwise a whole number (the API checks its range). */
export function daysFromForm(value: string): number | null | "invalid" {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  if (!/^[0-9]{1,5}$/.test(trimmed)) return "invalid";
  return Number(trimmed);
}
