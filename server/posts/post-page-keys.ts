import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";

export type PostOrder = "latest" | "by-likes";

/** Each order sorts by its key column, then by id, both descending. */
export const SORT_KEY = { latest: "date", "by-likes": "likes" } as const satisfies Record<PostOrder, string>;

/** Every STEP-th position of a hub's order remembers its sort key. */
const STEP = 100;
const MAX_REMEMBERED_ORDERS = 1000;

type Key = readonly [number, number]; // (date or likes, id) of a post

/** Where a page starts: after this key (if any), skipping `skip` more posts. */
export interface PageStart {
  after: Key | null;
  skip: number;
}

/**
 * Page-to-key translation for deep pages of a hub's posts. OFFSET walks every skipped index entry (page
 * 10,000 of a 200,000-post hub: ~3 ms against ~0.1 ms for page 1 on SQLite); instead we remember the sort key
 * at every 100th position, so a page starts from the nearest key and skips fewer than 100 entries.
 *
 * The keys are found lazily and remembered per (hub, order, version). Each order's version lives in the hub's
 * row (`postOrderVersion`, `likeOrderVersion`), is bumped in the same transaction as every change that moves
 * the order (a new post moves both, a like or unlike "by-likes"), and is read with the page. So a key found
 * before a change is never used after it, whichever instance made the change (docs/decisions/014-data-layer.md).
 */
export function createPostPageKeys({ kysely }: Database) {
  type Row = { k: number; id: number };
  const stepFromStart = (order: PostOrder) => {
    const key = sql.ref(SORT_KEY[order]);
    return prepare<{ hubId: number; skip: number }, Row>(
      kysely,
      (p) =>
        sql`SELECT ${key} AS "k", "id" FROM "Post" WHERE "hubId" = ${p("hubId")} ORDER BY ${key} DESC, "id" DESC LIMIT 1 OFFSET ${p("skip")}`,
    );
  };
  const stepFromKey = (order: PostOrder) => {
    const key = sql.ref(SORT_KEY[order]);
    // Ties on the key first, then the posts below it: two exact index ranges (see posts.queries.ts).
    return prepare<{ hubId: number; k: number; id: number; take: number; skip: number }, Row>(
      kysely,
      (p) => sql`SELECT "k", "id" FROM (
          SELECT * FROM (SELECT ${key} AS "k", "id" FROM "Post" WHERE "hubId" = ${p("hubId")} AND ${key} = ${p("k")} AND "id" < ${p("id")}
                         ORDER BY "id" DESC LIMIT ${p("take")}) AS "tied"
          UNION ALL
          SELECT * FROM (SELECT ${key} AS "k", "id" FROM "Post" WHERE "hubId" = ${p("hubId")} AND ${key} < ${p("k")}
                         ORDER BY ${key} DESC, "id" DESC LIMIT ${p("take")}) AS "below"
        ) AS "ahead" ORDER BY "k" DESC, "id" DESC LIMIT 1 OFFSET ${p("skip")}`,
    );
  };
  const step = {
    fromStart: { latest: stepFromStart("latest"), "by-likes": stepFromStart("by-likes") },
    fromKey: { latest: stepFromKey("latest"), "by-likes": stepFromKey("by-likes") },
  };

  // `${hubId}:${order}` -> the order's version and keys[i] = the key of the last post before position (i + 1) * STEP.
  const remembered = new Map<string, { version: number; keys: Key[] }>();

  async function keyAt(hubId: number, order: PostOrder, version: number, checkpoint: number): Promise<Key | null> {
    const name = `${hubId}:${order}`;
    let entry = remembered.get(name);
    // Read before a change another request has already seen: no key of that older order is kept.
    if (entry && entry.version > version) return null;
    if (!entry || entry.version < version) {
      remembered.delete(name);
      if (remembered.size >= MAX_REMEMBERED_ORDERS) remembered.delete(remembered.keys().next().value!);
      remembered.set(name, (entry = { version, keys: [] }));
    }
    const { keys } = entry;
    while (keys.length < checkpoint) {
      const found = keys.length;
      const last = keys.at(-1);
      const row = last
        ? await step.fromKey[order].first({ hubId, k: last[0], id: last[1], take: STEP, skip: STEP - 1 })
        : await step.fromStart[order].first({ hubId, skip: STEP - 1 });
      if (!row) return null; // past the end
      // Another request of this version may have found the same key meanwhile.
      if (keys.length === found) keys.push([row.k, row.id]);
    }
    return keys[checkpoint - 1] ?? null;
  }

  return {
    /** Where the page at `offset` starts, given the order's version read with the page. */
    async pageStart(hubId: number, order: PostOrder, version: number, offset: number): Promise<PageStart> {
      const checkpoint = Math.floor(offset / STEP);
      if (checkpoint === 0) return { after: null, skip: offset };
      const after = await keyAt(hubId, order, version, checkpoint);
      // Past the end (or an older version): a plain OFFSET, which past the end gives the empty page the contract asks for.
      return after ? { after, skip: offset - checkpoint * STEP } : { after: null, skip: offset };
    },
  };
}

export type PostPageKeys = ReturnType<typeof createPostPageKeys>;
