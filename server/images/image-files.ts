import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { RENDITION_WIDTHS } from "../rules/images.ts";
import { HttpError } from "../http/errors.ts";

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

  constructor(
    private readonly running: number,
    private readonly queued: number,
  ) {}

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
  /** False when the original was served instead (resizers busy): not to be cached as the rendition. */
  exact: boolean;
}

/**
 * Where images live under the data folder: originals/{id}.{ext} and w{width}/{id}.{ext}; every file
 * being written sits in incoming/ first (uploads as {fileKey}.{ext}, renditions as {uuid}.tmp), so
 * the start-up tidy reads one small folder (server/images/image-tidy.ts).
 */
export class ImageFiles {
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private readonly resizers: WorkLimiter;

  constructor(
    readonly root: string,
    resizeLimits: { running: number; queued: number } = { running: 2, queued: 8 },
  ) {
    this.resizers = new WorkLimiter(resizeLimits.running, resizeLimits.queued);
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
    await fs.mkdir(this.incomingDir, { recursive: true });
    const fileKey = randomUUID();
    await writeDurably(this.incomingPath(fileKey, format), bytes);
    await syncFolder(this.incomingDir);
    return fileKey;
  }

  /** Step 3, once the row naming the key is committed: the file moves to its final name. */
  async moveIntoPlace(fileKey: string, id: number, format: ImageFormat): Promise<void> {
    const target = this.originalPath(id, format);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(this.incomingPath(fileKey, format), target);
    await syncFolder(path.dirname(target));
    await syncFolder(this.incomingDir);
  }

  /** Undoes an upload: its staged file and, when it got that far, the file moved into place. */
  async discardUpload(fileKey: string, format: ImageFormat, id?: number): Promise<void> {
    await fs.rm(this.incomingPath(fileKey, format), { force: true });
    if (id !== undefined) await fs.rm(this.originalPath(id, format), { force: true });
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

  /**
   * The bytes to serve for a width request: the original when it is no wider, else a rendition made
   * once and kept on disk. With every resizer busy and the queue full, the original (a correct
   * image, just larger) instead of more work.
   */
  async read(image: { id: number; format: ImageFormat; width: number }, requested: number | undefined): Promise<Rendition | null> {
    const original = this.originalPath(image.id, image.format);
    const readOriginal = async (exact: boolean) => {
      const bytes = await fs.readFile(original).catch(() => null);
      return bytes && { bytes, exact };
    };
    if (requested === undefined) return readOriginal(true);
    const width: number = RENDITION_WIDTHS.find((w) => w >= requested) ?? RENDITION_WIDTHS[RENDITION_WIDTHS.length - 1]!;
    if (width >= image.width) return readOriginal(true);
    const target = this.renditionPath(image.id, image.format, width);
    const kept = await fs.readFile(target).catch(() => null);
    if (kept) return { bytes: kept, exact: true };
    // Concurrent requests for the same rendition share one resize.
    let pending = this.inFlight.get(target);
    if (!pending) {
      const started = this.resizers.tryRun(() => this.resize(original, image.format, width, target));
      if (!started) return readOriginal(false);
      pending = started.finally(() => this.inFlight.delete(target));
      this.inFlight.set(target, pending);
    }
    const bytes = await pending.catch(() => null);
    return bytes ? { bytes, exact: true } : null;
  }

  private async resize(original: string, format: ImageFormat, width: number, target: string): Promise<Buffer> {
    const animated = format === "gif" || format === "webp";
    const bytes = await encode(sharp(original, { animated }).resize({ width, withoutEnlargement: true }), format).toBuffer();
    // A rendition that cannot be kept (a full disk) is still served, from memory.
    await this.writeAtomically(target, bytes).catch(() => undefined);
    return bytes;
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
