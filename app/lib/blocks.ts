/** The page query that shows what the viewer's blocks hide (the API's `includeBlocked=true`): `?showBlocked=1`. */
export const SHOW_BLOCKED_PARAM = "showBlocked";

/** "2 posts hidden from people you blocked." (`nouns`: the plural, where it is not `noun` + "s"). */
export function hiddenLine(hidden: number, noun: string, nouns = `${noun}s`): string {
  return `${hidden} ${hidden === 1 ? noun : nouns} hidden from people you blocked.`;
}
