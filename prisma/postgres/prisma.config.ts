// Prisma for the PostgreSQL schema: `prisma migrate diff --config prisma/postgres/prisma.config.ts ...` writes
// this engine's migrations (prisma/postgres/README.md). They are applied at start by server/db/migrate.ts, not by
// `prisma migrate deploy`, which fails through the pg adapter (prisma/orm#27403).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  schema: path.join(here, "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  adapter() {
    return Promise.resolve(new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://localhost/inkwell" }));
  },
});
