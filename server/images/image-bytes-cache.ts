import { createHash } from "node:crypto";

export interface CachedImage {
  bytes: Buffer;
  contentType: string;
  etag: string;
  /** Public when last checked; a private entry is checked against the database on every hit. */
  public: boolean;
  /**
   * The data version (server/shared-state.ts) at which who may see it was last read: a deletion or a removal is a
   * write and moves it, on every instance, so a hit at a newer version reads the image's state again first.
   */
  checkedAt: string;
}

/**
 * The most recently served image files, kept in memory up to a byte budget (least recently used go
 * first). The bytes of an image never change once uploaded, but whether it may be served does (deleted, removed,
 * restored): each entry says when that was last checked (docs/decisions/025-withdrawable-images.md). The cache saves
 * the file read (and the resize) of a hot page image, and while nothing is written, the database read too.
 */
export class ImageBytesCache {
  private readonly entries = new Map<string, CachedImage>();
  private bytes = 0;

  private readonly maxBytes: number;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): CachedImage | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  static entry(bytes: Buffer, contentType: string, isPublic: boolean, checkedAt: string): CachedImage {
    return { bytes, contentType, etag: `"${createHash("sha1").update(bytes).digest("base64url")}"`, public: isPublic, checkedAt };
  }

  /** Records a new check of a kept entry: whether it is public, as read at data version `version`. */
  static checked(entry: CachedImage, isPublic: boolean, version: string): void {
    entry.public = isPublic;
    entry.checkedAt = version;
  }

  set(key: string, bytes: Buffer, contentType: string, isPublic: boolean, checkedAt: string): CachedImage {
    const entry = ImageBytesCache.entry(bytes, contentType, isPublic, checkedAt);
    // An image larger than a quarter of the budget is served from disk every time.
    if (bytes.length > this.maxBytes / 4) return entry;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.bytes.length;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.bytes += bytes.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes.length;
    }
    return entry;
  }
}
