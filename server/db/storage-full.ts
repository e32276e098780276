/** The message of the 503 a write gets when the disk is full (docs/limits-and-durability.md). */
export const OUT_OF_SPACE_MESSAGE = "The server is out of storage space. Please try again later.";

// PostgreSQL: 53100 disk_full.
const CODES = new Set(["SQLITE_FULL", "53100", "ENOSPC", "EDQUOT"]);

/**
 * True for an error caused by a full disk: SQLite's SQLITE_FULL (raw, or wrapped by Prisma, which
 * keeps only the message) or a file write's ENOSPC / EDQUOT.
 */
export function isOutOfSpace(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && CODES.has(code)) return true;
    if (typeof message === "string" && (message.includes("database or disk is full") || message.includes("ENOSPC"))) return true;
    e = cause;
  }
  return false;
}
