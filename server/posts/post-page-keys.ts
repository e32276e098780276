import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { prepare } from "../db/prepared.ts";
import type { PostOrder } from "../rules/post.ts";

export type { PostOrder };

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
  // The key of every STEP-th post of the order, up to `limit` posts, in one pass over the order's index (one
  // round trip, instead of one per key).
  const everyStepUpTo = (order: PostOrder) => {
    const key = sql.ref(SORT_KEY[order]);
    return prepare<{ hubId: number; limit: number }, Row>(
      kysely,
      (p) => sql`SELECT "k", "id" FROM (
          SELECT ${key} AS "k", "id", ROW_NUMBER() OVER (ORDER BY ${key} DESC, "id" DESC) AS "rn"
          FROM "Post" WHERE "hubId" = ${p("hubId")} ORDER BY ${key} DESC, "id" DESC LIMIT ${p("limit")}
        ) AS "walk" WHERE "rn" % ${sql.lit(STEP)} = 0 ORDER BY "rn"`,
    );
  };
  const walk = { latest: everyStepUpTo("latest"), "by-likes": everyStepUpTo("by-likes") };

  interface Remembered {
    version: number;
    /** keys[i] = the key of the last post before position (i + 1) * STEP. */
    keys: Key[];
    /** How many posts the longest finished walk covered. */
    walked: number;
    /** The walk in flight: requests of the same order and version wait for it rather than walk again. */
    walking: Promise<void> | null;
  }
  // `${hubId}:${order}` -> what is known of that order at its version.
  const remembered = new Map<string, Remembered>();

  async function keyAt(hubId: number, order: PostOrder, version: number, checkpoint: number): Promise<Key | null> {
    const name = `${hubId}:${order}`;
    let entry = remembered.get(name);
    // Read before a change another request has already seen: no key of that older order is kept.
    if (entry && entry.version > version) return null;
    if (!entry || entry.version < version) {
      remembered.delete(name);
      if (remembered.size >= MAX_REMEMBERED_ORDERS) remembered.delete(remembered.keys().next().value!);
      remembered.set(name, (entry = { version, keys: [], walked: 0, walking: null }));
    }
    const known = entry;
    const needed = checkpoint * STEP;
    while (known.keys.length < checkpoint) {
      if (known.walked >= needed) return null; // past the end
      if (!known.walking) {
        // Twice as deep as before at least, so a reader paging deeper does not walk again for every page.
        const limit = Math.max(needed, known.walked * 2);
        known.walking = walk[order]
          .all({ hubId, limit })
          .then((rows) => {
            if (rows.length > known.keys.length) known.keys = rows.map((row) => [row.k, row.id] as const);
            known.walked = Math.max(known.walked, limit);
          })
          .finally(() => {
            known.walking = null;
          });
      }
      await known.walking;
    }
    return known.keys[checkpoint - 1] ?? null;
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
