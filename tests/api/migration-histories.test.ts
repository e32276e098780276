// Each engine's migration history, applied to an empty database, builds what its schema.prisma says (issue 28 item 3):
// `prisma migrate diff --from-migrations ... --to-schema-datamodel ... --exit-code` with a shadow database, through the
// configs of prisma/diff/ (they work around two faults of Prisma 6.19's driver adapters; prisma/postgres/README.md).
// Its script must hold only the drops of what the migrations write by hand and the schema language cannot say.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import Database from "better-sqlite3";
import { migrateDatabase, migratePostgres, RENAMED_POSTGRES_MIGRATIONS } from "../../server/db/migrate.ts";
import { migrationChecksum, rewordedMigrations } from "../../server/db/reworded-migrations.ts";
import { freshTestStore, testEngine, type TestStore } from "../helpers/test-data-dir.ts";

const HISTORIES = {
  sqlite: { config: "prisma/diff/sqlite.config.ts", migrations: "prisma/migrations", schema: "prisma/schema.prisma" },
  postgres: { config: "prisma/diff/postgres.config.ts", migrations: "prisma/postgres/migrations", schema: "prisma/postgres/schema.prisma" },
};

// What each history writes by hand (so Prisma, not knowing it, would drop it). Triggers and functions Prisma does not
// read; the partial unique index on Report (one open report per reporter and subject) it does not see either.
const HAND_WRITTEN = {
  sqlite: [
    // 20261123100000_name_walk_index: the newest-first walk of a broad name search reads the index alone.
    'DROP INDEX "Hub_createdAt_id_nameKey_idx";',
    'DROP INDEX "Series_createdAt_id_nameKey_idx";',
    // 20261122000000_name_search: the FTS5 trigram tables, and the tables FTS5 makes for each.
    ...["Hub", "Series"].flatMap((table) =>
      ["", "_config", "_data", "_docsize", "_idx"].map((part) => `DROP TABLE "${table}NameSearch${part}";`),
    ),
  ],
  // 20261128100000_name_suffixes: the B-trees of the names' suffixes.
  postgres: ['DROP TABLE "HubNameSuffix";', 'DROP TABLE "SeriesNameSuffix";'],
};

const run = promisify(execFile);
const PRISMA = path.resolve("node_modules/prisma/build/index.js");

/** The statements of `prisma migrate diff` from a migrations folder to the engine's schema (comments and PRAGMAs left out). */
async function diffStatements(migrations: string): Promise<string[]> {
  const history = HISTORIES[testEngine];
  const args = [PRISMA, "migrate", "diff", "--config", history.config, "--from-migrations", migrations];
  args.push("--to-schema-datamodel", history.schema, "--script", "--exit-code");
  const env = {
    ...process.env,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    DATABASE_URL: testEngine === "postgres" ? inject("postgresServerUrl") : "",
  };
  let stdout: string;
  try {
    stdout = (await run(process.execPath, args, { env, maxBuffer: 16 << 20 })).stdout;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    // --exit-code: 2 when the script is not empty, 1 on an error.
    if (failed.code !== 2) throw new Error(`prisma migrate diff failed (${failed.code}):\n${failed.stdout}${failed.stderr}`);
    stdout = failed.stdout!;
  }
  return stdout
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^--.*$/gm, "").trim())
    .filter((statement) => statement !== "" && !/^PRAGMA foreign_keys=(on|off)$/.test(statement))
    .map((statement) => `${statement};`);
}

const folders = (dir: string) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

describe(`the ${testEngine} migration history`, () => {
  const temp: string[] = [];
  const tempCopy = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-migrations-"));
    temp.push(dir);
    return dir;
  };
  afterAll(() => temp.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it("rebuilds its schema.prisma, but for what it writes by hand", async () => {
    expect((await diffStatements(HISTORIES[testEngine].migrations)).sort()).toEqual([...HAND_WRITTEN[testEngine]].sort());
  }, 120_000);

  it("fails the check when a migration misses a change", async () => {
    const copy = tempCopy();
    fs.cpSync(HISTORIES[testEngine].migrations, copy, { recursive: true });
    const last = folders(copy).at(-1)!;
    fs.appendFileSync(path.join(copy, last, "migration.sql"), '\nALTER TABLE "Hub" ADD COLUMN "unplanned" INTEGER;\n');

    // SQLite drops a column by copying the table without it; PostgreSQL drops it.
    const statements = await diffStatements(copy);
    expect(statements.sort()).not.toEqual([...HAND_WRITTEN[testEngine]].sort());
    expect(statements.filter((statement) => !HAND_WRITTEN[testEngine].includes(statement)).join("\n")).toMatch(/"(new_)?Hub"/);
  }, 120_000);

  it("has the other history's name for every change both made", () => {
    const sqlite = folders(HISTORIES.sqlite.migrations);
    const postgres = folders(HISTORIES.postgres.migrations);
    const change = (name: string) => name.replace(/^\d+_/, "");
    const shared = sqlite.filter((name) => postgres.some((other) => change(other) === change(name)));
    expect(shared.length).toBeGreaterThan(15);
    for (const name of shared) expect(postgres).toContain(name);
  });
});

