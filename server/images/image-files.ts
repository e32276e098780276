import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { RENDITION_WIDTHS } from "../rules/images.ts";
import { HttpError } from "../http/errors.ts";
import type { ObjectStore } from "./s3-storage.ts";

export type ImageFormat = "jpeg" | "png" | "webp" | "gif";
export const CONTENT_TYPES: Record<ImageFormat, "image/jpeg" | "image/png" | "image/webp" | "image/gif"> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
};
const EXTENSIONS: Record<ImageFormat, string> = { jpeg: "jpg", png: "png", webp: "webp", gif: "gif" };
const FORMATS = Object.keys(CONTENT_TYPES) as ImageFormat[];

// Guards against decompression bombs: a small file that would decode to gigabytes.
const MAX_INPUT_PIXELS = 120_000_000;

export interface CleanImage {
  bytes: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

const unsupported = () => new HttpError(415, "Only JPEG, PNG, WebP and GIF images are accepted");

/**
 * Judges the upload by its bytes (never its name or declared type), then re-encodes it: the
 * re-encoding drops EXIF (GPS included), XMP and other metadata, and applies the EXIF rotation.
 */
export async function cleanUpload(input: Buffer): Promise<CleanImage> {
  let format: ImageFormat;
  let animated: boolean;
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!FORMATS.includes(meta.format as ImageFormat)) throw unsupported();
    format = meta.format as ImageFormat;
    animated = (meta.pages ?? 1) > 1;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw unsupported();
  }
  try {
    let image = sharp(input, { animated, limitInputPixels: MAX_INPUT_PIXELS });
    if (!animated) image = image.autoOrient();
    const bytes = await encode(image, format).toBuffer();
    const out = await sharp(bytes, { animated }).metadata();
    return { bytes, format, width: out.width, height: out.pageHeight ?? out.height };
  } catch {
    throw new HttpError(415, "The file is not a readable image");
  }
}

// The WebP renditions of JPEG and PNG originals: quality 80 is a fifth to a third of the PNG rendition's bytes and
// looks like it on comic art (measured: docs/decisions/022-webp-renditions.md).
const WEBP_RENDITION_QUALITY = 80;

/** The format of a `?w=` rendition: WebP for a JPEG or PNG original when the client accepts it, else the original's. */
export function renditionFormat(original: ImageFormat, acceptsWebp: boolean): ImageFormat {
  return acceptsWebp && (original === "jpeg" || original === "png") ? "webp" : original;
}

/** Every format an image's renditions may be kept in: what deleting it removes. */
const renditionFormats = (original: ImageFormat): ImageFormat[] => [...new Set([original, renditionFormat(original, true)])];

function encode(image: sharp.Sharp, format: ImageFormat): sharp.Sharp {
  switch (format) {
    case "jpeg":
      return image.jpeg({ quality: 90, mozjpeg: true });
    case "png":
      return image.png();
    case "webp":
      return image.webp({ quality: 90 });
    case "gif":
      return image.gif();
  }
}

/** Serves at most `running` jobs at once with at most `queued` waiting; beyond that it refuses. */
export class WorkLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly running: number;
  private readonly queued: number;
  constructor(running: number, queued: number) {
    this.running = running;
    this.queued = queued;
  }

  /** Runs `job` now or after a queue slot frees; null when both are full (the caller does without). */
  tryRun<T>(job: () => Promise<T>): Promise<T> | null {
    if (this.active >= this.running && this.waiting.length >= this.queued) return null;
    return (async () => {
      if (this.active >= this.running) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.active++;
      try {
        return await job();
      } finally {
        // The slot passes straight to the next waiter, so `active` never over-counts.
        const next = this.waiting.shift();
        if (next) next();
        else this.active--;
      }
    })();
  }
}

/** fsync of a folder: makes a rename or a new file in it survive a power cut. */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes and fsyncs a new file; removes it again when that fails (a full disk). */
async function writeDurably(file: string, bytes: Buffer): Promise<void> {
  try {
    const handle = await fs.open(file, "wx");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await fs.rm(file, { force: true });
    throw err;
  }
}

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
 * Where image bytes live: the data folder (ImageFiles, the default) or an S3 bucket (BucketImageFiles). An
 * upload is staged under a fresh key before its row is committed and moved into place after (a no-op in a
 * bucket, where the object keeps its key), so no row ever names bytes that were not stored.
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

