/**
 * npm run seed                      migrate DATA_DIR (default ./data) and fill it with the demo if it is empty
 * npm run seed -- --scale users=10000,hubs=100000,posts=1000000,bigHubPosts=200000,series=2000,chapters=50000
 *                                   fill an empty database with the large benchmark set
 * npm run seed -- --data-dir <dir>  use another data folder
 * DATABASE_URL=postgresql://... npm run seed   migrate and seed PostgreSQL instead (images still go to the data folder)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../server/db/database.ts";
import { migrateDatabase } from "../server/db/migrate.ts";
import { isDatabaseEmpty, seedDemo } from "./demo.ts";
import { chooseDemoPassword } from "./demo-password.ts";
import { parseScaleCounts, seedScale, BENCHMARK_COUNTS, SCALE_ON_POSTGRES } from "./scale.ts";

interface CliArgs {
  dataDir: string;
  /** PostgreSQL instead of the data folder's SQLite (from DATABASE_URL). */
  databaseUrl?: string;
  scale?: string;
  help: boolean;
}

const USAGE = `Usage: npm run seed -- [--data-dir <dir>] [--scale [name=count,...]]

  (no option)      fill an empty database with the demo content (skipped if it has content)
  --scale [counts] fill an empty database with the large benchmark set; counts default to
                   ${Object.entries(BENCHMARK_COUNTS)
                     .map(([k, v]) => `${k}=${v}`)
                     .join(",")}
  --data-dir <dir> the data folder (default: $DATA_DIR or ./data)

With DATABASE_URL set, the demo goes into that PostgreSQL database (its images into the data folder);
the large benchmark set is written into SQLite only.`;

export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): CliArgs {
  const args: CliArgs = { dataDir: env.DATA_DIR || "./data", databaseUrl: env.DATABASE_URL || undefined, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    switch (flag) {
      case "--help":
      case "-h":
        args.help = true;
        break;
      case "--data-dir": {
        const value = inline ?? argv[++i];
        if (!value) throw new Error("--data-dir needs a folder");
        args.dataDir = value;
        break;
      }
      case "--scale": {
        const next = argv[i + 1];
        args.scale = inline ?? (next && !next.startsWith("--") ? (i++, next) : "");
        break;
      }
      default:
        throw new Error(`Unknown argument: ${arg}`);
    }
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const counts = args.scale === undefined ? undefined : parseScaleCounts(args.scale);
  if (counts && args.databaseUrl) throw new Error(SCALE_ON_POSTGRES);
  const dataDir = path.resolve(args.dataDir);
  const login = chooseDemoPassword(process.env);
  // A password from DEMO_PASSWORD is the operator's (or npm start's, which prints it itself): not logged here.
  const shown = (password: string) => (login.source === "setting" ? "the password in DEMO_PASSWORD" : `password "${password}"`);
  console.log(`Data folder: ${dataDir}`);
  if (args.databaseUrl) console.log(`Database: PostgreSQL at ${new URL(args.databaseUrl).host}`);
  await migrateDatabase(dataDir, args.databaseUrl);
  const db = await openDatabase(dataDir, args.databaseUrl);
  try {
    if (counts) {
      if (!(await isDatabaseEmpty(db.kysely)))
        throw new Error("--scale needs an empty database; use a new --data-dir (the benchmark set is not mixed with other content)");
      const result = await seedScale(db, dataDir, counts, { password: login.password, log: (m) => console.log(m) });
      console.log(`Large data set written in ${result.seconds.toFixed(1)} s:`);
      console.table(result.rows);
      console.log(
        `Big hub: "${result.bigHub.name}" (id ${result.bigHub.id}, ${result.bigHub.posts} posts). Login: "${result.login.username}" with ${shown(result.login.password)}`,
      );
      return;
    }
    const result = await seedDemo(db, dataDir, { password: login.password, log: (m) => console.log(m) });
    if (!result.seeded) {
      console.log(`Demo content skipped: ${result.reason}.`);
      return;
    }
    console.log(`Demo content written in ${result.seconds.toFixed(1)} s:`);
    console.table(result.counts);
    console.log(`Sign in as "${result.login.username}" with ${shown(result.login.password)}.`);
  } finally {
    await db.close();
  }
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((err: unknown) => {
    console.error(`Seeding failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
