// A second instance of the site's database in its own process, for tests/api/data-layer.test.ts: it opens the
// database named in its argument, says "ready", and on "go" (a line on stdin) runs its toggles all at once and
// prints their answers as JSON. Its own process, as a second server would be: on SQLite, a second connection
// in the test's process would make better-sqlite3 wait for the lock with the whole event loop stopped.
import readline from "node:readline";
import { createCountedToggle, type CountedToggleSpec } from "../../server/db/counted-toggle.ts";
import { openDatabase } from "../../server/db/database.ts";

export interface ToggleInstanceJob {
  dataDir: string;
  databaseUrl?: string;
  spec: CountedToggleSpec;
  calls: { userId: number; targetId: number; on: boolean }[];
}

const job = JSON.parse(process.argv[2]!) as ToggleInstanceJob;
const db = await openDatabase(job.dataDir, job.databaseUrl);
const toggle = createCountedToggle(db, job.spec);
const lines = readline.createInterface({ input: process.stdin });
process.stdout.write("ready\n");
for await (const line of lines) if (line === "go") break;
lines.close();
const answers = await Promise.allSettled(
  job.calls.map(({ userId, targetId, on }) => db.kysely.transaction().execute((trx) => toggle(trx, userId, targetId, on))),
);
await db.close();
process.stdout.write(
  `${JSON.stringify(answers.map((a) => (a.status === "fulfilled" ? { count: a.value } : { error: String(a.reason) })))}\n`,
);
