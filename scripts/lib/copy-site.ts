// Copies a SQLite site (its database and image files) into PostgreSQL and an S3 bucket: `npm run copy-site`.
import fs from "node:fs/promises";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { databaseFile } from "../../server/db/database.ts";
import { migratePostgres } from "../../server/db/migrate.ts";
import type { DB } from "../../server/db/schema.ts";
import { BucketImageFiles } from "../../server/images/bucket-storage.ts";
import { CONTENT_TYPES, extensionOf, formatOf, type ImageFormat } from "../../server/images/image-formats.ts";
import { s3ObjectStore, type S3Settings } from "../../server/images/s3-storage.ts";

/** Every table of the site, parents before the rows that reference them (User.profileImageId has no foreign key). */
export const COPIED_TABLES = [
  "User",
  "Image",
  "Hub",
  "Post",
  "Series",
  "SeriesTag",
  "Chapter",
  "ChapterPage",
  "Membership",
  "Follow",
  "PostLike",
  "ChapterLike",
  "RevokedToken",
  "TotpFactor",
  "RecoveryCode",
  "LoginChallenge",
  "EmailVerification",
  "PasswordResetToken",
  "Passkey",
  "PasskeyChallenge",
  "EmailPreference",
  "OutgoingMail",
  "Comment",
  "CommentLike",
  "Notification",
  "NotificationDigest",
  "DigestRun",
  "Job",
  "HubModerator",
  "ModLogEntry",
  "HubBan",
  "ImageUse",
  "ImageRelease",
  "Block",
  "Report",
  "ReadingProgress",
  "ChapterRead",
] as const satisfies readonly (keyof DB)[];

/**
 * Not copied: Prisma's history (the target keeps its own), SQLite's FTS5 name indexes with their shadow tables, and
 * the row and tag counts, which the target's triggers count as the rows arrive.
 */
const NOT_COPIED = /^(_prisma_migrations|sqlite_.*|(Hub|Series)NameSearch(_.*)?|RowCount|SeriesTag(Pair)?Count)$/;

/** The target's tables its triggers fill as the rows arrive, vacuumed with the copied ones (their searches read the index alone). */
const FILLED_BY_TRIGGERS = ["HubNameSuffix", "SeriesNameSuffix"];

export interface CopySiteOptions {
  /** The SQLite site's data folder (app.db and images/). */
  fromDir: string;
  databaseUrl: string;
  s3: S3Settings;
  /** Rows per INSERT. */
  batchRows?: number;
  /** Image uploads in flight at once. */
  imageConcurrency?: number;
  log?: (line: string) => void;
}

export interface CopySiteResult {
  rows: Record<string, number>;
  originals: number;
  renditions: number;
  /** Image rows whose original file was not in the data folder (their pages will not show them). */
  missingOriginals: number[];
  seconds: number;
}

/** The target already holds a site: nothing was written (apart from migrations, which a non-empty target already has). */
export class TargetNotEmptyError extends Error {}

/** The SQLite database lacks tables of this version (an older Inkwell wrote it): nothing was written anywhere. */
export class SourceNotMigratedError extends Error {}