// Sites migrated by earlier releases: before the PostgreSQL folders took the SQLite names, and before the comments of
// some migrations were reworded (docs/decisions/027-schema-copies-checked.md, server/db/reworded-migrations.ts).
describe(`a ${testEngine} database migrated by an earlier release`, () => {
  let store: TestStore;
  let old: string | undefined;

  beforeAll(async () => {
    store = await freshTestStore();
    if (testEngine === "postgres") {
      // An empty database of its own: the store's copy of the template is already migrated.
      await onPostgres((client) => client.query(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`));
      // The history as it was named before (the files did not change, only two folders' names).
      old = fs.mkdtempSync(path.join(os.tmpdir(), "inkwell-old-migrations-"));
      for (const name of folders(HISTORIES.postgres.migrations)) {
        const was = Object.entries(RENAMED_POSTGRES_MIGRATIONS).find(([, is]) => is === name)?.[0] ?? name;
        fs.cpSync(path.join(HISTORIES.postgres.migrations, name), path.join(old, was), { recursive: true });
      }
      await migratePostgres(store.databaseUrl!, old);
    } else {
      await migrateDatabase(store.dataDir);
    }
    // The checksums of the wording those releases had.
    for (const m of rewordedMigrations(testEngine, HISTORIES[testEngine].migrations)) {
      await execute(`UPDATE "_prisma_migrations" SET checksum = '${m.released}' WHERE migration_name = '${m.name}'`);
    }
  }, 60_000);

  afterAll(async () => {
    await store?.remove();
    if (old) fs.rmSync(old, { recursive: true, force: true });
  });

  async function onPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: store.databaseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  async function execute(sql: string): Promise<void> {
    if (testEngine === "postgres") return void (await onPostgres((client) => client.query(sql)));
    const db = new Database(path.join(store.dataDir, "app.db"));
    db.exec(sql);
    db.close();
  }

  async function applied(): Promise<{ id: string; migration_name: string; checksum: string }[]> {
    const sql = `SELECT id, migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`;
    if (testEngine === "postgres") return onPostgres(async (client) => (await client.query(sql)).rows);
    const db = new Database(path.join(store.dataDir, "app.db"), { readonly: true });
    try {
      return db.prepare(sql).all() as { id: string; migration_name: string; checksum: string }[];
    } finally {
      db.close();
    }
  }

  const migrate = () => (testEngine === "postgres" ? migratePostgres(store.databaseUrl!) : migrateDatabase(store.dataDir));

  it("takes today's names and checksums without running anything again, every time", async () => {
    const before = await applied();
    const reworded = rewordedMigrations(testEngine, HISTORIES[testEngine].migrations);
    expect(reworded.length).toBeGreaterThan(5);
    for (const m of reworded) expect(before.find((row) => row.migration_name === m.name)?.checksum).toBe(m.released);
    if (testEngine === "postgres") {
      expect(before.map((row) => row.migration_name)).toEqual(expect.arrayContaining(Object.keys(RENAMED_POSTGRES_MIGRATIONS)));
    }

    // A migration run again would fail (its CREATE TABLE finds the table) or add a row.
    await migrate();
    await migrate();

    const after = await applied();
    expect(after.map((row) => row.migration_name)).toEqual(folders(HISTORIES[testEngine].migrations));
    expect(after.map((row) => row.id).sort()).toEqual(before.map((row) => row.id).sort());
    for (const row of after) {
      expect(row.checksum).toBe(migrationChecksum(path.join(HISTORIES[testEngine].migrations, row.migration_name, "migration.sql")));
    }
  }, 120_000);
});
