import { createHash } from "node:crypto";

export interface CachedImage {
  bytes: Buffer;
  contentType: string;
  etag: string;
  /** Published when it was read; a private entry is checked against the database on every hit. */
  public: boolean;
}

/**
 * The most recently served image files, kept in memory up to a byte budget (least recently used go
 * first). Images never change once uploaded, so an entry never goes stale; the cache only saves
 * the lookup, the stat and the file read of a hot page image.
 */
export class ImageBytesCache {
  private readonly entries = new Map<string, CachedImage>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): CachedImage | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  static entry(bytes: Buffer, contentType: string, isPublic: boolean): CachedImage {
    return { bytes, contentType, etag: `"${createHash("sha1").update(bytes).digest("base64url")}"`, public: isPublic };
  }

  set(key: string, bytes: Buffer, contentType: string, isPublic: boolean): CachedImage {
    const entry = ImageBytesCache.entry(bytes, contentType, isPublic);
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
