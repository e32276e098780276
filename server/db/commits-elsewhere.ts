import { sql } from "kysely";
import pg from "pg";
import type { Database } from "./database.ts";

/**
 * The channel on which a process that writes the database outside the API (`npm run admin`) tells a PostgreSQL site's
 * API that it committed. Sent inside the writer's transaction, PostgreSQL delivers it only once that commits.
 */
export const COMMITS_CHANNEL = "inkwell_data_changed";

/** Run in a transaction of a process other than the API: its commit moves every listening API's data version. */
export async function announceCommit(trx: Database["kysely"]): Promise<void> {
  await sql`SELECT pg_notify(${COMMITS_CHANNEL}, '')`.execute(trx);
}

/**
 * A mark that changes whenever another process committed to the API's database (docs/decisions/015-shared-state.md):
 * - SQLite: `PRAGMA data_version` of the API's own connection, which moves on other connections' commits only; one
 *   prepared statement, ~9 µs a call under load (a read transaction and its locks), read at the first version read of
 *   each event-loop turn (server/shared-state.ts, docs/decisions/030-cached-reads-before-routing.md).
 * - PostgreSQL: a count of the notifications on COMMITS_CHANNEL, heard on a connection of its own. It moves too when
 *   that connection is (re)made, since what was announced while it was away is not heard.
 * The PostgreSQL watch holds a connection, so it is made only when asked (`listen`: the API's start, which closes it).
 * Otherwise the mark never moves.
 */
export interface CommitsElsewhere {
  mark(): number;
  close(): Promise<void>;
}

const RECONNECT_MS = 1000;

export function watchCommitsElsewhere(db: Database, { listen = false } = {}): CommitsElsewhere {
  if (db.sqlite) {
    const sqlite = db.sqlite;
    const statement = sqlite.prepare("PRAGMA data_version").pluck();
    return { mark: () => (sqlite.open ? (statement.get() as number) : 0), close: () => Promise.resolve() };
  }
  if (db.url && listen) return listenForCommits(db.url);
  return { mark: () => 0, close: () => Promise.resolve() };
}

function listenForCommits(url: string): CommitsElsewhere {
  let heard = 0;
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
  };
  async function connect() {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", () => heard++);
    // A lost connection: whatever is announced until the next one is made is not heard, so the mark moves then.
    next.on("error", () => {});
    next.on("end", () => {
      if (client === next) client = null;
      again();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${COMMITS_CHANNEL}`);
      if (closed) return void (await next.end().catch(() => {}));
      client = next;
      heard++;
    } catch {
      await next.end().catch(() => {});
      again();
    }
  }
  void connect();
  return {
    mark: () => heard,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