/** How a store reads an original, reads a kept rendition and keeps a new one. */
interface RenditionIo {
  original(): Promise<Buffer | null>;
  kept(width: number, format: ImageFormat): Promise<Buffer | null>;
  keep(width: number, format: ImageFormat, bytes: Buffer): Promise<void>;
}

/** Renditions made on demand, at most `running` at once (the rest wait or get the original), each made once. */
class Renditions {
  private readonly inFlight = new Map<string, Promise<Buffer | null>>();
  private readonly resizers: WorkLimiter;

  constructor(limits: { running: number; queued: number } = { running: 2, queued: 8 }) {
    this.resizers = new WorkLimiter(limits.running, limits.queued);
  }

  async read(image: StoredImage, requested: number | undefined, io: RenditionIo, acceptsWebp: boolean): Promise<Rendition | null> {
    const readOriginal = async (exact: boolean) => {
      const bytes = await io.original();
      return bytes && { bytes, format: image.format, exact };
    };
    if (requested === undefined) return readOriginal(true);
    const format = renditionFormat(image.format, acceptsWebp);
    let width: number = RENDITION_WIDTHS.find((w) => w >= requested) ?? RENDITION_WIDTHS[RENDITION_WIDTHS.length - 1]!;
    if (width >= image.width) {
      if (format === image.format) return readOriginal(true);
      // A WebP of the whole original, kept once under the first width not narrower than it.
      width = RENDITION_WIDTHS.find((w) => w >= image.width) ?? width;
    }
    const kept = await io.kept(width, format);
    if (kept) return { bytes: kept, format, exact: true };
    // Concurrent requests for the same rendition share one resize.
    const name = `${image.id}:${width}:${format}`;
    let pending = this.inFlight.get(name);
    if (!pending) {
      const started = this.resizers.tryRun(() => resize(image.format, format, width, io));
      if (!started) return readOriginal(false);
      pending = started.finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, pending);
    }
    const bytes = await pending.catch(() => null);
    return bytes ? { bytes, format, exact: true } : null;
  }
}

async function resize(from: ImageFormat, to: ImageFormat, width: number, io: RenditionIo): Promise<Buffer | null> {
  const original = await io.original();
  if (!original) return null;
  const animated = from === "gif" || from === "webp";
  const resized = sharp(original, { animated }).resize({ width, withoutEnlargement: true });
  const bytes = await (to === from ? encode(resized, to) : resized.webp({ quality: WEBP_RENDITION_QUALITY })).toBuffer();
  // A rendition that cannot be kept (a full disk, a store that is down) is still served, from memory.
  await io.keep(width, to, bytes).catch(() => undefined);
  return bytes;
}

/**
 * Where images live under the data folder: originals/{id}.{ext} and w{width}/{id}.{ext} (and w{width}/{id}.webp,
 * the WebP rendition of a JPEG or PNG); every file being written sits in incoming/ first (uploads as
 * {fileKey}.{ext}, renditions as {uuid}.tmp), so the start-up tidy reads one small folder (server/images/image-tidy.ts).
 */
export class ImageFiles implements ImageStorage {
  private readonly renditions: Renditions;

  readonly root: string;
  constructor(root: string, resizeLimits?: { running: number; queued: number }) {
    this.root = root;
    this.renditions = new Renditions(resizeLimits);
  }

  get incomingDir() {
    return path.join(this.root, "incoming");
  }

  originalPath(id: number, format: ImageFormat) {
    return path.join(this.root, "originals", `${id}.${EXTENSIONS[format]}`);
  }

  incomingPath(fileKey: string, format: ImageFormat) {
    return path.join(this.incomingDir, `${fileKey}.${EXTENSIONS[format]}`);
  }

  renditionPath(id: number, format: ImageFormat, width: number) {
    return path.join(this.root, `w${width}`, `${id}.${EXTENSIONS[format]}`);
  }

