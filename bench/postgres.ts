// `npm run bench -- --engine postgres`: the site in its scale-out configuration, PostgreSQL 15 + Redis 7 + an S3
// bucket (Swift), all started by tests/services for the run. Each cached SQLite data set is copied in with
// `npm run copy-site`'s code (scripts/lib/copy-site.ts) into a database and a bucket of its own.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { copySite } from "../scripts/lib/copy-site.ts";
import { migrateDatabase } from "../server/db/migrate.ts";
import type { S3Settings } from "../server/images/s3-storage.ts";
import type { RunningServices } from "../tests/services/index.ts";
import { DATA_ROOT, log } from "./common.ts";
import type { Dataset } from "./datasets.ts";

export type BenchEngine = "sqlite" | "postgres";

/** Where a site of the run keeps its data: the data folder, and on PostgreSQL the environment naming database, Redis and bucket. */
export interface SiteData {
  dataDir: string;
  env: Record<string, string>;
}

export interface PostgresRun {
  /** The services' versions and how long the copies took, for the report. */
  copies: Record<string, { seconds: number; rows: number; images: number }>;
  /** The site's data for a data set (copied first with `prepare`). */
  site(dataset: Dataset, label: string): SiteData;
  /** Copies a data set in (once per run). */
  prepare(dataset: Dataset): Promise<void>;
  /** A throw-away database copied from a data set's (CREATE DATABASE ... TEMPLATE), on the same bucket. */
  copyForWrites(dataset: Dataset, name: string): Promise<SiteData>;
  drop(name: string): Promise<void>;
  /** The database URL of a site's data. */
  databaseUrl(data: SiteData): string;
  stop(): Promise<void>;
}

const dbName = (name: string) => `bench_${name.replace(/\W+/g, "_")}`;
const bucketName = (name: string) => `bench-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;

export async function startPostgresRun(): Promise<PostgresRun> {
  log("Starting PostgreSQL, Redis and S3 (Swift) for the run (tests/services)...");
  const t = performance.now();
  // Loaded only in this mode: the harness checks for its Debian packages when it starts a service.
  const { startServices } = await import("../tests/services/index.ts");
  const services: RunningServices = await startServices({ bucket: "bench" });
  log(`  services up in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const serverUrl = services.postgres.url;
  const urlOf = (database: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const s3For = (bucket: string): S3Settings => ({
    endpoint: services.s3.endpoint,
    region: services.s3.region,
    bucket,
    accessKeyId: services.s3.accessKeyId,
    secretAccessKey: services.s3.secretAccessKey,
    forcePathStyle: true,
  });
  const envFor = (database: string, bucket: string, redisDb: number): Record<string, string> => ({
    ...services.env,
    DATABASE_URL: urlOf(database),
    // A Redis database per site start: no data version or counter carries over from an earlier site.
    REDIS_URL: `${services.redis.url}/${redisDb}`,
    S3_BUCKET: bucket,
  });
  // With DATABASE_URL and S3_BUCKET the site keeps nothing in its data folder; it still needs one to start in.
  const scratch = path.join(DATA_ROOT, "postgres-site");
  fs.mkdirSync(scratch, { recursive: true });
  let redisDb = 0;
  const copies: PostgresRun["copies"] = {};

  return {
    copies,
    async prepare(dataset) {
      // A set cached by an older version lacks the newer tables (copy-site refuses it): migrate it as the site's start would.
      await migrateDatabase(dataset.dir);
      const database = dbName(dataset.name);
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin(`CREATE DATABASE "${database}"`);
      log(`Copying the data set "${dataset.name}" into PostgreSQL (${database}) and S3 (${bucketName(dataset.name)}) with copy-site...`);
      const result = await copySite({
        fromDir: dataset.dir,
        databaseUrl: urlOf(database),
        s3: s3For(bucketName(dataset.name)),
        log: (line) => log(`  ${line.trim()}`),
      });
      const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
      copies[dataset.name] = { seconds: result.seconds, rows, images: result.originals };
      log(`  ${rows.toLocaleString("en-US")} rows and ${result.originals} images copied in ${result.seconds.toFixed(1)} s`);
      if (result.missingOriginals.length > 0) throw new Error(`${result.missingOriginals.length} images of "${dataset.name}" had no file`);
    },
    site(dataset) {
      return { dataDir: scratch, env: envFor(dbName(dataset.name), bucketName(dataset.name), ++redisDb % 16) };
    },
    async copyForWrites(dataset, name) {
      await admin(`DROP DATABASE IF EXISTS "${dbName(name)}" WITH (FORCE)`);
      await admin(`CREATE DATABASE "${dbName(name)}" TEMPLATE "${dbName(dataset.name)}"`);
      return { dataDir: scratch, env: envFor(dbName(name), bucketName(dataset.name), ++redisDb % 16) };
    },
    drop: (name) => admin(`DROP DATABASE IF EXISTS "${dbName(name)}" WITH (FORCE)`),
    databaseUrl: (data) => data.env.DATABASE_URL!,
    async stop() {
      await services.stop();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
