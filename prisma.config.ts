// Prisma runs offline here with its JavaScript engine over better-sqlite3
// (see docs/decisions/001-prisma-6-js-engine.md). The database lives in DATA_DIR.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");

export default defineConfig({
  schema: "prisma/schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  adapter() {
    return Promise.resolve(new PrismaBetterSQLite3({ url: `file:${path.join(dataDir, "app.db")}` }));
  },
});
