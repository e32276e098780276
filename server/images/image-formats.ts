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

export const extensionOf = (format: ImageFormat) => EXTENSIONS[format];

/** The format a file name's extension stands for (`jpg` -> jpeg); undefined for any other. */
export const formatOfExtension = (extension: string): ImageFormat | undefined => FORMATS.find((f) => EXTENSIONS[f] === extension);

export const formatOf = (contentType: string): ImageFormat => FORMATS.find((f) => CONTENT_TYPES[f] === contentType) ?? "jpeg";

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

/** The encoding of a cleaned upload, and of a rendition kept in its original's format. */
export function encode(image: sharp.Sharp, format: ImageFormat): sharp.Sharp {
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

/** A safe display name: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined, format: ImageFormat): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = Array.from(base.replace(/[\u0000-\u001F\u007F]/g, "").trim())
    .slice(0, 200)
    .join("");
  return cleaned || `image.${EXTENSIONS[format]}`;
}
