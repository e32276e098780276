/** The page query that shows what the viewer's blocks hide (the API's `includeBlocked=true`): `?showBlocked=1`. */
export const SHOW_BLOCKED_PARAM = "showBlocked";

/** "2 posts hidden from people you blocked". */
export function hiddenLine(hidden: number, noun: string): string {
  return `${hidden} ${noun}${hidden === 1 ? "" : "s"} hidden from people you blocked.`;
}
