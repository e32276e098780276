import sharp from "sharp";
import { RENDITION_WIDTHS } from "../rules/images.ts";
import { encode, type ImageFormat } from "./image-formats.ts";
import type { Rendition, StoredImage } from "./image-storage.ts";
import { WorkLimiter } from "./work-limiter.ts";

// The WebP renditions of JPEG and PNG originals: quality 80 is a fifth to a third of the PNG rendition's bytes and
// looks like it on comic art (measured: docs/decisions/022-webp-renditions.md).
const WEBP_RENDITION_QUALITY = 80;

/** The format of a `?w=` rendition: WebP for a JPEG or PNG original when the client accepts it, else the original's. */
function renditionFormat(original: ImageFormat, acceptsWebp: boolean): ImageFormat {
  return acceptsWebp && (original === "jpeg" || original === "png") ? "webp" : original;
}

/** Every format an image's renditions may be kept in: what deleting it removes. */
export const renditionFormats = (original: ImageFormat): ImageFormat[] => [...new Set([original, renditionFormat(original, true)])];

/** How a store reads an original, reads a kept rendition and keeps a new one. */
export interface RenditionIo {
  original(): Promise<Buffer | null>;
  kept(width: number, format: ImageFormat): Promise<Buffer | null>;
  keep(width: number, format: ImageFormat, bytes: Buffer): Promise<void>;
}

/** Renditions made on demand, at most `running` at once (the rest wait or get the original), each made once. */
export class Renditions {
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
