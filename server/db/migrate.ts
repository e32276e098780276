import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { rewordedMigrations } from "./reworded-migrations.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const POSTGRES_MIGRATIONS = path.join(root, "prisma", "postgres", "migrations");
const SQLITE_MIGRATIONS = path.join(root, "prisma", "migrations");

/** Applies every committed migration of the engine in use: PostgreSQL when `databaseUrl` is set, else SQLite in the data folder. */
export async function migrateDatabase(dataDir: string, databaseUrl?: string): Promise<void> {
  if (databaseUrl) await migratePostgres(databaseUrl);
  else await migrateSqlite(dataDir);
}

/** Creates the data folder and runs `prisma migrate deploy` on its SQLite database. */
async function migrateSqlite(dataDir: string): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  recordRewordedSqliteMigrations(path.join(dataDir, "app.db"));
  const prismaCli = path.join(root, "node_modules", "prisma", "build", "index.js");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, "migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: path.resolve(dataDir), PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`prisma migrate deploy failed (${code}):\n${output}`))));
  });
}

/** Gives reworded migrations (server/db/reworded-migrations.ts) their current checksum in an existing SQLite database. */
function recordRewordedSqliteMigrations(file: string): void {
  if (!fs.existsSync(file)) return;
  const db = new Database(file);
  try {
    const hasHistory = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!hasHistory) return;
    const update = db.prepare('UPDATE "_prisma_migrations" SET checksum = ? WHERE migration_name = ? AND checksum = ?');
    for (const m of rewordedMigrations("sqlite", SQLITE_MIGRATIONS)) update.run(m.current, m.name, m.released);
  } finally {
    db.close();
  }
}

// Any fixed number: instances starting at once take turns, the first migrates, the others find nothing to do.
const MIGRATION_LOCK = 7_140_412;

/**
 * PostgreSQL migrations renamed to the SQLite history's names for the same change (issue 28,
 * docs/decisions/027-matching-migration-names.md): a database that applied them under the old name has its record
 * renamed before the history is read, so nothing runs again. The files are unchanged, so their checksums still match.
 */
export const RENAMED_POSTGRES_MIGRATIONS: Readonly<Record<string, string>> = {
  "20261123000000_init": "20261121000000_init",
  "20261123000001_name_search": "20261122000000_name_search",
};

/**
 * Applies prisma/postgres/migrations in order, each in its own transaction, recording them in Prisma's own
 * `_prisma_migrations` table with Prisma's checksum (SHA-256 of the file), so the history is the one
 * `prisma migrate deploy` keeps. Prisma's own deploy cannot run here: through the pg driver adapter it fails
 * (prisma/orm#27403), and its native engine cannot be downloaded. A migration changed after it was applied
 * stops the start, as Prisma's would.
 */
export async function migratePostgres(url: string, migrations = POSTGRES_MIGRATIONS): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    for (const [was, is] of Object.entries(RENAMED_POSTGRES_MIGRATIONS)) {
      await client.query(`UPDATE "_prisma_migrations" SET migration_name = $2 WHERE migration_name = $1`, [was, is]);
    }
    for (const m of rewordedMigrations("postgres", migrations)) {
      await client.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2 AND checksum = $3`, [
        m.current,
        m.name,
        m.released,
      ]);
    }
    const applied = new Map(
      (
        await client.query<{ migration_name: string; checksum: string }>(
          `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
      ).rows.map((row) => [row.migration_name, row.checksum]),
    );
    const names = fs
      .readdirSync(migrations, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const name of names) {
      const script = fs.readFileSync(path.join(migrations, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(script).digest("hex");
      const done = applied.get(name);
      if (done !== undefined) {
        if (done !== checksum) throw new Error(`The migration ${name} was changed after it was applied to this database.`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(script);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`The migration ${name} failed: ${(err as Error).message}`, { cause: err });
      }
    }
  } finally {
    await client.end();
  }
}
