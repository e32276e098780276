import type { ImageFormat } from "./image-formats.ts";

export interface Rendition {
  bytes: Buffer;
  /** The original's format, or WebP for a WebP rendition. */
  format: ImageFormat;
  /** False when the original was served instead (resizers busy): not to be cached as the rendition. */
  exact: boolean;
}

/** An image as its bytes are found: by id (the data folder) or by the upload's key (a bucket). */
export interface StoredImage {
  id: number;
  fileKey: string | null;
  format: ImageFormat;
  width: number;
}

/**
 * Where image bytes live: the data folder (ImageFiles, folder-storage.ts, the default) or an S3 bucket
 * (BucketImageFiles, bucket-storage.ts). An upload is staged under a fresh key before its row is committed and
 * moved into place after (a no-op in a bucket, where the object keeps its key), so no row ever names bytes that
 * were not stored.
 */
export interface ImageStorage {
  stageUpload(bytes: Buffer, format: ImageFormat): Promise<string>;
  moveIntoPlace(fileKey: string, id: number, format: ImageFormat): Promise<void>;
  /** Undoes an upload: its staged bytes and, when it got that far, the bytes moved into place. */
  discardUpload(fileKey: string, format: ImageFormat, id?: number): Promise<void>;
  /**
   * The bytes to serve for a width request: the original when it is no wider, else a rendition made once and
   * kept. With every resizer busy and the queue full, the original (a correct image, just larger). With
   * `acceptsWebp`, a JPEG or PNG original's rendition is WebP, the whole original too when it is no wider.
   */
  read(image: StoredImage, requested: number | undefined, acceptsWebp?: boolean): Promise<Rendition | null>;
  /** Deletes the original and every kept rendition (nothing there is fine): a deleted image's bytes. */
  remove(image: Pick<StoredImage, "id" | "fileKey" | "format">): Promise<void>;
}
