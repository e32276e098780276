/**
 * True for a unique-constraint failure on either engine: SQLite's SQLITE_CONSTRAINT_UNIQUE (or
 * SQLITE_CONSTRAINT_PRIMARYKEY), PostgreSQL's 23505, Prisma's P2002. It means two writers raced for one
 * name; the unique key decides and the loser gets a 409.
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code } = err as { code?: unknown };
  return typeof code === "string" && (code === "23505" || code === "P2002" || code.startsWith("SQLITE_CONSTRAINT_UNIQUE"));
}
