import { randomUUID } from "node:crypto";
import { RENDITION_WIDTHS } from "../rules/images.ts";
import { CONTENT_TYPES, extensionOf, formatOfExtension, type ImageFormat } from "./image-formats.ts";
import type { ImageStorage, Rendition, StoredImage } from "./image-storage.ts";
import { renditionFormats, Renditions, type RenditionIo } from "./renditions.ts";
import type { ObjectStore } from "./s3-storage.ts";

/**
 * Images in an S3 bucket (S3_BUCKET, docs/api.md §1): originals/{fileKey}.{ext} and w{width}/{fileKey}.{ext} (and
 * w{width}/{fileKey}.webp, the WebP rendition of a JPEG or PNG).
 * An upload's object is written whole, under its key, before the row naming it is committed, and never renamed;
 * the answer comes after the store has it. Rows from before upload keys (copied from an older site) are named
 * id-{id}.
 */
export class BucketImageFiles implements ImageStorage {
  private readonly renditions: Renditions;

  private readonly objects: ObjectStore;
  constructor(objects: ObjectStore, resizeLimits?: { running: number; queued: number }) {
    this.objects = objects;
    this.renditions = new Renditions(resizeLimits);
  }

  static objectName(image: Pick<StoredImage, "id" | "fileKey" | "format">, width?: number): string {
    return `${width === undefined ? "originals" : `w${width}`}/${image.fileKey ?? `id-${image.id}`}.${extensionOf(image.format)}`;
  }

  /** The empty object that marks an upload in flight: `incoming/{fileKey}.{ext}` (server/images/image-tidy.ts). */
  static markerName(fileKey: string, format: ImageFormat): string {
    return `incoming/${fileKey}.${extensionOf(format)}`;
  }

  /**
   * The marker first, then the object: an upload cut before its row is committed leaves an object that the marker
   * names, which the tidy deletes (a bucket cannot be searched for objects without a row).
   */
  async stageUpload(bytes: Buffer, format: ImageFormat): Promise<string> {
    const fileKey = randomUUID();
    await this.objects.write(BucketImageFiles.markerName(fileKey, format), Buffer.alloc(0), CONTENT_TYPES[format]);
    await this.objects.write(BucketImageFiles.objectName({ id: 0, fileKey, format }), bytes, CONTENT_TYPES[format]);
    return fileKey;
  }

  /**
   * The object keeps its name; once the row is committed the marker goes, without holding up the answer (one left
   * behind, by a crash or a store that is away, is harmless: the tidy finds the row and deletes it).
   */
  moveIntoPlace(fileKey: string, _id: number, format: ImageFormat): Promise<void> {
    void this.removeMarker(fileKey, format).catch(() => undefined);
    return Promise.resolve();
  }

  /** Deletes an upload's marker (its row is committed): the tidy's roll forward. */
  removeMarker(fileKey: string, format: ImageFormat): Promise<void> {
    return this.objects.remove(BucketImageFiles.markerName(fileKey, format));
  }

  async discardUpload(fileKey: string, format: ImageFormat): Promise<void> {
    await this.objects.remove(BucketImageFiles.objectName({ id: 0, fileKey, format }));
    await this.objects.remove(BucketImageFiles.markerName(fileKey, format));
  }

  /** The upload markers in the bucket, for the tidy: its key, format and age. */
  async uploadMarkers(): Promise<{ fileKey: string; format: ImageFormat; modifiedAt: number }[]> {
    const markers = await this.objects.list("incoming/");
    return markers.flatMap(({ name, modifiedAt }) => {
      const match = /^incoming\/([^/.]+)\.([a-z]+)$/.exec(name);
      const format = match && formatOfExtension(match[2]!);
      return match && format ? [{ fileKey: match[1]!, format, modifiedAt }] : [];
    });
  }

  async remove(image: Pick<StoredImage, "id" | "fileKey" | "format">): Promise<void> {
    // Deleting an object that is not there succeeds: renditions never made cost one request each.
    await Promise.all(
      renditionFormats(image.format).flatMap((format) =>
        RENDITION_WIDTHS.map((width) => this.objects.remove(BucketImageFiles.objectName({ ...image, format }, width))),
      ),
    );
    await this.objects.remove(BucketImageFiles.objectName(image));
  }

  read(image: StoredImage, requested: number | undefined, acceptsWebp = false): Promise<Rendition | null> {
    const io: RenditionIo = {
      original: () => this.objects.read(BucketImageFiles.objectName(image)),
      kept: (width, format) => this.objects.read(BucketImageFiles.objectName({ ...image, format }, width)),
      keep: (width, format, bytes) =>
        this.objects.write(BucketImageFiles.objectName({ ...image, format }, width), bytes, CONTENT_TYPES[format]),
    };
    return this.renditions.read(image, requested, io, acceptsWebp);
  }
}
