import fs from "node:fs/promises";
import path from "node:path";
import type { Database } from "../db/database.ts";
import { BucketImageFiles } from "./bucket-storage.ts";
import { ImageFiles, syncFolder } from "./folder-storage.ts";
import { formatOf } from "./image-formats.ts";
import { createImageQueries } from "./images.queries.ts";
import { s3ObjectStore, type S3Settings } from "./s3-storage.ts";

export const imagesDir = (dataDir: string) => path.join(dataDir, "images");

// Written once the folders have been searched for the temp files of versions before incoming/.
const LEGACY_MARKER = ".tidied-v1";
// The highest Image id whose file the tidy has checked: each start checks only the rows added since the one before.
const ROWS_CHECKED = ".rows-checked";
const ROW_BATCH = 1000;

export interface TidyReport {
  /** Uploads whose row was committed but whose file had not been moved: moved now. */
  rolledForward: number;
  /** Temp files and uploads without a row: deleted. */
  removed: number;
  /** Unpublished, unused rows whose file is in neither place (an upload a crash cut): deleted, so no quota is held. */
  rowsWithoutFile: number;
}

/**
 * Run at API start, before it listens: finishes or undoes whatever a crash left in images/incoming
 * (see ImageService.upload for the order of writes). Reads one folder, so it stays quick however
 * many images there are.
 */
export async function tidyImages(db: Database, dataDir: string): Promise<TidyReport> {
  const files = new ImageFiles(imagesDir(dataDir));
  const report: TidyReport = { rolledForward: 0, removed: 0, rowsWithoutFile: 0 };
  const images = createImageQueries(db);
  const names = await fs.readdir(files.incomingDir).catch(() => [] as string[]);
  const touched = new Set<string>();
  for (const name of names) {
    const file = path.join(files.incomingDir, name);
    const dot = name.lastIndexOf(".");
    const row = dot > 0 && !name.endsWith(".tmp") ? await images.byFileKey(name.slice(0, dot)) : undefined;
    if (row) {
      const target = files.originalPath(row.id, formatOf(row.contentType));
      const placed = await fs.stat(target).then(
        () => true,
        () => false,
      );
      if (!placed) {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(file, target);
        touched.add(path.dirname(target));
        report.rolledForward++;
        continue;
      }
    }
    await fs.rm(file, { force: true, recursive: true });
    report.removed++;
  }
  if (names.length > 0) touched.add(files.incomingDir);
  for (const dir of touched) await syncFolder(dir);
  report.removed += await removeLegacyTempFiles(files.root);
  report.rowsWithoutFile = await removeRowsWithoutFile(images, files);
  return report;
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * After the roll forward, every row should have its original. One that has not (its upload was cut before its file
 * was durable, or the file was lost) would answer its uploader's metadata while its bytes 404, and count against the
 * quota: it is deleted, unless something published uses it (then the row stays, and its bytes answer 404). Only the
 * rows added since the last start are checked, so the start stays quick however many images there are.
 */
async function removeRowsWithoutFile(images: ReturnType<typeof createImageQueries>, files: ImageFiles): Promise<number> {
  const marker = path.join(files.root, ROWS_CHECKED);
  let checked = Number(await fs.readFile(marker, "utf8").catch(() => "0")) || 0;
  const from = checked;
  let removed = 0;
  for (;;) {
    const rows = await images.rowsAfter(checked, ROW_BATCH);
    for (const row of rows) {
      if (!(await exists(files.originalPath(row.id, formatOf(row.contentType)))) && (await images.removeUnused(row.id))) removed++;
    }
    if (rows.length === 0) break;
    checked = rows[rows.length - 1]!.id;
  }
  if (checked !== from) {
    // Only a hint: were it lost, the next start would check these rows again.
    await fs.mkdir(files.root, { recursive: true });
    await fs.writeFile(marker, String(checked));
  }
  return removed;
}

/** Before incoming/ existed, temp files sat beside the originals and renditions: searched for once. */
async function removeLegacyTempFiles(root: string): Promise<number> {
  const marker = path.join(root, LEGACY_MARKER);
  if (
    await fs.stat(marker).then(
      () => true,
      () => false,
    )
  )
    return 0;
  let removed = 0;
  const folders = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory() || folder.name === "incoming") continue;
    const dir = path.join(root, folder.name);
    for (const name of await fs.readdir(dir)) {
      if (!name.endsWith(".tmp")) continue;
      await fs.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  await fs.mkdir(root, { recursive: true });
  await fs.writeFile(marker, "");
  return removed;
}

/** A marker younger than this may be an upload still in flight on another instance: left for a later run. */
export const BUCKET_TIDY_MIN_AGE_MS = 10 * 60_000;
/** How often a running API tidies the bucket again (every instance; the work is a listing of incoming/). */
export const BUCKET_TIDY_EVERY_MS = 60 * 60_000;

/**
 * The bucket's tidy: an upload writes a marker (`incoming/{fileKey}.{ext}`) before its object and deletes it once its
 * row is committed (BucketImageFiles). A marker whose row exists only lost its deletion: it goes. A marker without a
 * row, older than `olderThanMs`, is an upload a crash cut: its object and the marker go. Rows never lack their object
 * in a bucket: the object is written before the row is committed.
 */
export async function tidyBucket(
  db: Database,
  files: BucketImageFiles,
  { olderThanMs = BUCKET_TIDY_MIN_AGE_MS, now = Date.now() } = {},
): Promise<TidyReport> {
  const images = createImageQueries(db);
  const report: TidyReport = { rolledForward: 0, removed: 0, rowsWithoutFile: 0 };
  for (const marker of await files.uploadMarkers()) {
    if (await images.byFileKey(marker.fileKey)) {
      await files.removeMarker(marker.fileKey, marker.format);
      report.rolledForward++;
    } else if (now - marker.modifiedAt >= olderThanMs) {
      await files.discardUpload(marker.fileKey, marker.format);
      report.removed++;
    }
  }
  return report;
}

/** Tidies the bucket now and every BUCKET_TIDY_EVERY_MS while the API runs; answers the function that stops it. */
export function scheduleBucketTidy(db: Database, settings: S3Settings, onError: (err: unknown) => void): () => Promise<void> {
  const objects = s3ObjectStore(settings);
  const files = new BucketImageFiles(objects);
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = tidyBucket(db, files).catch(onError);
  };
  run();
  const timer = setInterval(run, BUCKET_TIDY_EVERY_MS).unref();
  return async () => {
    clearInterval(timer);
    await running;
    objects.close();
  };
}
