import fs from "node:fs/promises";
import type { Database } from "../db/database.ts";
import { notFound } from "../http/errors.ts";
import type { ImageMetadata } from "../rules/responses.ts";
import { prepare } from "../db/sql.ts";
import { ImageBytesCache, type CachedImage } from "./image-bytes-cache.ts";
import { cleanFileName, cleanUpload, CONTENT_TYPES, formatOf, ImageFiles } from "./image-files.ts";

export type ImageService = ReturnType<typeof createImageService>;

export function createImageService(db: Database, root: string, cacheBytes = 64 * 1024 * 1024) {
  const files = new ImageFiles(root);
  const cache = new ImageBytesCache(cacheBytes);
  const byId = prepare<[number], { id: number; contentType: string; width: number }>(
    db.sqlite,
    "SELECT id, contentType, width FROM Image WHERE id = ?",
  );

  return {
    files,

    async upload(file: { buffer: Buffer; originalname?: string }, authorId: number): Promise<ImageMetadata> {
      const image = await cleanUpload(file.buffer);
      const row = await db.prisma.image.create({
        data: {
          fileName: cleanFileName(file.originalname, image.format),
          contentType: CONTENT_TYPES[image.format],
          size: image.bytes.length,
          width: image.width,
          height: image.height,
          authorId,
          createdAt: new Date(),
        },
      });
      try {
        await files.writeAtomically(files.originalPath(row.id, image.format), image.bytes);
      } catch (err) {
        // No record without its file.
        await db.prisma.image.delete({ where: { id: row.id } });
        throw err;
      }
      return toMetadata(row);
    },

    async metadata(id: number): Promise<ImageMetadata> {
      const row = await db.prisma.image.findUnique({ where: { id } });
      if (!row) throw notFound("Image not found");
      return toMetadata(row);
    },

    /** The file to send for an image, at the requested width. */
    /** The bytes to send for an image at the requested width (`?w=`), from memory when recently served. */
    async bytesFor(id: number, width: number | undefined): Promise<CachedImage> {
      const key = `${id}:${width ?? ""}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const row = byId.get(id);
      if (!row) throw notFound("Image not found");
      const path = await files.pathFor({ id, format: formatOf(row.contentType), width: row.width }, width);
      // Gone from disk since the upload: a plain 404, never the file's path in the message.
      const bytes = await fs.readFile(path).catch(() => null);
      if (!bytes) throw notFound("Image not found");
      return cache.set(key, bytes, row.contentType);
    },
  };
}

function toMetadata(row: {
  id: number;
  fileName: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
  authorId: number;
  createdAt: Date;
}): ImageMetadata {
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType as ImageMetadata["contentType"],
    size: row.size,
    width: row.width,
    height: row.height,
    authorId: row.authorId,
    createdAt: row.createdAt.toISOString(),
  };
}
