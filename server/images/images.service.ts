import fs from "node:fs/promises";
import type { Database } from "../db/database.ts";
import { notFound } from "../http/errors.ts";
import type { ImageMetadata } from "../rules/responses.ts";
import { prepare } from "../db/sql.ts";
import { cleanFileName, cleanUpload, CONTENT_TYPES, formatOf, ImageFiles } from "./image-files.ts";

export type ImageService = ReturnType<typeof createImageService>;

export function createImageService(db: Database, root: string) {
  const files = new ImageFiles(root);
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
    async fileFor(id: number, width: number | undefined): Promise<{ path: string; contentType: string }> {
      const row = byId.get(id);
      if (!row) throw notFound("Image not found");
      const format = formatOf(row.contentType);
      const path = await files.pathFor({ id, format, width: row.width }, width);
      const exists = await fs.stat(path).then(() => true, () => false);
      if (!exists) throw notFound("Image not found");
      return { path, contentType: row.contentType };
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
