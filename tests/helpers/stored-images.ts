// Whether images' bytes left the store after a deletion: where each one's original (or a rendition) is kept is
// noted while its row exists, then read again once the image-release work deleted the row.
import fs from "node:fs/promises";
import { expect } from "vitest";
import { BucketImageFiles } from "../../server/images/bucket-storage.ts";
import { ImageFiles } from "../../server/images/folder-storage.ts";
import { formatOf, type ImageFormat } from "../../server/images/image-formats.ts";
import { imagesDir } from "../../server/images/image-tidy.ts";
import { s3ObjectStore } from "../../server/images/s3-storage.ts";
import type { TestApi } from "./api.ts";

/**
 * Where the store keeps an image's original or rendition (read while its row exists): the data folder or the S3 bucket.
 * A rendition in the original's format, or in `renditionFormat` (a WebP rendition).
 */
export async function storedImageReader(
  api: TestApi,
  id: number,
  width?: number,
  renditionFormat?: ImageFormat,
): Promise<() => Promise<Buffer | null>> {
  const row = await api.db.kysely.selectFrom("Image").select(["fileKey", "contentType"]).where("id", "=", id).executeTakeFirstOrThrow();
  const format = renditionFormat ?? formatOf(row.contentType);
  const s3 = api.config.s3;
  if (s3) {
    const name = BucketImageFiles.objectName({ id, fileKey: row.fileKey, format }, width);
    return async () => {
      const store = s3ObjectStore(s3);
      return store.read(name).finally(() => store.close());
    };
  }
  const files = new ImageFiles(imagesDir(api.dataDir));
  const file = width === undefined ? files.originalPath(id, format) : files.renditionPath(id, format, width);
  return () => fs.readFile(file).catch(() => null);
}

/** `track` images before deleting, `expectImageGone` after: the row, the answer and the bytes are gone. */
export function storedImages(api: () => TestApi) {
  const stored = new Map<number, () => Promise<Buffer | null>>();
  return {
    track: async (...ids: number[]) => {
      for (const id of ids) {
        const read = await storedImageReader(api(), id);
        expect(await read()).not.toBeNull();
        stored.set(id, read);
      }
    },
    expectImageGone: async (id: number) => {
      await expect
        .poll(async () => (await api().db.kysely.selectFrom("Image").select("id").where("id", "=", id).executeTakeFirst()) ?? null, {
          timeout: 10_000,
        })
        .toBeNull();
      expect((await api().request.get(`/images/${id}`)).status).toBe(404);
      const read = stored.get(id);
      if (!read) throw new Error(`track(${id}) before deleting`);
      expect(await read()).toBeNull();
    },
  };
}