/** "Block", "HubBan and Block", "HubBan, Block and Report". */
const listed = (names: string[]) => (names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`);

/**
 * Migrates the PostgreSQL target, refuses it when any table has rows, then copies every table in one transaction
 * (ids kept) while the images are uploaded, and moves each id sequence past the copied ids. The transaction commits
 * only once every image is in the bucket, so no committed row names an object that is not there.
 */
export async function copySite(options: CopySiteOptions): Promise<CopySiteResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const file = databaseFile(options.fromDir);
  await fs.access(file).catch(() => {
    throw new Error(`No SQLite database at ${file}`);
  });
  const source = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const tables = source
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    // Checked before the target is touched (not even migrated): a table missing here would otherwise fail half way.
    const missing = COPIED_TABLES.filter((name) => !tables.includes(name));
    if (missing.length > 0)
      throw new SourceNotMigratedError(
        `The SQLite database has no ${listed(missing)} ${missing.length === 1 ? "table" : "tables"}: an older version of Inkwell wrote it. Start the site on it once (npm start migrates it), then copy it.`,
      );
    const extra = tables.filter((name) => !NOT_COPIED.test(name) && !(COPIED_TABLES as readonly string[]).includes(name));
    if (extra.length > 0) throw new Error(`The SQLite database has tables this copy does not know: ${extra.join(", ")}`);

    log("Migrating the PostgreSQL database...");
    await migratePostgres(options.databaseUrl);
    const target = new pg.Client({ connectionString: options.databaseUrl });
    await target.connect();
    try {
      const filled = await filledTables(target);
      if (filled.length > 0)
        throw new TargetNotEmptyError(
          `The target database already has rows (in ${filled.join(", ")}): copy-site only fills an empty database. Nothing was copied.`,
        );
      // Reads its rows from SQLite before the tables' copy starts (one statement at a time on the connection).
      const images = copyImages(source, options, log);
      images.catch(() => {}); // awaited before the commit
      const rows = await copyTables(source, target, options.batchRows ?? 5_000, log, images);
      return { rows, ...(await images), seconds: (performance.now() - started) / 1000 };
    } finally {
      await target.end();
    }
  } finally {
    source.close();
  }
}

async function filledTables(target: pg.Client): Promise<string[]> {
  const filled: string[] = [];
  for (const table of COPIED_TABLES) {
    const { rowCount } = await target.query(`SELECT 1 FROM "${table}" LIMIT 1`);
    if (rowCount) filled.push(table);
  }
  return filled;
}

async function copyTables(
  source: BetterSqlite3.Database,
  target: pg.Client,
  batchRows: number,
  log: (line: string) => void,
  beforeCommit: Promise<unknown>,
) {
  const rows: Record<string, number> = {};
  await target.query("BEGIN");
  try {
    // One transaction: a failed copy leaves the target empty, and its commit is flushed once.
    await target.query("SET LOCAL synchronous_commit = off");
    for (const table of COPIED_TABLES) {
      const t = performance.now();
      rows[table] = await copyTable(source, target, table, batchRows);
      log(`  ${table.padEnd(12)} ${String(rows[table]).padStart(9)} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const serials = await target.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'id' AND column_default LIKE 'nextval(%'`,
    );
    // AUTOINCREMENT never gives an id twice, not even a deleted row's: SQLite keeps the largest given in sqlite_sequence.
    const hasSequences = source.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
    const given = new Map(
      hasSequences
        ? source
            .prepare<[], { name: string; seq: number }>("SELECT name, seq FROM sqlite_sequence")
            .all()
            .map((row) => [row.name, row.seq])
        : [],
    );
    for (const { table_name: table } of serials.rows) {
      // The next id is one past the largest copied or given one (1 when there is none).
      await target.query(
        `SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST(COALESCE((SELECT MAX("id") FROM "${table}"), 0), $2) + 1, false)`,
        [`"${table}"`, given.get(table) ?? 0],
      );
    }
    await beforeCommit;
    await target.query("COMMIT");
  } catch (err) {
    await target.query("ROLLBACK").catch(() => {});
    throw err;
  }
  // Statistics for the planner and the visibility map for index-only scans now, not when autovacuum comes by.
  const t = performance.now();
  for (const table of [...COPIED_TABLES, ...FILLED_BY_TRIGGERS]) await target.query(`VACUUM (ANALYZE) "${table}"`);
  log(`  vacuumed and analyzed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return rows;
}

/**
 * Reads the table in row order and sends it in batches of `batchRows`, each one INSERT of a JSON array
 * (json_populate_recordset converts every column to the target's type, one parameter whatever the row count).
 * The next batch is read from SQLite while PostgreSQL inserts the previous one.
 */
