// Writes prisma/postgres/schema.prisma from prisma/schema.prisma, the one source of the models: the same
// models for PostgreSQL, with dates as BIGINT Unix milliseconds like SQLite's (docs/decisions/014-data-layer.md).
// `npm run db:postgres-schema` after changing the models; tests/api/data-layer.test.ts checks it is current.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma", "postgres", "schema.prisma");

const HEADER = `// Generated from prisma/schema.prisma by scripts/postgres-schema.ts: do not edit; edit that file and run
// \`npm run db:postgres-schema\`. Prisma writes this engine's migrations from it (prisma/postgres/README.md).
`;

export function postgresSchema(sqliteSchema: string): string {
  const body = sqliteSchema
    .replace(
      /generator client \{[^}]*\}/,
      `generator client {\n  provider   = "prisma-client"\n  output     = "../../node_modules/.prisma-unused"\n  engineType = "client"\n}`,
    )
    .replace(/provider = "sqlite"\n(\s*)url\s*= "[^"]*"/, `provider = "postgresql"\n$1url      = "postgresql://localhost/inkwell"`)
    // A number written as dbgenerated (DateTime takes no number) is a plain default on BIGINT: Prisma compares it with
    // the database's `DEFAULT 0` (checked by tests/api/migration-histories.test.ts), never equal to a dbgenerated one.
    .replace(
      /DateTime(\??)( +)@default\(dbgenerated\("(-?\d+)"\)\)/g,
      (_m, optional: string, gap: string, n: string) => `BigInt${optional}  ${gap}@default(${n})`,
    )
    .replace(/DateTime(\??)( +)@default\(now\(\)\)/g, (_m, optional: string, gap: string) => `BigInt${optional}${gap}${" ".repeat(13)}`)
    .replace(/DateTime(\??)/g, (_m, optional: string) => `BigInt${optional}  `)
    .replace(/[ \t]+$/gm, "");
  return HEADER + body;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true });
  fs.writeFileSync(POSTGRES_SCHEMA, postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  console.log(`wrote ${path.relative(root, POSTGRES_SCHEMA)}`);
}
