import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../../server/db/database.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { isDatabaseEmpty } from "../../seed/demo.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Creates and migrates the database in the data folder, then fills it with the demo content when it
 * is empty and a demo password is given (seed/demo-password.ts). The seed runs in a child process:
 * drawing ~340 images takes a few hundred MB that the long-running servers should not keep.
 * With DATABASE_URL (or `databaseUrl`) the database is that PostgreSQL; the child gets the same.
 */
export async function prepareData(
  dataDir: string,
  options: { demoPassword?: string; databaseUrl?: string },
): Promise<"seeded" | "kept" | "empty"> {
  const databaseUrl = options.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  await migrateDatabase(dataDir, databaseUrl);
  const db = await openDatabase(dataDir, databaseUrl);
  const empty = await isDatabaseEmpty(db.kysely);
  await db.close();
  if (!empty) return "kept";
  if (options.demoPassword === undefined) return "empty";
  console.log("Empty database: adding the demo content (about half a minute, once)...");
  await new Promise<void>((resolve, reject) => {
    // The same Node with the same loader flags (tsx) as this process.
    const child = spawn(process.execPath, [...process.execArgv, path.join(root, "seed/cli.ts"), "--data-dir", dataDir], {
      cwd: root,
      stdio: "inherit",
      // The password this start chose (the child logs no password it is handed).
      env: { ...process.env, DEMO_PASSWORD: options.demoPassword, DATABASE_URL: databaseUrl ?? "" },
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`Seeding the demo content failed (exit ${code})`))));
  });
  return "seeded";
}