async function copyTable(source: BetterSqlite3.Database, target: pg.Client, table: string, batchRows: number): Promise<number> {
  const sourceColumns = source.pragma(`table_info("${table}")`) as { name: string }[];
  const targetColumns = new Set(
    (
      await target.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
        [table],
      )
    ).rows.map((c) => c.column_name),
  );
  const missing = sourceColumns.filter((c) => !targetColumns.has(c.name)).map((c) => c.name);
  if (missing.length > 0) throw new Error(`${table}: the target has no column ${missing.join(", ")} (migrations differ)`);
  const columns = sourceColumns.map((c) => `"${c.name}"`).join(", ");
  const insert = `INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::"${table}", $1)`;
  const hasRowid = source.prepare(`SELECT 1 FROM sqlite_master WHERE name = ? AND sql LIKE '%WITHOUT ROWID%'`).get(table) === undefined;
  const select = source.prepare(`SELECT ${columns} FROM "${table}"${hasRowid ? " ORDER BY rowid" : ""}`);

  let count = 0;
  let pending: Promise<unknown> | undefined;
  let batch: unknown[] = [];
  for (const row of select.iterate()) {
    batch.push(row);
    if (batch.length < batchRows) continue;
    const json = JSON.stringify(batch);
    await pending;
    pending = target.query(insert, [json]);
    count += batch.length;
    batch = [];
  }
  await pending;
  if (batch.length > 0) {
    await target.query(insert, [JSON.stringify(batch)]);
    count += batch.length;
  }
  return count;
}

interface ImageRow {
  id: number;
  fileKey: string | null;
  contentType: string;
}

/**
 * Each image row's original, from DATA_DIR/images/originals/{id}.{ext} to the name the bucket storage reads
 * (BucketImageFiles.objectName), and any renditions kept in images/w{width}/, `imageConcurrency` at a time.
 */
async function copyImages(source: BetterSqlite3.Database, options: CopySiteOptions, log: (line: string) => void) {
  const images = source.prepare<[], ImageRow>(`SELECT "id", "fileKey", "contentType" FROM "Image" ORDER BY "id"`).all();
  const byId = new Map(images.map((image) => [image.id, { ...image, format: formatOf(image.contentType) }]));
  const root = path.join(options.fromDir, "images");
  const widths = (await fs.readdir(root, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory() && /^w\d+$/.test(entry.name))
    .map((entry) => Number(entry.name.slice(1)));

  const jobs: { file: string; name: string; format: ImageFormat; original: boolean; id: number }[] = [];
  for (const image of byId.values()) {
    const file = path.join(root, "originals", `${image.id}.${extensionOf(image.format)}`);
    jobs.push({ file, name: BucketImageFiles.objectName(image), format: image.format, original: true, id: image.id });
  }
  for (const width of widths) {
    for (const entry of await fs.readdir(path.join(root, `w${width}`))) {
      const image = byId.get(Number(entry.split(".")[0]));
      if (!image || entry !== `${image.id}.${extensionOf(image.format)}`) continue; // a leftover without its row
      jobs.push({
        file: path.join(root, `w${width}`, entry),
        name: BucketImageFiles.objectName(image, width),
        format: image.format,
        original: false,
        id: image.id,
      });
    }
  }

  log(`Copying ${byId.size} image originals and ${jobs.length - byId.size} renditions into the bucket "${options.s3.bucket}"...`);
  const store = s3ObjectStore(options.s3);
  const missingOriginals: number[] = [];
  let originals = 0;
  let renditions = 0;
  let next = 0;
  const t = performance.now();
  try {
    await store.ensureBucket();
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        let bytes: Buffer;
        try {
          bytes = await fs.readFile(job.file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
          if (job.original) missingOriginals.push(job.id);
          continue;
        }
        await store.write(job.name, bytes, CONTENT_TYPES[job.format]);
        if (job.original) originals++;
        else renditions++;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.imageConcurrency ?? 16) }, worker));
  } finally {
    store.close();
  }
  log(`  ${originals} originals and ${renditions} renditions in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  if (missingOriginals.length > 0)
    log(
      `  ${missingOriginals.length} image rows have no original file in ${root}/originals (ids ${missingOriginals.slice(0, 10).join(", ")}...)`,
    );
  return { originals, renditions, missingOriginals: missingOriginals.sort((a, b) => a - b) };
}
