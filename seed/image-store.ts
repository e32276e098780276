import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { sql } from "kysely";
import type { Engine } from "../server/db/database.ts";
import type { Executor } from "../server/db/prepared.ts";
import { ImageFiles } from "../server/images/folder-storage.ts";
import { CONTENT_TYPES, formatOf, type ImageFormat } from "../server/images/image-formats.ts";
import { prepare } from "./sqlite-statement.ts";
import type { RenderedImage } from "./art/render.ts";

/**
 * Seeded images are stored the way uploads are: an Image row, and the file at
 * ImageFiles.originalPath(id, format) under <dataDir>/images.
 *
 * The seed picks row ids up front and draws the files into a staging folder. Inside the
 * transaction that inserts the rows, the files are renamed into place (refusing to overwrite
 * anything), so rows and files land together: a failure rolls the rows back and removes the files.
 */
export interface StoredImage {
  id: number;
  format: ImageFormat;
  fileName: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
  createdAt: number;
}

export const imageFilesFor = (dataDir: string) => new ImageFiles(path.join(dataDir, "images"));

/** The next id the database would give an Image row (neither engine reuses ids). */
export async function nextImageId(on: Executor, engine: Engine): Promise<number> {
  const { rows } =
    engine === "sqlite"
      ? await sql<{ seq: number | null }>`SELECT MAX(seq) AS seq FROM sqlite_sequence WHERE name = 'Image'`.execute(on)
      : await sql<{ seq: number | null }>`SELECT pg_sequence_last_value(pg_get_serial_sequence('"Image"', 'id')::regclass) AS seq`.execute(
          on,
        );
  const { max } = await on
    .selectFrom("Image")
    .select((eb) => eb.fn.max("id").as("max"))
    .executeTakeFirstOrThrow();
  return Math.max(rows[0]?.seq ?? 0, max ?? 0) + 1;
}

/** A folder for files that are not yet part of the data set, on the same disk as their final place. */
export function createStaging(files: ImageFiles): string {
  fs.mkdirSync(files.root, { recursive: true });
  return fs.mkdtempSync(path.join(files.root, ".seed-"));
}

const stagedPath = (staging: string, image: Pick<StoredImage, "id" | "format">) => path.join(staging, `${image.id}.${image.format}`);

export async function stageImage(
  staging: string,
  id: number,
  image: RenderedImage,
  createdAt: number,
  fileName: string,
): Promise<StoredImage> {
  const stored: StoredImage = {
    id,
    format: image.format,
    fileName,
    contentType: CONTENT_TYPES[image.format],
    size: image.bytes.length,
    width: image.width,
    height: image.height,
    createdAt,
  };
  await fs.promises.writeFile(stagedPath(staging, stored), image.bytes);
  return stored;
}

/**
 * Moves staged files to their final paths, inside the transaction that writes their rows; on any
 * failure the files already moved are removed again and the error rethrown.
 */
export function moveIntoPlace(files: ImageFiles, staging: string, images: Iterable<StoredImage>): void {
  const moved: string[] = [];
  try {
    for (const image of images) {
      const target = files.originalPath(image.id, image.format);
      if (fs.existsSync(target)) throw new Error(`Refusing to overwrite ${target}`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(stagedPath(staging, image), target);
      moved.push(target);
    }
  } catch (err) {
    for (const file of moved) fs.rmSync(file, { force: true });
    throw err;
  }
}

export const removeStaging = (staging: string) => fs.rmSync(staging, { recursive: true, force: true });

/** Staging folders left behind by a seed that was killed (older than an hour, so never a running one's). */
export function removeStaleStaging(files: ImageFiles, now = Date.now()): void {
  if (!fs.existsSync(files.root)) return;
  for (const entry of fs.readdirSync(files.root)) {
    if (!entry.startsWith(".seed-") && !entry.startsWith(".scale-pool-")) continue;
    const folder = path.join(files.root, entry);
    if (now - fs.statSync(folder).mtimeMs > 3_600_000) removeStaging(folder);
  }
}

/** Image rows with the ids the seed chose; every seeded image is referenced by published content (docs/decisions/009). */
export async function insertImageRows(
  on: Executor,
  engine: Engine,
  rows: { image: Omit<StoredImage, "format">; authorId: number }[],
): Promise<number> {
  const values = rows.map(({ image, authorId }) => ({
    id: image.id,
    fileName: image.fileName,
    contentType: image.contentType,
    size: image.size,
    width: image.width,
    height: image.height,
    authorId,
    createdAt: image.createdAt,
    publishedAt: image.createdAt,
  }));
  for (let i = 0; i < values.length; i += 500)
    await on
      .insertInto("Image")
      .values(values.slice(i, i + 500))
      .execute();
  // Chosen ids leave PostgreSQL's sequence behind (SQLite's AUTOINCREMENT follows the largest id): move it past them.
  if (engine === "postgres" && values.length > 0)
    await sql`SELECT setval(pg_get_serial_sequence('"Image"', 'id'), (SELECT MAX(id) FROM "Image"))`.execute(on);
  return values.length;
}

/** @deprecated The large set's writer only (seed/scale.ts, SQLite): one Image row at a time through better-sqlite3. */
export function imageRowInserter(sqlite: BetterSqlite3.Database) {
  const insert = prepare(
    sqlite,
    "INSERT INTO Image (id, fileName, contentType, size, width, height, authorId, createdAt, publishedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  return (image: Omit<StoredImage, "format">, authorId: number) =>
    insert.run(
      image.id,
      image.fileName,
      image.contentType,
      image.size,
      image.width,
      image.height,
      authorId,
      image.createdAt,
      image.createdAt,
    );
}

/** The file of an Image row (as the API serves it). */
export const imagePath = (files: ImageFiles, row: { id: number; contentType: string }) =>
  files.originalPath(row.id, formatOf(row.contentType));

/** A file-name friendly form of a title: "Ink & Brushes" gives "ink-brushes". */
export const slug = (text: string) =>
  text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "image";
