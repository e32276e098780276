import fs from "node:fs/promises";
import sharp from "sharp";
import { BucketImageFiles } from "../../server/images/bucket-storage.ts";
import { ImageFiles } from "../../server/images/folder-storage.ts";
import { formatOf, type ImageFormat } from "../../server/images/image-formats.ts";
import { imagesDir } from "../../server/images/image-tidy.ts";
import { s3ObjectStore } from "../../server/images/s3-storage.ts";
import { expect } from "vitest";
import type { TestApi, TestUser } from "./api.ts";

export type Format = "jpeg" | "png" | "webp" | "gif";

/** A solid-colour image of the given size and format, made with sharp. */
export function imageBytes(format: Format = "png", width = 40, height = 30): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } });
  return image.toFormat(format).toBuffer();
}

/** Random pixels: a PNG that does not compress, to exceed upload limits with a real image. */
export function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(Math.random() * 256);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** Uploads an image as the user and answers its id. */
export async function uploadImage(api: TestApi, user: TestUser, bytes?: Buffer, fileName = "image.png"): Promise<number> {
  const res = await api.request
    .post("/images")
    .set(user.auth)
    .attach("file", bytes ?? (await imageBytes()), fileName);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** Uploads a solid PNG of the given size (a chapter page, a logo) as the user and answers its id. */
export async function uploadPng(api: TestApi, user: TestUser, width = 40, height = 60): Promise<number> {
  return uploadImage(api, user, await imageBytes("png", width, height), "page.png");
}

/**
 * Where the API keeps an image's original (no width) or a rendition (in the original's format, or `renditionFormat`:
 * a WebP rendition): the data folder, or the S3 bucket when set.
 */
async function keptImage(api: TestApi, id: number, width?: number, renditionFormat?: ImageFormat) {
  const row = await api.db.kysely.selectFrom("Image").select(["fileKey", "contentType"]).where("id", "=", id).executeTakeFirstOrThrow();
  const format = renditionFormat ?? formatOf(row.contentType);
  if (api.config.s3) {
    const name = BucketImageFiles.objectName({ id, fileKey: row.fileKey, format }, width);
    const store = s3ObjectStore(api.config.s3);
    return { read: () => store.read(name).finally(() => store.close()), remove: () => store.remove(name).finally(() => store.close()) };
  }
  const files = new ImageFiles(imagesDir(api.dataDir));
  const file = width === undefined ? files.originalPath(id, format) : files.renditionPath(id, format, width);
  return { read: () => fs.readFile(file).catch(() => null), remove: () => fs.rm(file) };
}

/** The bytes the API keeps for an image (original or rendition), wherever it keeps them; null when there are none. */
export const keptImageBytes = async (api: TestApi, id: number, width?: number, renditionFormat?: ImageFormat): Promise<Buffer | null> =>
  (await keptImage(api, id, width, renditionFormat)).read();

/** Deletes an image's original from wherever the API keeps it, behind the API's back. */
export const removeKeptOriginal = async (api: TestApi, id: number): Promise<void> => (await keptImage(api, id)).remove();
