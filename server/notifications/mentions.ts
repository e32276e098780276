import type { Executor } from "../db/prepared.ts";

/**
 * The ids of the existing users among `usernameKeys` (lower-cased usernames, as `findMentions` answers them), in
 * the order of the keys; on the caller's transaction. Built per call: the list's length varies (at most 10).
 */
export async function mentionedUserIds(on: Executor, usernameKeys: string[]): Promise<number[]> {
  if (usernameKeys.length === 0) return [];
  const rows = await on.selectFrom("User").select(["id", "usernameKey"]).where("usernameKey", "in", usernameKeys).execute();
  const idOf = new Map(rows.map((r) => [r.usernameKey, r.id]));
  return usernameKeys.flatMap((key) => {
    const id = idOf.get(key);
    return id === undefined ? [] : [id];
  });
}
