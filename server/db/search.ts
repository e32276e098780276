/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (ESCAPE '\'). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
