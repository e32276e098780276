import fs from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { CONTENT_TYPES, formatOf, ImageFiles, type ImageFormat } from "../server/images/image-files.ts";
import { prepare } from "../server/db/sql.ts";
import type { RenderedImage } from "./art/render.ts";

/**
 * Seeded images are stored the way uploads are: an Image row, and the file at
 * ImageFiles.originalPath(id, format) under <dataDir>/images.
 *
 * The seed picks row ids up front and draws the files into a staging folder. Inside the
 * transaction that inserts the rows, the files are renamed into place (synchronously, refusing to
 * overwrite anything), so rows and files land together: a failure rolls the rows back and
 * removes the files.
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

/** The next id SQLite would give an Image row (AUTOINCREMENT never reuses ids). */
export function nextImageId(sqlite: BetterSqlite3.Database): number {
  const seq = prepare<[], { seq: number }>(sqlite, "SELECT seq FROM sqlite_sequence WHERE name = 'Image'").get()?.seq ?? 0;
  const max = prepare<[], { id: number | null }>(sqlite, "SELECT MAX(id) AS id FROM Image").get()?.id ?? 0;
  return Math.max(seq, max) + 1;
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
 * Moves staged files to their final paths. Synchronous, so it can run inside a better-sqlite3
 * transaction; on any failure the files already moved are removed again and the error rethrown.
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

export function imageRowInserter(sqlite: BetterSqlite3.Database) {
  const insert = prepare(
    sqlite,
    // Every seeded image is referenced by published content (publishedAt: docs/decisions/009).
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
