// Prisma for checking the SQLite history against prisma/schema.prisma (prisma/postgres/README.md, "Checks"):
//   npx prisma migrate diff --config prisma/diff/sqlite.config.ts --from-migrations prisma/migrations \
//     --to-schema-datamodel prisma/schema.prisma --script --exit-code
// `--from-migrations` applies the history to a shadow database (here in memory). The stock adapter hands each
// migration file to better-sqlite3 as one statement, which refuses more than one ("External error id#0"); this
// shadow connection runs a query without arguments as a script instead.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

const here = path.dirname(fileURLToPath(import.meta.url));

class ShadowScripts extends PrismaBetterSQLite3 {
  override async connectToShadowDb() {
    const adapter = await super.connectToShadowDb();
    const executeRaw = adapter.executeRaw.bind(adapter);
    adapter.executeRaw = async (query) => {
      if (query.args.length > 0) return executeRaw(query);
      await adapter.executeScript(query.sql);
      return 0;
    };
    return adapter;
  }
}

export default defineConfig({
  schema: path.join(here, "..", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  // The diff reads no database of ours: only the shadow one.
  adapter: () => Promise.resolve(new ShadowScripts({ url: ":memory:" })),
});
