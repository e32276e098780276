import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { RENDITION_WIDTHS } from "../rules/images.ts";
import { extensionOf, type ImageFormat } from "./image-formats.ts";
import type { ImageStorage, Rendition, StoredImage } from "./image-storage.ts";
import { renditionFormats, Renditions, type RenditionIo } from "./renditions.ts";

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
    return path.join(this.root, "originals", `${id}.${extensionOf(format)}`);
  }

  incomingPath(fileKey: string, format: ImageFormat) {
    return path.join(this.incomingDir, `${fileKey}.${extensionOf(format)}`);
  }

  renditionPath(id: number, format: ImageFormat, width: number) {
    return path.join(this.root, `w${width}`, `${id}.${extensionOf(format)}`);
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
