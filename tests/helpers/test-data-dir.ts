import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database } from "../../server/db/database.ts";
import type { S3Settings } from "../../server/images/s3-storage.ts";
import type { S3Env } from "../services/swift.ts";

/**
 * Which engine this test run uses: the `postgres` project of vitest.config.ts sets TEST_DATABASE=postgres, and runs
 * with Redis and an S3 bucket too (tests/helpers/global-setup.ts).
 */
export const testEngine: Database["engine"] = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/** A fresh data folder holding a copy of the migrated template database (SQLite). */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comics-test-"));
  fs.copyFileSync(path.join(inject("templateDataDir"), "app.db"), path.join(dir, "app.db"));
  return dir;
}

/** A fresh data folder and, on PostgreSQL, a fresh database copied from the migrated template. */
export interface TestStore {
  dataDir: string;
  /** Set on PostgreSQL: the API's DATABASE_URL. */
  databaseUrl?: string;
  /** Set with PostgreSQL: REDIS_URL, and this store's own prefix for its keys. */
  redis?: { url: string; keyPrefix: string };
  /** Set with PostgreSQL: the S3 bucket of images, under this store's own prefix. */
  s3?: S3Settings;
  open(): Promise<Database>;
  /** Removes the folder and drops the database. */
  remove(): Promise<void>;
}

let databaseSeq = 0;

export async function freshTestStore(): Promise<TestStore> {
  const dataDir = testEngine === "sqlite" ? freshDataDir() : fs.mkdtempSync(path.join(os.tmpdir(), "comics-test-"));
  const databaseUrl = testEngine === "postgres" ? await copyTemplateDatabase() : undefined;
  const prefix = `${path.basename(dataDir)}/`;
  return {
    dataDir,
    databaseUrl,
    redis: testEngine === "postgres" ? { url: inject("redisUrl"), keyPrefix: prefix } : undefined,
    s3: testEngine === "postgres" ? { ...s3Settings(inject("s3Env")), prefix } : undefined,
    open: () => openDatabase(dataDir, databaseUrl),
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) await dropDatabase(databaseUrl);
    },
  };
}

const s3Settings = (env: S3Env): S3Settings => ({
  endpoint: env.S3_ENDPOINT,
  region: env.S3_REGION,
  bucket: env.S3_BUCKET,
  accessKeyId: env.S3_ACCESS_KEY_ID,
  secretAccessKey: env.S3_SECRET_ACCESS_KEY,
  forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
});

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/** CREATE DATABASE ... TEMPLATE: a copy of the migrated template in ~50 ms. */
async function copyTemplateDatabase(): Promise<string> {
  const server = inject("postgresServerUrl");
  const name = `test_${process.pid}_${++databaseSeq}`;
  await withClient(server, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${inject("postgresTemplate")}"`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(databaseUrl: string): Promise<void> {
  await withClient(inject("postgresServerUrl"), (client) =>
    client.query(`DROP DATABASE IF EXISTS "${databaseName(databaseUrl)}" WITH (FORCE)`),
  );
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
