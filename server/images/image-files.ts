import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
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

/** Widths served by `?w=`: a request snaps up to the next one, so the cache stays small. */
export const RENDITION_WIDTHS = [160, 320, 480, 640, 800, 960, 1080, 1280, 1600, 1920] as const;

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
    return { bytes, format, width: out.width!, height: out.pageHeight ?? out.height! };
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

/** Where images live under the data folder: originals/{id}.{ext} and w{width}/{id}.{ext}. */
export class ImageFiles {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(readonly root: string) {}

  originalPath(id: number, format: ImageFormat) {
    return path.join(this.root, "originals", `${id}.${EXTENSIONS[format]}`);
  }

  renditionPath(id: number, format: ImageFormat, width: number) {
    return path.join(this.root, `w${width}`, `${id}.${EXTENSIONS[format]}`);
  }

  /** Writes the file under a temporary name first, so a reader never sees half of it. */
  async writeAtomically(file: string, bytes: Buffer): Promise<void> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, file);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  /** The path to serve for a width request: the original when it is no wider, else a cached rendition. */
  async pathFor(image: { id: number; format: ImageFormat; width: number }, requested: number | undefined): Promise<string> {
    const original = this.originalPath(image.id, image.format);
    if (requested === undefined) return original;
    const width: number = RENDITION_WIDTHS.find((w) => w >= requested) ?? RENDITION_WIDTHS[RENDITION_WIDTHS.length - 1]!;
    if (width >= image.width) return original;
    const target = this.renditionPath(image.id, image.format, width);
    const cached = await fs.stat(target).then(() => true, () => false);
    if (cached) return target;
    // Concurrent requests for the same rendition share one resize.
    const key = target;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.resize(original, image.format, width, target).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async resize(original: string, format: ImageFormat, width: number, target: string): Promise<string> {
    const animated = format === "gif" || format === "webp";
    const bytes = await encode(sharp(original, { animated }).resize({ width, withoutEnlargement: true }), format).toBuffer();
    await this.writeAtomically(target, bytes);
    return target;
  }
}

export const formatOf = (contentType: string): ImageFormat =>
  FORMATS.find((f) => CONTENT_TYPES[f] === contentType) ?? "jpeg";

/** A safe display name: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined, format: ImageFormat): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = Array.from(base.replace(/[\u0000-\u001F\u007F]/g, "").trim()).slice(0, 200).join("");
  return cleaned || `image.${EXTENSIONS[format]}`;
}
