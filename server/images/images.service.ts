import type { Database } from "../db/database.ts";
import { HttpError, notFound } from "../http/errors.ts";
import type { ImageMetadata } from "../rules/responses.ts";
import { nowMs, toIso } from "../db/dates.ts";
import { ImageBytesCache, type CachedImage } from "./image-bytes-cache.ts";
import { cleanFileName, cleanUpload, CONTENT_TYPES, extensionOf, formatOf, type ImageStorage } from "./image-files.ts";
import { createImageQueries, type ImageRow } from "./images.queries.ts";
import { DEFAULT_UPLOAD_QUOTA_BYTES, quotaMessage } from "./upload-limits.ts";

export type { ImageRow } from "./images.queries.ts";

export type ImageService = ReturnType<typeof createImageService>;

export interface ImageServiceOptions {
  /** Bytes each user may store (UPLOAD_QUOTA_BYTES). */
  quotaBytes?: number;
  /** Recently served image bytes kept in memory. */
  cacheBytes?: number;
}

/** What GET /images/{id} sends: the bytes, and whether anyone may cache them. */
export interface ServedImage extends CachedImage {
  public: boolean;
}

const notFoundImage = () => notFound("Image not found");

/**
 * Uploads, metadata and bytes. An image nothing published references is private: its uploader sees
 * it, anyone else gets the 404 of a missing image (docs/decisions/009-image-safety.md).
 */
export function createImageService(db: Database, files: ImageStorage, options: ImageServiceOptions = {}) {
  const quotaBytes = options.quotaBytes ?? DEFAULT_UPLOAD_QUOTA_BYTES;
  const cache = new ImageBytesCache(options.cacheBytes ?? 64 * 1024 * 1024);
  const images = createImageQueries(db);
  const overQuota = () => new HttpError(413, quotaMessage(quotaBytes));

  const visibleTo = (row: ImageRow, viewerId: number | undefined) => row.publishedAt !== null || row.authorId === viewerId;

  return {
    /**
     * Crash-safe order: the file is fsynced in incoming/ under a random key, then the row naming the
     * key is committed, then the file is renamed into place. The start-up tidy rolls a crash at any
     * point forward (row committed) or back (no row) (server/images/image-tidy.ts).
     */
    async upload(file: { buffer: Buffer; originalname?: string }, authorId: number): Promise<ImageMetadata> {
      const image = await cleanUpload(file.buffer);
      // Checked before the file is written, and again in the insert, where two uploads at once cannot both squeeze in.
      if ((await images.storedBytes(authorId)) + image.bytes.length > quotaBytes) throw overQuota();
      const fileKey = await files.stageUpload(image.bytes, image.format);
      const row = {
        fileName: cleanFileName(file.originalname, image.format),
        contentType: CONTENT_TYPES[image.format],
        size: image.bytes.length,
        width: image.width,
        height: image.height,
        authorId,
        createdAt: nowMs(),
      };
      let id: number;
      try {
        const inserted = await images.insertWithinQuota({ ...row, fileKey }, quotaBytes);
        if (inserted === null) throw overQuota();
        id = inserted;
      } catch (err) {
        await files.discardUpload(fileKey, image.format);
        throw err;
      }
      try {
        await files.moveIntoPlace(fileKey, id, image.format);
      } catch (err) {
        // No row without its file.
        await images.remove(id);
        await files.discardUpload(fileKey, image.format, id);
        throw err;
      }
      return toMetadata({ ...row, id, publishedAt: null, fileKey }, authorId);
    },

    async metadata(id: number, viewerId: number | undefined): Promise<ImageMetadata> {
      const row = await images.byId(id);
      if (!row || !visibleTo(row, viewerId)) throw notFoundImage();
      return toMetadata(row, viewerId);
    },

    /**
     * The bytes to send for an image at the requested width (`?w=`) and whether they are public; an image
     * nothing published uses is its uploader's only (404 for anyone else). With `acceptsWebp`, the rendition of a
     * JPEG or PNG is WebP. Recently served bytes come from memory.
     */
    async bytesFor(
      id: number,
      { width, acceptsWebp = false }: { width?: number; acceptsWebp?: boolean },
      viewerId: number | undefined,
    ): Promise<ServedImage> {
      // Keyed by what was asked (the format is known only from the row): a GIF's rendition asked for by both
      // kinds of client is kept twice, which the byte budget bounds.
      const key = width === undefined ? `${id}:` : `${id}:${width}:${acceptsWebp ? "webp" : "own"}`;
      const cached = cache.get(key);
      // Public images never become private again, so a public entry needs no second look.
      if (cached?.public) return { ...cached, public: true };
      const row = await images.byId(id);
      if (!row || !visibleTo(row, viewerId)) throw notFoundImage();
      const isPublic = row.publishedAt !== null;
      if (cached) return { ...cached, public: isPublic };
      const image = { id, fileKey: row.fileKey, format: formatOf(row.contentType), width: row.width };
      const found = await files.read(image, width, acceptsWebp);
      // Gone from disk: a plain 404, never the file's path in the message.
      if (!found) throw notFoundImage();
      // The original sent in place of a rendition is kept as the original, never as the rendition.
      const entry = cache.set(found.exact ? key : `${id}:`, found.bytes, CONTENT_TYPES[found.format], isPublic);
      return { ...entry, public: isPublic };
    },
  };
}

function toMetadata(row: ImageRow, viewerId: number | undefined): ImageMetadata {
  return {
    id: row.id,
    // The original file name can say more than the uploader meant to share.
    fileName: row.authorId === viewerId ? row.fileName : `image-${row.id}.${extensionOf(formatOf(row.contentType))}`,
    contentType: row.contentType as ImageMetadata["contentType"],
    size: row.size,
    width: row.width,
    height: row.height,
    authorId: row.authorId,
    createdAt: toIso(row.createdAt),
  };
}