  /** Step 1 of an upload: the bytes, fsynced, in incoming/ under a fresh key. */
  async stageUpload(bytes: Buffer, format: ImageFormat): Promise<string> {
    await this.makeFolder(this.incomingDir);
    const fileKey = randomUUID();
    await writeDurably(this.incomingPath(fileKey, format), bytes);
    await syncFolder(this.incomingDir);
    return fileKey;
  }

  /** Step 3, once the row naming the key is committed: the file moves to its final name. */
  async moveIntoPlace(fileKey: string, id: number, format: ImageFormat): Promise<void> {
    const target = this.originalPath(id, format);
    await this.makeFolder(path.dirname(target));
    await fs.rename(this.incomingPath(fileKey, format), target);
    await syncFolder(path.dirname(target));
    await syncFolder(this.incomingDir);
  }

  /** Folders made for the first time are fsynced into their parents too, or a power cut could lose them with their files. */
  private async makeFolder(dir: string): Promise<void> {
    const first = await fs.mkdir(dir, { recursive: true });
    if (first === undefined) return;
    for (let made = dir; ; made = path.dirname(made)) {
      await syncFolder(path.dirname(made));
      if (made === first || made === path.dirname(made)) break;
    }
  }

  async discardUpload(fileKey: string, format: ImageFormat, id?: number): Promise<void> {
    await fs.rm(this.incomingPath(fileKey, format), { force: true });
    if (id !== undefined) await fs.rm(this.originalPath(id, format), { force: true });
  }

  async remove(image: Pick<StoredImage, "id" | "format">): Promise<void> {
    await Promise.all(
      renditionFormats(image.format).flatMap((format) =>
        RENDITION_WIDTHS.map((width) => fs.rm(this.renditionPath(image.id, format, width), { force: true })),
      ),
    );
    await fs.rm(this.originalPath(image.id, image.format), { force: true });
  }

  /** Writes the file in incoming/ first, so a reader never sees half of it. */
  async writeAtomically(file: string, bytes: Buffer): Promise<void> {
    await fs.mkdir(this.incomingDir, { recursive: true });
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temp = path.join(this.incomingDir, `${randomUUID()}.tmp`);
    try {
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, file);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  read(image: StoredImage, requested: number | undefined, acceptsWebp = false): Promise<Rendition | null> {
    // Between an upload's commit and its move the row's original is the staged file, fsynced before the row was: a
    // row is never visible without bytes to serve. Read in place again after it, in case the move came in between.
    const placed = () => fs.readFile(this.originalPath(image.id, image.format)).catch(() => null);
    const staged = async () => (image.fileKey ? fs.readFile(this.incomingPath(image.fileKey, image.format)).catch(() => null) : null);
    const io: RenditionIo = {
      original: async () => (await placed()) ?? (await staged()) ?? (image.fileKey ? placed() : null),
      kept: (width, format) => fs.readFile(this.renditionPath(image.id, format, width)).catch(() => null),
      keep: (width, format, bytes) => this.writeAtomically(this.renditionPath(image.id, format, width), bytes),
    };
    return this.renditions.read(image, requested, io, acceptsWebp);
  }
}

/**
 * Images in an S3 bucket (S3_BUCKET, CONTRACT.md 15): originals/{fileKey}.{ext} and w{width}/{fileKey}.{ext} (and
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
    return `${width === undefined ? "originals" : `w${width}`}/${image.fileKey ?? `id-${image.id}`}.${EXTENSIONS[image.format]}`;
  }

  /** The empty object that marks an upload in flight: `incoming/{fileKey}.{ext}` (server/images/image-tidy.ts). */
  static markerName(fileKey: string, format: ImageFormat): string {
    return `incoming/${fileKey}.${EXTENSIONS[format]}`;
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
      const format = match && FORMATS.find((f) => EXTENSIONS[f] === match[2]);
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

export const extensionOf = (format: ImageFormat) => EXTENSIONS[format];

export const formatOf = (contentType: string): ImageFormat => FORMATS.find((f) => CONTENT_TYPES[f] === contentType) ?? "jpeg";

/** A safe display name: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined, format: ImageFormat): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = Array.from(base.replace(/[\u0000-\u001F\u007F]/g, "").trim())
    .slice(0, 200)
    .join("");
  return cleaned || `image.${EXTENSIONS[format]}`;
}
