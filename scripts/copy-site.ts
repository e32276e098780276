// `npm run copy-site -- --from ./data`: copies a SQLite site (database and images) into the PostgreSQL of
// DATABASE_URL and the S3 bucket of S3_* (docs/api.md §1). The target database must be empty. Exit 1 on any problem.
import path from "node:path";
import { loadConfig } from "../server/config.ts";
import { ConfigError } from "../common/config-problems.ts";
import { copySite, SourceNotMigratedError, TargetNotEmptyError } from "./lib/copy-site.ts";

const USAGE = `Usage: DATABASE_URL=postgresql://... S3_BUCKET=... [S3_ENDPOINT=... S3_*] npm run copy-site -- --from <data folder>

Copies the SQLite site in <data folder> (app.db and images/) into an empty PostgreSQL database and an S3 bucket.
  --from <dir>           the SQLite site's data folder (default: DATA_DIR, else ./data)
  --batch <rows>         rows per INSERT (default 5000)
  --concurrency <n>      image uploads at once (default 16)`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const args = process.argv.slice(2);
let fromDir = process.env.DATA_DIR || "./data";
let batchRows = 5_000;
let imageConcurrency = 16;
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i]!.includes("=") ? args[i]!.split("=", 2) : [args[i]!, undefined];
  const value = () => inline ?? args[++i] ?? fail(`${flag} needs a value\n${USAGE}`);
  if (flag === "--help" || flag === "-h") {
    console.log(USAGE);
    process.exit(0);
  } else if (flag === "--from") fromDir = value();
  else if (flag === "--batch" || flag === "--concurrency") {
    const n = Number(value());
    if (!Number.isInteger(n) || n < 1) fail(`${flag} needs a whole number above 0`);
    if (flag === "--batch") batchRows = n;
    else imageConcurrency = n;
  } else fail(`Unknown argument: ${args[i]}\n${USAGE}`);
}

// The API's own reading of DATABASE_URL and S3_* (the secrets are not needed here: a placeholder keeps the
// development secret file from being written into the source folder).
let config;
try {
  config = loadConfig({ ...process.env, DATA_DIR: fromDir, JWT_SECRET: "copy-site-needs-no-secret-0123456789" });
} catch (err) {
  fail(err instanceof ConfigError ? err.message : String(err));
}
if (!config.databaseUrl) fail(`DATABASE_URL must name the PostgreSQL database to copy into.\n${USAGE}`);
if (!config.s3) fail(`S3_BUCKET (and S3_ENDPOINT, S3_* as the API uses them) must name the bucket for the images.\n${USAGE}`);

try {
  const result = await copySite({
    fromDir: path.resolve(fromDir),
    databaseUrl: config.databaseUrl,
    s3: config.s3,
    batchRows,
    imageConcurrency,
    log: (line) => console.log(line),
  });
  const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
  console.log(
    `Copied ${total} rows in ${Object.keys(result.rows).length} tables, ${result.originals} image originals and ${result.renditions} renditions in ${result.seconds.toFixed(1)} s.`,
  );
  for (const [table, n] of Object.entries(result.rows)) console.log(`  ${table.padEnd(12)} ${n}`);
  if (result.missingOriginals.length > 0)
    console.log(`Warning: ${result.missingOriginals.length} image rows had no original file in the folder (not in the bucket either).`);
} catch (err) {
  fail(
    err instanceof TargetNotEmptyError || err instanceof SourceNotMigratedError
      ? err.message
      : `copy-site failed: ${err instanceof Error ? err.message : String(err)}`,
  );
}
