/**
 * True for a unique-constraint failure, whichever way the write went: Prisma reports P2002, a
 * prepared better-sqlite3 statement SQLITE_CONSTRAINT_UNIQUE. It means two writers raced for one
 * name; the unique key decides and the loser gets a 409.
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code } = err as { code?: unknown };
  return typeof code === "string" && (code === "P2002" || code.startsWith("SQLITE_CONSTRAINT_UNIQUE"));
}
